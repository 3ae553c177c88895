import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { LoopTurns } from '@genbot/core/time';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { takeTurns } from './request-turns.js';

/** A handler's synchronous work (Bolt's HMAC, parsing), long enough for a timer set before it to be due after it. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Holds the loop.
  }
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/**
 * Connections opened and accepted first, then one request written on each in
 * the same tick: they arrive in one poll of the server's loop.
 */
async function burst(server: Server, count: number): Promise<void> {
  const { port } = server.address() as AddressInfo;
  let accepted = 0;
  const allAccepted = new Promise<void>((resolve) => {
    server.on('connection', () => {
      accepted += 1;
      if (accepted === count) resolve();
    });
  });
  const sockets = Array.from({ length: count }, () => connect(port, '127.0.0.1'));
  await Promise.all([allAccepted, ...sockets.map((socket) => once(socket, 'connect'))]);
  const answered = sockets.map((socket: Socket) => once(socket, 'data'));
  sockets.forEach((socket, i) => {
    socket.write(`POST /slack/events HTTP/1.1\r\nHost: x\r\nX-N: ${String(i)}\r\nContent-Length: 0\r\n\r\n`);
  });
  await Promise.all(answered);
  for (const socket of sockets) socket.destroy();
}

describe('takeTurns', () => {
  it('runs the receiver for each request of a burst on a turn of the loop of its own, in arrival order', async () => {
    const log: string[] = [];
    const server = createServer((request, response) => {
      const n = String(request.headers['x-n']);
      log.push(`request ${n}`);
      setTimeout(() => log.push(`timer after ${n}`), 0);
      busyFor(3);
      response.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    closers.push(async () => {
      server.close();
      await once(server, 'close');
    });
    takeTurns(server, new LoopTurns());
    await burst(server, 3);
    await vi.waitFor(() => expect(log).toHaveLength(6));
    expect(log).toEqual(['request 0', 'timer after 0', 'request 1', 'timer after 1', 'request 2', 'timer after 2']);
  });
});
