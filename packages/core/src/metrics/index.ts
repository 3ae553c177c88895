export type { IntakeRefusal, Metrics, ModelOperation } from './metrics.js';
export { noMetrics } from './metrics.js';
