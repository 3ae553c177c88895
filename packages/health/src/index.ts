export { healthPortFromEnv } from './health-port.js';
export type { HealthServer, HealthServerOptions } from './health-server.js';
export { startHealthServer } from './health-server.js';
export { PromMetrics } from './prom-metrics.js';
export type { Readiness, ReadinessCheck } from './readiness.js';
export { ReadinessChecks } from './readiness.js';
export type { Health } from './health.js';
export { startHealth } from './health.js';
