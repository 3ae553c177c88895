export * from './slack/index.js';
export * from './discord/index.js';
