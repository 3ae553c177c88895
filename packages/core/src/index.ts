export * from './genai/index.js';
export * from './chat/index.js';
export * from './jobs/index.js';
