import { QueueUnavailableError } from '@genbot/core/errors';
import { Redis } from 'ioredis';

function unavailable(what: string, cause: unknown): QueueUnavailableError {
  return new QueueUnavailableError(`Redis (REDIS_URL) is not reachable: ${what}`, { cause });
}

/**
 * A connection for calls a caller waits on (adds, coordination): while Redis
 * is away they fail at once instead of queueing in memory, so ingress can
 * refuse new work in words rather than hang; ioredis reconnects by itself.
 */
export function commandConnection(url: string): Redis {
  // Auto-pipelining: commands issued in the same turn of the event loop (a burst of events at
  // ingress) go out in one write instead of one system call each.
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    enableAutoPipelining: true,
  });
}

/**
 * A connection for BullMQ workers: they block on Redis and must wait through
 * an outage (BullMQ requires `maxRetriesPerRequest: null` for them).
 */
export function workerConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null });
}

/**
 * A `commandConnection` once it is ready (its calls fail at once before
 * that); rejects naming REDIS_URL when Redis cannot be reached in time.
 */
export async function connectRedis(url: string, options: { timeoutMs?: number } = {}): Promise<Redis> {
  const connection = commandConnection(url);
  let lastError: unknown;
  const onError = (error: unknown): void => {
    lastError = error;
  };
  connection.on('error', onError);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        connection.disconnect();
        reject(unavailable(`no connection within ${options.timeoutMs ?? 10_000} ms`, lastError));
      }, options.timeoutMs ?? 10_000);
      connection.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } finally {
    connection.off('error', onError);
  }
  // Failures surface on the calls themselves; without a listener ioredis would report each reconnect attempt.
  connection.on('error', () => undefined);
  return connection;
}

/** Runs a Redis call, naming REDIS_URL when the server is away. */
export async function reaching<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isConnectionError(error)) throw unavailable(what, error);
    throw error;
  }
}

function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    error.name === 'MaxRetriesPerRequestError' ||
    /enableOfflineQueue|Connection is closed|Stream isn't writeable/.test(error.message)
  );
}
