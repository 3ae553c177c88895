/** A value that survives `JSON.stringify` and `JSON.parse` unchanged: what the store keeps as JSON. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };
