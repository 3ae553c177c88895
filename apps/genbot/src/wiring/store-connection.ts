import { ConfigError } from '@genbot/core/errors';
import type { Logger } from '@genbot/core/log';
import { type Store, StoreUnavailableError } from '@genbot/core/store';
import type { ReadinessCheck } from '@genbot/health';
import { type OpenedStore, openStore } from '@genbot/store';

const RETRY_MS = 5_000;

/**
 * The store behind DATABASE_URL, kept usable across a database that is down
 * at start: the bots start anyway, every call is refused with the reason
 * (so new work gets a short answer and `/readyz` says 503), and opening is
 * tried again at most every few seconds until it succeeds. A database that
 * goes away later is the store's own business: its calls reject with
 * StoreUnavailableError until it answers again.
 */
export class StoreConnection {
  readonly store: Store;
  readonly #url: string | undefined;
  readonly #logger: Logger;
  #opened: OpenedStore | undefined;
  #opening: Promise<OpenedStore> | undefined;
  #lastError: StoreUnavailableError | undefined;
  #lastTry = 0;
  #closed = false;
  readonly #onOpen: ((store: OpenedStore) => void)[] = [];
  #retry: NodeJS.Timeout | undefined;

  private constructor(url: string | undefined, logger: Logger) {
    this.#url = url;
    this.#logger = logger;
    this.store = this.#facade();
  }

  /**
   * Opens the store. A DATABASE_URL that names no database (DatabaseUrlError), or one that only an
   * operator can make usable (a damaged or read-only file, a refused login: ConfigError), throws:
   * restarting would change nothing, so the process stops with a configuration status instead of
   * looping. A database that may come back (down, unreachable, locked) is logged and tried again.
   */
  static async open(url: string | undefined, logger: Logger): Promise<StoreConnection> {
    const connection = new StoreConnection(url, logger);
    try {
      await connection.#ready();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      if (!error.retryable) throw new ConfigError(error.message);
      connection.#retryUntilOpen();
    }
    return connection;
  }

  /** Which database, without a password; undefined until opened. */
  get display(): string | undefined {
    return this.#opened?.display;
  }

  get problem(): string | undefined {
    return this.#opened === undefined ? this.#lastError?.message : undefined;
  }

  /** Runs once the store is open (at once when it is). */
  whenOpen(callback: (store: OpenedStore) => void): void {
    if (this.#opened !== undefined) callback(this.#opened);
    else this.#onOpen.push(callback);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#retry);
    await this.#opening?.catch(() => undefined);
    await this.#opened?.close();
  }

  /** Nothing else may ask for the store for a while (no HEALTH_PORT, no requests): keep trying on a timer. */
  #retryUntilOpen(): void {
    this.#retry = setInterval(() => {
      if (this.#opened !== undefined || this.#closed) {
        clearInterval(this.#retry);
        return;
      }
      this.#ready().catch(() => undefined);
    }, RETRY_MS);
    this.#retry.unref();
  }

  async #ready(): Promise<OpenedStore> {
    if (this.#opened !== undefined) return this.#opened;
    if (this.#closed) throw new StoreUnavailableError('DATABASE_URL: the store is closed', { retryable: false });
    if (this.#opening === undefined && this.#lastError !== undefined && Date.now() - this.#lastTry < RETRY_MS) {
      throw this.#lastError;
    }
    this.#opening ??= this.#tryOpen();
    return this.#opening;
  }

  async #tryOpen(): Promise<OpenedStore> {
    this.#lastTry = Date.now();
    try {
      const opened = await openStore(this.#url, { logger: this.#logger });
      this.#opened = opened;
      if (this.#lastError !== undefined) this.#logger.info({ database: opened.display }, 'database reachable again');
      this.#lastError = undefined;
      for (const callback of this.#onOpen.splice(0)) callback(opened);
      return opened;
    } catch (error) {
      if (error instanceof StoreUnavailableError) {
        if (this.#lastError === undefined) this.#logger.error({ err: error }, error.message);
        this.#lastError = error;
      }
      throw error;
    } finally {
      this.#opening = undefined;
    }
  }

  /** A Store whose every call waits for the database to be open, or is refused with why it is not. */
  #facade(): Store {
    const part = <K extends 'jobs' | 'versions' | 'usage' | 'settings' | 'threads' | 'installations'>(
      name: K,
    ): Store[K] =>
      new Proxy({} as Store[K], {
        // Not a thenable: awaiting a port must not call it.
        get: (_target, method: string | symbol) =>
          method === 'then'
            ? undefined
            : async (...args: unknown[]) => {
                const store = await this.#ready();
                const port = store[name] as unknown as Record<string | symbol, (...given: unknown[]) => unknown>;
                return port[method]?.apply(port, args);
              },
      });
    return {
      jobs: part('jobs'),
      versions: part('versions'),
      usage: part('usage'),
      settings: part('settings'),
      threads: part('threads'),
      installations: part('installations'),
      sweep: async (options) => (await this.#ready()).sweep(options),
      ping: async () => (await this.#ready()).ping(),
      close: () => this.close(),
    };
  }
}

/** `/readyz`'s database check, for the bots and the workers alike: ready while the store answers a ping. */
export function databaseReadiness(store: Store): ReadinessCheck {
  return {
    name: 'database',
    check: async () => {
      try {
        await store.ping();
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
  };
}
