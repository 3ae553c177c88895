/**
 * Whether this run is CI, where whatever a test needs must be there: CI services set CI (to `true`,
 * `1` or a name); `false` or `0` says it is not one.
 */
export function inCi(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}
