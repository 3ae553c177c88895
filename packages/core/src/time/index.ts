export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
