import type { SlackEnv } from '../env.js';

export interface MethodContext {
  env: SlackEnv;
  args: Record<string, unknown>;
}

/** A Web API method: which token type it takes and what it does (the result without `ok`). */
export interface MethodSpec {
  token: 'bot' | 'app';
  handle(ctx: MethodContext): Record<string, unknown> | Promise<Record<string, unknown>>;
}
