import type { Logger } from 'pino';
import { SlackApiError } from './api-error.js';
import type { SlackEnv } from './env.js';
import { methods } from './methods/index.js';
import { readApiRequest } from './params.js';
import type { RateLimits } from './rate-limits.js';
import type { TokenOwner } from './oauth.js';
import { teamOfChannel } from './events.js';

/** One Web API call as the fake saw it, token redacted, for assertions and debugging. */
export interface ApiCall {
  method: string;
  args: Record<string, unknown>;
  ok: boolean;
  error?: string;
  /** 200, or 429 when rate limited. */
  status: number;
  atMs: number;
  /** The installation whose token made the call (its team, or its org), when the token came through OAuth. */
  team?: string;
}

export interface WebApiDeps {
  env: SlackEnv;
  rateLimits: RateLimits;
  calls: ApiCall[];
  logger: Logger;
}

function json(body: Record<string, unknown>, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

function redacted(args: Record<string, unknown>): Record<string, unknown> {
  const { token: _token, client_secret: _secret, code: _code, refresh_token: _refresh, ...rest } = args;
  return rest;
}

/**
 * The caller's token: the fake's own bot or app token, or one issued through
 * OAuth, which speaks only for its own workspace (or org): another
 * workspace's channel is `channel_not_found` to it, as Slack answers.
 */
function authenticate(
  env: SlackEnv,
  kind: 'bot' | 'app',
  bearer: string | undefined,
  args: Record<string, unknown>,
  channel: string | undefined,
): TokenOwner | undefined {
  const fieldToken = typeof args.token === 'string' && args.token !== '' ? args.token : undefined;
  const token = bearer ?? fieldToken;
  if (token === undefined) throw new SlackApiError('not_authed');
  const { botToken, appToken } = env.identity;
  const owner = token === botToken || token === appToken ? undefined : env.oauth.owner(token);
  if (owner === undefined && token !== botToken && token !== appToken) throw new SlackApiError('invalid_auth');
  if ((kind === 'app') !== (token === appToken)) throw new SlackApiError('not_allowed_token_type');
  const channelTeam = channel === undefined ? undefined : teamOfChannel(env, channel);
  if (channelTeam !== undefined) {
    const speaksFor = owner === undefined ? env.identity.teamId === channelTeam : coversTeam(env, owner, channelTeam);
    if (!speaksFor) throw new SlackApiError('channel_not_found');
  }
  return owner;
}

function coversTeam(env: SlackEnv, owner: TokenOwner, teamId: string): boolean {
  if (owner.teamId === teamId) return true;
  return owner.isEnterpriseInstall && env.oauth.teams.get(teamId)?.enterprise?.id === owner.enterpriseId;
}

/**
 * Routes `POST /api/{method}`: authenticates the token (field or `Authorization: Bearer`), applies
 * switched-on rate limits (429 + `Retry-After`), runs the method and answers as Slack does: HTTP
 * 200 with `ok` in every body, errors as `{ ok: false, error }`.
 */
export async function handleApiCall(deps: WebApiDeps, method: string, request: Request): Promise<Response> {
  const { env, logger } = deps;
  const atMs = Date.now();
  let args: Record<string, unknown> = {};
  let team: string | undefined;
  const record = (ok: boolean, status: number, error?: string) => {
    deps.calls.push({
      method,
      args: redacted(args),
      ok,
      status,
      atMs,
      ...(error !== undefined && { error }),
      ...(team !== undefined && { team }),
    });
  };
  try {
    const parsed = await readApiRequest(request);
    args = parsed.fields;
    // Own keys only: `toString` and friends are not Slack methods.
    const spec = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!spec) throw new SlackApiError('unknown_method');
    const channel =
      typeof args.channel === 'string'
        ? args.channel
        : typeof args.channel_id === 'string'
          ? args.channel_id
          : undefined;
    const owner = spec.token === 'none' ? undefined : authenticate(env, spec.token, parsed.bearer, args, channel);
    team = owner?.key;
    const retryAfter = deps.rateLimits.check(method, channel);
    if (retryAfter !== undefined) {
      logger.info({ method, channel, retryAfter }, 'slack fake: rate limited');
      record(false, 429, 'ratelimited');
      return json({ ok: false, error: 'ratelimited' }, 429, { 'retry-after': String(retryAfter) });
    }
    const result = await spec.handle({ env, args, owner });
    record(true, 200);
    return json({ ok: true, ...result });
  } catch (error) {
    if (!(error instanceof SlackApiError)) throw error;
    logger.debug({ method, error: error.code }, 'slack fake: api error');
    record(false, 200, error.code);
    return json({ ok: false, error: error.code, ...error.extra });
  }
}
