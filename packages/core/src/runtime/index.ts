export { BotRuntime } from './bot-runtime.js';
export { Slots } from './slots.js';
export { type BotModels, runtimeDeps } from './runtime-deps.js';
