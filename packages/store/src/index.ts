export { DatabaseUrlError } from './database-url-error.js';
export type { DatabaseTarget } from './database-url.js';
export { DEFAULT_SQLITE_PATH, parseDatabaseUrl } from './database-url.js';
export type { OpenedStore } from './open-store.js';
export { openStore } from './open-store.js';
export type { StoreLogger, StoreOptions } from './store-options.js';
