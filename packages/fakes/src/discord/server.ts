import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { GATEWAY_PATH, type Gateway } from './gateway.js';

export interface ListeningServer {
  readonly origin: string;
  /** Serves the REST app and upgrades `/gateway` to the gateway WebSocket. */
  attach(app: Hono, gateway: Gateway): void;
  close(): Promise<void>;
}

/** Binds loopback first, so the app can be built knowing its own origin (attachment URLs). */
export async function listen(port: number): Promise<ListeningServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: actualPort } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${actualPort}`,
    attach(app, gateway) {
      // Without this, the listener swaps the process's global Request/Response for
      // its own classes, and discord.js uploads in the same process then break.
      server.on('request', getRequestListener(app.fetch, { overrideGlobalObjects: false }));
      server.on('upgrade', (request, socket, head) => {
        if (new URL(request.url ?? '/', 'http://fake').pathname.replace(/\/$/, '') === GATEWAY_PATH) {
          gateway.handleUpgrade(request, socket, head);
        } else {
          socket.destroy();
        }
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
