import type { SlackEnv } from '../env.js';
import type { TokenOwner } from '../oauth.js';

export interface MethodContext {
  env: SlackEnv;
  args: Record<string, unknown>;
  /** Whose token made the call, when it is one issued through OAuth. */
  owner?: TokenOwner | undefined;
}

/** A Web API method: which token type it takes and what it does (the result without `ok`). */
export interface MethodSpec {
  /** `none`: the method takes the app's client credentials instead (oauth.v2.access). */
  token: 'bot' | 'app' | 'none';
  handle(ctx: MethodContext): Record<string, unknown> | Promise<Record<string, unknown>>;
}
