import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedOrSkipped } from './installed.js';
import { findNginx, NGINX_INSTALL_HINT, type NginxServer, startNginx } from './nginx.js';

const installed = installedOrSkipped({ name: 'nginx', found: findNginx() !== undefined, install: NGINX_INSTALL_HINT });

/** A backend that answers every request with its own name, or 503 while `draining`. */
async function backend(name: string): Promise<{ server: Server; address: string; draining: boolean }> {
  const state = { draining: false };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.statusCode = state.draining ? 503 : 200;
      response.end(state.draining ? 'draining' : name);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, { server, address: `127.0.0.1:${port}` });
}

describe.runIf(installed)('startNginx', () => {
  let nginx: NginxServer;
  let one: Awaited<ReturnType<typeof backend>>;
  let two: Awaited<ReturnType<typeof backend>>;
  beforeAll(async () => {
    one = await backend('one');
    two = await backend('two');
    nginx = await startNginx({ upstreams: [one.address, two.address] });
  });
  afterAll(async () => {
    await nginx?.close();
    one?.server.close();
    two?.server.close();
  });

  it('spreads requests over its upstreams round-robin, and logs which one answered', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 4; i++)
      answers.push(await (await fetch(`${nginx.url}/slack/events`, { method: 'POST', body: '{}' })).text());
    expect(answers.sort()).toEqual(['one', 'one', 'two', 'two']);
    const log = await nginx.accessLog();
    expect(log).toContain(`"POST /slack/events HTTP/1.1" 200 ${one.address}`);
    expect(log).toContain(`"POST /slack/events HTTP/1.1" 200 ${two.address}`);
  });

  it('hands a POST refused by a draining upstream to the other one', async () => {
    one.draining = true;
    try {
      for (let i = 0; i < 4; i++) {
        const response = await fetch(`${nginx.url}/slack/events`, { method: 'POST', body: '{}' });
        expect(await response.text()).toBe('two');
      }
    } finally {
      one.draining = false;
    }
  });

  it('stops, refusing connections, and starts again on the same port', async () => {
    await nginx.stop();
    await expect(fetch(nginx.url)).rejects.toThrow();
    await nginx.start();
    expect((await fetch(nginx.url)).status).toBe(200);
  });

  it('runs its workers as a user that can read its directory', async () => {
    const pid = Number((await readFile(`${nginx.directory}/nginx.pid`, 'utf8')).trim());
    const workers = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).trim().split(' ').map(Number);
    expect(workers.length).toBeGreaterThan(0);
    const owner = (await stat(nginx.directory)).uid;
    for (const worker of workers) {
      const uid = /^Uid:\s+(\d+)/m.exec(await readFile(`/proc/${worker}/status`, 'utf8'))?.[1];
      expect(Number(uid)).toBe(owner);
    }
  });

  it('keeps its pid file and logs in its own directory, and close removes it', async () => {
    const other = await startNginx({ upstreams: [one.address] });
    expect(existsSync(`${other.directory}/nginx.pid`)).toBe(true);
    expect(existsSync(`${other.directory}/logs/error.log`)).toBe(true);
    expect(await (await fetch(other.url)).text()).toBe('one');
    await other.close();
    expect(existsSync(other.directory)).toBe(false);
    await expect(fetch(other.url)).rejects.toThrow();
  });
});
