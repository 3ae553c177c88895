export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
export { LoopTurns, processTurns } from './loop-turns.js';
export { wakeUp } from './wake-up.js';
