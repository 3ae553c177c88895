/** The slice of pino the store logs through. */
export interface StoreLogger {
  warn(details: object, message?: string): void;
}

export interface StoreOptions {
  logger?: StoreLogger;
  /** The store's clock (tests move it); default the system's. */
  now?: () => Date;
}
