import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on right now. Another process may take it
 * before the caller binds it, so servers started on it retry on a bind error.
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port was assigned'))));
    });
  });
}
