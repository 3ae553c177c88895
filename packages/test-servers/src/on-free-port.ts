import { rm } from 'node:fs/promises';
import { freeLoopbackPort } from './free-port.js';
import type { ServerProcess } from './server-process.js';

/** Another free port is tried when the one picked was taken before the server bound it. */
const BIND_ATTEMPTS = 3;

export interface OnFreePortOptions {
  /** The server's temporary directory: deleted on `close`, or when it never starts. */
  directory: string;
  /** Starts the server on `port`; called again by `start` after a `stop`. */
  launch(port: number): Promise<ServerProcess>;
  /** What the server says when its port was taken meanwhile. */
  portTaken: RegExp;
  /** `stop`'s signal (how the server goes away under a running bot), and `close`'s. */
  signals: { stop: NodeJS.Signals; close: NodeJS.Signals };
}

/** A server on a loopback port that a test can stop, start again on that port, and close. */
export interface ServerOnFreePort {
  readonly port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Launches a server on a free loopback port (a free port can be taken by
 * another process before the server binds it: then another is tried), and
 * keeps it so that it can be stopped, started again and closed.
 */
export async function serveOnFreePort(options: OnFreePortOptions): Promise<ServerOnFreePort> {
  const { directory, launch, portTaken, signals } = options;
  let server: ServerProcess | undefined;
  let port = 0;
  try {
    for (let attempt = 1; server === undefined; attempt++) {
      port = await freeLoopbackPort();
      try {
        server = await launch(port);
      } catch (error) {
        const taken = error instanceof Error && portTaken.test(error.message);
        if (!taken || attempt >= BIND_ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    async stop() {
      await server?.stop(signals.stop);
      server = undefined;
    },
    async start() {
      if (server === undefined) server = await launch(port);
    },
    async close() {
      try {
        await server?.stop(signals.close);
        server = undefined;
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
  };
}
