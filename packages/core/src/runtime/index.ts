export { BotRuntime } from './bot-runtime.js';
export { type BotModels, runtimeDeps } from './runtime-deps.js';
