export { startEmulator } from './server.js';
export type { Emulator, EmulatorOptions, RecordedRequest } from './server.js';
