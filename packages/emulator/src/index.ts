export { startEmulator } from './server.js';
export type { Emulator, EmulatorOptions, RecordedRequest } from './server.js';
export { startReplay } from './replay.js';
export type { Replay, ReplayAnswer } from './replay.js';
export { repositoryRoot, serviceRealPayloads } from './real-payloads.js';
export type { RealPayload, RealPayloads } from './real-payloads.js';
