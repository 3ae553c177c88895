import { noMetrics } from '@genbot/core/metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { type Health, startHealth } from './health.js';
import { PromMetrics } from './prom-metrics.js';

let health: Health | undefined;

afterEach(async () => {
  await health?.close();
  health = undefined;
});

describe('startHealth', () => {
  it('serves nothing and records nothing without HEALTH_PORT', async () => {
    health = await startHealth({});
    expect(health.server).toBeUndefined();
    expect(health.metrics).toBe(noMetrics);
  });

  it('with HEALTH_PORT, serves the endpoints with the metrics core records and the checks added later', async () => {
    health = await startHealth({ HEALTH_PORT: '0' }, { host: '127.0.0.1' });
    expect(health.metrics).toBeInstanceOf(PromMetrics);
    const url = health.server?.url ?? '';
    health.metrics.rateLimited({ platform: 'discord', route: '/channels/:id/messages' });
    expect(await (await fetch(`${url}/metrics`)).text()).toContain(
      'genbot_platform_rate_limited_total{platform="discord",route="/channels/:id/messages"} 1',
    );
    let connected = false;
    health.addCheck({ name: 'discord', check: () => (connected ? undefined : 'gateway not connected') });
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    connected = true;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    health.beginDrain();
    expect(await (await fetch(`${url}/readyz`)).text()).toBe('draining: the process is shutting down\n');
  });
});
