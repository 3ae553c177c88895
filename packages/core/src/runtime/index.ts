export { BotRuntime } from './bot-runtime.js';
