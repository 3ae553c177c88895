import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedOrSkipped } from './installed.js';
import { findRedisServer, REDIS_INSTALL_HINT, type RedisServer, startRedis } from './redis.js';

const installed = installedOrSkipped({
  name: 'Redis',
  found: findRedisServer() !== undefined,
  install: REDIS_INSTALL_HINT,
});

/** One inline command over RESP; resolves with the first reply line, or rejects when nothing listens. */
function redis(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      const lines = reply.split('\r\n');
      // A bulk string ($N) is followed by its value line.
      if (lines.length >= 2 && (!reply.startsWith('$') || lines.length >= 3 || reply.startsWith('$-1'))) {
        socket.destroy();
        resolve(reply.startsWith('$') && !reply.startsWith('$-1') ? (lines[1] ?? '') : (lines[0] ?? ''));
      }
    });
    socket.once('error', reject);
  });
}

describe.runIf(installed)('startRedis', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.close();
  });

  it('listens on loopback at the port in its URL', async () => {
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    expect(await redis(server.port, 'PING')).toBe('+PONG');
  });

  it('stops, refusing connections, and starts again on the same port without the old keys', async () => {
    expect(await redis(server.port, 'SET greeting hello')).toBe('+OK');
    await server.stop();
    await expect(redis(server.port, 'PING')).rejects.toThrow(/ECONNREFUSED/);
    await server.start();
    expect(await redis(server.port, 'GET greeting')).toBe('$-1');
  });

  it('keeps its keys over a restart when asked to persist', async () => {
    const durable = await startRedis({ persist: true });
    try {
      expect(await redis(durable.port, 'SET greeting kept')).toBe('+OK');
      await durable.stop();
      await durable.start();
      expect(await redis(durable.port, 'GET greeting')).toBe('kept');
    } finally {
      await durable.close();
    }
  });

  it('close stops the server and removes its directory', async () => {
    const other = await startRedis();
    expect(existsSync(other.directory)).toBe(true);
    await other.close();
    expect(existsSync(other.directory)).toBe(false);
    await expect(redis(other.port, 'PING')).rejects.toThrow(/ECONNREFUSED/);
  });
});
