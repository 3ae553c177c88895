import { afterEach, describe, expect, it } from 'vitest';
import { type HealthServer, startHealthServer } from './health-server.js';
import { PromMetrics } from './prom-metrics.js';

let server: HealthServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function get(path: string): Promise<{ status: number; body: string; type: string | null }> {
  if (server === undefined) throw new Error('no server');
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, body: await response.text(), type: response.headers.get('content-type') };
}

function start(options: Partial<Parameters<typeof startHealthServer>[0]> = {}): Promise<HealthServer> {
  return startHealthServer({ port: 0, host: '127.0.0.1', registry: new PromMetrics().registry, ...options });
}

describe('the health server', () => {
  it('answers /healthz with 200 while the process runs, whatever readiness says', async () => {
    server = await start({ checks: [{ name: 'redis', check: () => 'connection refused' }] });
    expect(await get('/healthz')).toMatchObject({ status: 200, body: 'ok\n' });
  });

  it('answers /readyz with 200 when every check passes', async () => {
    server = await start({ checks: [{ name: 'database', check: async () => undefined }] });
    expect(await get('/readyz')).toMatchObject({ status: 200, body: 'ready\n' });
  });

  it('answers /readyz with 503 and every failing check by name', async () => {
    let redisUp = false;
    server = await start({
      checks: [
        { name: 'slack', check: () => undefined },
        { name: 'redis', check: () => (redisUp ? undefined : 'connection refused') },
      ],
    });
    server.addCheck({
      name: 'database',
      check: async () => {
        throw new Error('DATABASE_URL: the server does not answer');
      },
    });
    expect(await get('/readyz')).toEqual({
      status: 503,
      body: 'redis: connection refused\ndatabase: DATABASE_URL: the server does not answer\n',
      type: 'text/plain; charset=utf-8',
    });
    redisUp = true;
    expect((await get('/readyz')).body).toBe('database: DATABASE_URL: the server does not answer\n');
  });

  it('counts a check that hangs as failed after its timeout instead of hanging the probe', async () => {
    server = await start({
      checkTimeoutMs: 100,
      checks: [{ name: 'redis', check: () => new Promise<string | undefined>(() => {}) }],
    });
    expect(await get('/readyz')).toMatchObject({ status: 503, body: 'redis: no answer within 100 ms\n' });
  });

  it('answers /readyz with 503 once draining has begun, while /healthz stays 200', async () => {
    server = await start();
    expect((await get('/readyz')).status).toBe(200);
    server.beginDrain();
    expect(await get('/readyz')).toMatchObject({ status: 503, body: 'draining: the process is shutting down\n' });
    expect((await get('/healthz')).status).toBe(200);
  });

  it('serves Prometheus text on /metrics', async () => {
    const metrics = new PromMetrics();
    metrics.jobFinished({ kind: 'imagine', outcome: 'done', seconds: 3 });
    server = await start({ registry: metrics.registry });
    const { status, body, type } = await get('/metrics');
    expect(status).toBe(200);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(body).toContain('genbot_jobs_total{kind="imagine",outcome="done"} 1');
  });

  it('refuses other paths and methods', async () => {
    server = await start();
    expect((await get('/')).status).toBe(404);
    const post = await fetch(`${server.url}/readyz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('fails to start with the reason when the port is taken', async () => {
    server = await start();
    await expect(start({ port: server.port })).rejects.toThrow(/EADDRINUSE/);
  });
});
