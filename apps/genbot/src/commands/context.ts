import type { Writable } from 'node:stream';
import type { GenAiClient } from '@genbot/core/genai';
import type { ServiceConfig } from '@genbot/core/config';
import type { Logger } from '@genbot/core/log';
import type { ProgressStream } from '../progress.js';

/** What every command runs with; main.ts builds it, tests of the wiring go through the real process. */
export interface CommandContext {
  /**
   * Opens the service on first use. Commands call it only once their input is checked, so bad usage
   * neither sends anything nor starts the emulator.
   */
  connect(): Promise<GenAiClient>;
  /** Default models come from here when --model is not given. */
  service: ServiceConfig;
  logger: Logger;
  /** The user's working directory, against which IMAGE_FILE and --out are resolved. */
  cwd: string;
  stdout: Writable;
  stderr: ProgressStream;
  signal: AbortSignal;
}
