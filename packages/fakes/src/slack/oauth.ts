import { randomBytes } from 'node:crypto';
import { SlackApiError } from './api-error.js';

/** A workspace the app can be installed into, besides the fake's own; `enterprise` when it belongs to an org. */
export interface InstallableTeam {
  id: string;
  name: string;
  enterprise?: { id: string; name: string };
}

/** The app's OAuth settings, as its config page holds them. */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  /** The redirect URL the app lists; used when the authorize request names none. */
  redirectUrl?: string;
  /** With token rotation: access tokens last this long and come with a refresh token (Slack: 12 h). */
  tokenExpiresInS?: number;
}

/** Who a token speaks for: an installation into a team, or into a whole org. */
export interface TokenOwner {
  /** The installation's key: the enterprise for an org-wide install, else the team. */
  key: string;
  teamId: string | undefined;
  enterpriseId: string | undefined;
  isEnterpriseInstall: boolean;
  teamName: string;
}

/** One oauth.v2.access call the fake answered, for tests that count exchanges and refreshes. */
export interface OAuthExchange {
  grantType: 'authorization_code' | 'refresh_token';
  key: string;
  ok: boolean;
  error?: string;
}

interface IssuedToken {
  owner: TokenOwner;
  expiresAtMs: number | undefined;
}

const secret = (prefix: string) => `${prefix}-${randomBytes(18).toString('base64url')}`;

/**
 * Slack's side of OAuth v2 for the fake: the authorize page (a person picks a
 * workspace, or its whole org, and approves), one-use codes, oauth.v2.access
 * (a code, or a refresh token with token rotation), and the bot tokens it
 * issued, each good for its own workspace until it expires or is revoked.
 */
export class SlackOAuth {
  app: OAuthApp | undefined;
  readonly teams = new Map<string, InstallableTeam>();
  readonly exchanges: OAuthExchange[] = [];
  readonly #codes = new Map<string, { owner: TokenOwner; redirectUri: string; scopes: string }>();
  readonly #tokens = new Map<string, IssuedToken>();
  readonly #refreshTokens = new Map<string, TokenOwner>();
  readonly #botUserId: string;
  readonly #botId: string;

  constructor(bot: { botUserId: string; botId: string }) {
    this.#botUserId = bot.botUserId;
    this.#botId = bot.botId;
  }

  /**
   * `GET /oauth/v2/authorize`: what Slack's page does once a person approves
   * (`team`: the workspace picked, or an enterprise's ID for an org-wide
   * install; `deny=1`: they cancel). Redirects back with a code and the state.
   */
  authorizePage(url: URL): Response {
    const app = this.app;
    const params = url.searchParams;
    if (app === undefined || params.get('client_id') !== app.clientId) {
      return new Response('invalid client_id', { status: 400 });
    }
    const redirectUri = params.get('redirect_uri') ?? app.redirectUrl;
    if (redirectUri === undefined) return new Response('no redirect_uri', { status: 400 });
    const back = new URL(redirectUri);
    const state = params.get('state');
    if (state !== null) back.searchParams.set('state', state);
    if (params.get('deny') === '1') {
      back.searchParams.set('error', 'access_denied');
      return Response.redirect(back, 302);
    }
    const owner = this.#owner(params.get('team') ?? '');
    if (owner === undefined) return new Response('unknown team', { status: 400 });
    const code = secret('code');
    this.#codes.set(code, { owner, redirectUri, scopes: params.get('scope') ?? '' });
    back.searchParams.set('code', code);
    return Response.redirect(back, 302);
  }

  /** oauth.v2.access, with the client's credentials in the form (as @slack/web-api sends them). */
  access(args: Record<string, unknown>): Record<string, unknown> {
    const app = this.app;
    if (app === undefined || args.client_id !== app.clientId) throw new SlackApiError('invalid_client_id');
    if (args.client_secret !== app.clientSecret) throw new SlackApiError('bad_client_secret');
    if (args.grant_type === 'refresh_token') {
      const refresh = typeof args.refresh_token === 'string' ? args.refresh_token : '';
      const owner = this.#refreshTokens.get(refresh);
      if (owner === undefined) {
        this.exchanges.push({ grantType: 'refresh_token', key: '', ok: false, error: 'invalid_refresh_token' });
        throw new SlackApiError('invalid_refresh_token');
      }
      // A refresh token is good once: its successor comes with the new access token.
      this.#refreshTokens.delete(refresh);
      this.exchanges.push({ grantType: 'refresh_token', key: owner.key, ok: true });
      return { ...this.#issue(owner, app), token_type: 'bot' };
    }
    const code = typeof args.code === 'string' ? this.#codes.get(args.code) : undefined;
    if (code === undefined) {
      this.exchanges.push({ grantType: 'authorization_code', key: '', ok: false, error: 'invalid_code' });
      throw new SlackApiError('invalid_code');
    }
    this.#codes.delete(String(args.code));
    if (args.redirect_uri !== undefined && args.redirect_uri !== code.redirectUri) {
      throw new SlackApiError('bad_redirect_uri');
    }
    const { owner } = code;
    this.exchanges.push({ grantType: 'authorization_code', key: owner.key, ok: true });
    return {
      app_id: 'A1',
      authed_user: { id: 'U1' },
      scope: code.scopes,
      token_type: 'bot',
      bot_user_id: this.#botUserId,
      team: owner.teamId === undefined ? null : { id: owner.teamId, name: owner.teamName },
      enterprise:
        owner.enterpriseId === undefined
          ? null
          : { id: owner.enterpriseId, name: this.#enterpriseName(owner.enterpriseId) },
      is_enterprise_install: owner.isEnterpriseInstall,
      ...this.#issue(owner, app),
    };
  }

  /** Whose token this is; throws Slack's error for one that is unknown, revoked or expired. */
  owner(token: string): TokenOwner | undefined {
    const issued = this.#tokens.get(token);
    if (issued === undefined) return undefined;
    if (issued.expiresAtMs !== undefined && issued.expiresAtMs <= Date.now()) throw new SlackApiError('token_expired');
    return issued.owner;
  }

  /** The app is uninstalled from `key` (a team, or an org): its tokens stop working at once. */
  revoke(key: string): void {
    for (const [token, issued] of this.#tokens) if (issued.owner.key === key) this.#tokens.delete(token);
    for (const [token, owner] of this.#refreshTokens) if (owner.key === key) this.#refreshTokens.delete(token);
  }

  /** Makes the current access tokens of `key` expired, as if their time had passed. */
  expireTokens(key: string): void {
    for (const issued of this.#tokens.values()) if (issued.owner.key === key) issued.expiresAtMs = Date.now() - 1;
  }

  /** The team a channel's events come from, and how the app is installed there. */
  teamOf(teamId: string): { teamId: string; enterpriseId: string | undefined; isEnterpriseInstall: boolean } {
    const enterpriseId = this.teams.get(teamId)?.enterprise?.id;
    const orgWide = enterpriseId !== undefined && [...this.#tokens.values()].some((t) => t.owner.key === enterpriseId);
    return { teamId, enterpriseId, isEnterpriseInstall: orgWide };
  }

  #issue(owner: TokenOwner, app: OAuthApp): Record<string, unknown> {
    const token = secret(`xoxb-${owner.key}`);
    const expiresIn = app.tokenExpiresInS;
    this.#tokens.set(token, {
      owner,
      expiresAtMs: expiresIn === undefined ? undefined : Date.now() + expiresIn * 1000,
    });
    if (expiresIn === undefined) return { access_token: token };
    const refresh = secret('xoxe-1');
    this.#refreshTokens.set(refresh, owner);
    return { access_token: token, refresh_token: refresh, expires_in: expiresIn };
  }

  #owner(picked: string): TokenOwner | undefined {
    const team = this.teams.get(picked);
    if (team !== undefined) {
      return {
        key: team.id,
        teamId: team.id,
        enterpriseId: team.enterprise?.id,
        isEnterpriseInstall: false,
        teamName: team.name,
      };
    }
    const name = this.#enterpriseName(picked);
    if (name === undefined) return undefined;
    return { key: picked, teamId: undefined, enterpriseId: picked, isEnterpriseInstall: true, teamName: name };
  }

  #enterpriseName(enterpriseId: string): string | undefined {
    return [...this.teams.values()].find((team) => team.enterprise?.id === enterpriseId)?.enterprise?.name;
  }
}
