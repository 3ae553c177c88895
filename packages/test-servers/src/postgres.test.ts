import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedOrSkipped } from './installed.js';
import { findPostgresBin, POSTGRES_INSTALL_HINT, type PostgresServer, startPostgres } from './postgres.js';

const installed = installedOrSkipped({
  name: 'PostgreSQL',
  found: findPostgresBin() !== undefined,
  install: POSTGRES_INSTALL_HINT,
});

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe.runIf(installed)('startPostgres', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server.close();
  });

  it('listens on loopback at the port in its URL', async () => {
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    expect(await accepts(server.port)).toBe(true);
  });

  it('stops and starts again on the same port', async () => {
    await server.stop();
    expect(await accepts(server.port)).toBe(false);
    await server.start();
    expect(await accepts(server.port)).toBe(true);
  });

  it('close stops the server and removes its directory', async () => {
    const other = await startPostgres();
    expect(existsSync(other.directory)).toBe(true);
    await other.close();
    expect(existsSync(other.directory)).toBe(false);
    expect(await accepts(other.port)).toBe(false);
  });
});
