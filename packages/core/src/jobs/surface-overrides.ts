/**
 * `inner` with `overrides` in place of some of its members: every other
 * member, one the port gains later included, reaches `inner` untouched (its
 * methods called on it). An override set to undefined hides the member;
 * `overrides` may add members of its own (`E`).
 */
export function withOverrides<S extends object, E extends object = object>(inner: S, overrides: Partial<S> & E): S & E {
  return new Proxy(inner as S & E, {
    get(target, key) {
      if (Object.hasOwn(overrides, key)) return Reflect.get(overrides, key);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    has(target, key) {
      return Object.hasOwn(overrides, key) ? Reflect.get(overrides, key) !== undefined : Reflect.has(target, key);
    },
  });
}
