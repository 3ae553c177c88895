export { BotRuntime } from './bot-runtime.js';
export { LoopTurns } from './loop-turns.js';
export { Slots } from './slots.js';
export { type BotModels, runtimeDeps } from './runtime-deps.js';
