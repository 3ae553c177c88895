export type { IntakeRefusal, Metrics, ModelOperation, ReplyRating } from './metrics.js';
export { noMetrics } from './metrics.js';
