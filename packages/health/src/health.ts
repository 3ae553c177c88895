import type { Env } from '@genbot/core/config';
import { type Metrics, noMetrics } from '@genbot/core/metrics';
import { healthPortFromEnv } from './health-port.js';
import { type HealthServer, startHealthServer } from './health-server.js';
import { PromMetrics } from './prom-metrics.js';
import type { ReadinessCheck } from './readiness.js';

/** What a long-running process holds: the Metrics to hand to core, and its health endpoints. */
export interface Health {
  /** Prometheus-backed with HEALTH_PORT, otherwise the no-op: core records either way. */
  readonly metrics: Metrics;
  /** The health server, when HEALTH_PORT is set. */
  readonly server: HealthServer | undefined;
  addCheck(check: ReadinessCheck): void;
  /** `/readyz` answers 503 from now on: call it first on SIGTERM, before draining. */
  beginDrain(): void;
  close(): Promise<void>;
}

/**
 * Serves `/healthz`, `/readyz` and `/metrics` on HEALTH_PORT when it is set (CONTRACT.md,
 * "Operation"); without it, serves nothing and records no metrics, at no cost.
 */
export async function startHealth(
  env: Env,
  options: { host?: string; checks?: readonly ReadinessCheck[] } = {},
): Promise<Health> {
  const port = healthPortFromEnv(env);
  if (port === undefined) {
    return {
      metrics: noMetrics,
      server: undefined,
      addCheck() {},
      beginDrain() {},
      async close() {},
    } satisfies Health;
  }
  const metrics = new PromMetrics();
  const server = await startHealthServer({
    port,
    registry: metrics.registry,
    ...(options.host !== undefined && { host: options.host }),
    ...(options.checks !== undefined && { checks: options.checks }),
  });
  return {
    metrics,
    server,
    addCheck: (check) => server.addCheck(check),
    beginDrain: () => server.beginDrain(),
    close: () => server.close(),
  } satisfies Health;
}
