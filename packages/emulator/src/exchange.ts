import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { FaultCounter } from './faults.js';
import type { ParsedJson } from './http-io.js';

/** One request being answered, with its body read once. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The request path after the emulator's path prefix. */
  path: string;
  headers: Record<string, string>;
  rawBody: Buffer;
  json: ParsedJson;
  /** Aborted when the response closes, so pauses stop when the client or the emulator goes away. */
  signal: AbortSignal;
}

/** What every operation shares for the emulator's lifetime. */
export interface EmulatorContext {
  apiKey: string | undefined;
  relaxCredentials: boolean;
  streamDelayMs: number;
  faults: FaultCounter;
  logger: Logger;
}
