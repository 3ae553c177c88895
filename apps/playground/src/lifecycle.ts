import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How long responses still under way (the live feeds' last states) get once the server closes. */
const CLOSE_GRACE_MS = 1000;

export interface Listening {
  port: number;
  /** `http://HOST:PORT/` */
  url: string;
  /**
   * Stops accepting connections and resolves once all are closed: idle ones at once, busy ones as
   * soon as their response ends, or when the grace period is over.
   */
  close(): Promise<void>;
}

/** Listens on `host:port` (0: a free port) and resolves once connections are accepted. */
export async function listen(listener: RequestListener, port: number, host: string): Promise<Listening> {
  let closing = false;
  const server = createServer(listener);
  // Keep-alive would hold a connection open after its last response: once closing, none is kept.
  server.on('request', (_request, response) => {
    response.once('close', () => {
      if (closing) server.closeIdleConnections();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/`,
    async close() {
      closing = true;
      const forced = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearTimeout(forced);
    },
  };
}
