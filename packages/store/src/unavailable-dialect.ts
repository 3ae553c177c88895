import type {
  AbortableOperationOptions,
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/**
 * Wraps a dialect so that every error of its driver passes through
 * `translate` once: the store's methods then reject with
 * StoreUnavailableError without each of them catching.
 */
export function translatingDialect(inner: Dialect, translate: (error: unknown) => unknown): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createDriver: () => new TranslatingDriver(inner.createDriver(), translate),
  };
}

class TranslatingDriver implements Driver {
  readonly #inner: Driver;
  readonly #translate: (error: unknown) => unknown;
  /** The driver gets back the connection it handed out, not our wrapper. */
  readonly #unwrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(inner: Driver, translate: (error: unknown) => unknown) {
    this.#inner = inner;
    this.#translate = translate;
  }

  #guard<T>(operation: () => Promise<T>): Promise<T> {
    return operation().catch((error: unknown) => {
      throw this.#translate(error);
    });
  }

  #inside(connection: DatabaseConnection): DatabaseConnection {
    return this.#unwrapped.get(connection) ?? connection;
  }

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.#guard(() => this.#inner.init(options));
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    const connection = await this.#guard(() => this.#inner.acquireConnection(options));
    const guard = <T>(operation: () => Promise<T>) => this.#guard(operation);
    const wrapper: DatabaseConnection = {
      executeQuery<R>(query: CompiledQuery, queryOptions?: AbortableOperationOptions): Promise<QueryResult<R>> {
        return guard(() => connection.executeQuery<R>(query, queryOptions));
      },
      streamQuery<R>(
        query: CompiledQuery,
        chunkSize: number,
        queryOptions?: AbortableOperationOptions,
      ): AsyncIterableIterator<QueryResult<R>> {
        return connection.streamQuery<R>(query, chunkSize, queryOptions);
      },
    };
    this.#unwrapped.set(wrapper, connection);
    return wrapper;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#guard(() => this.#inner.beginTransaction(this.#inside(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#guard(() => this.#inner.commitTransaction(this.#inside(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#guard(() => this.#inner.rollbackTransaction(this.#inside(connection)));
  }

  releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.releaseConnection(this.#inside(connection), options);
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.destroy(options);
  }
}
