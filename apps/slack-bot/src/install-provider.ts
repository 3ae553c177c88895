import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { InstallRefusal } from '@genbot/core/copy';
import type { Logger } from '@genbot/core/log';
import type { InstallationStore as InstallationPort } from '@genbot/core/store';
import type {
  AuthorizeResult,
  Logger as BoltLogger,
  CustomRoute,
  Installation,
  InstallationQuery,
  webApi,
} from '@slack/bolt';
import { ErrorCode, InstallProvider } from '@slack/oauth';
import type { SlackInstalls } from './config.js';
import type { DeliveryOrigin } from './handlers/context.js';
import { sendInstalled, sendRefused } from './install-pages.js';
import { InstallationSealer } from './install-sealing.js';
import { OneUseStateStore, StateRefusedError } from './install-states.js';
import { installationKey, NotInstalledError, SealedInstallationStore } from './install-store.js';
import { BOT_SCOPES } from './registrations.js';

export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';

/** Bolt refreshes a rotated token this long before it expires: the same window here. */
const REFRESH_WINDOW_S = 2 * 60 * 60;
/** How long one process may hold a workspace's refresh; another waits, then finds the new token. */
const LEASE_MS = 30_000;
const LEASE_POLL_MS = 200;
/** A workspace's token is looked up again this often, so an uninstall or a refresh elsewhere shows soon. */
const TOKEN_CACHE_MS = 10_000;

type Query = InstallationQuery<boolean>;

/** Where a delivery or job came from, as Bolt asks for an installation. */
function queryOf(origin: DeliveryOrigin): Query {
  return {
    teamId: origin.teamId,
    enterpriseId: origin.enterpriseId,
    isEnterpriseInstall: origin.isEnterpriseInstall ?? false,
  };
}

function expiresSoon(installation: Installation<'v1' | 'v2', boolean>, nowS: number): boolean {
  const { bot } = installation;
  return bot?.refreshToken !== undefined && bot.expiresAt !== undefined && bot.expiresAt - nowS <= REFRESH_WINDOW_S;
}

/**
 * Many-workspace mode on Bolt's own OAuth (`@slack/oauth`'s InstallProvider):
 * the install link and Slack's way back as routes of the Bolt receiver, the
 * installations sealed in the Store, states good once on any process, and
 * `authorize` for every delivery and job. Bolt refreshes a rotated token
 * inside one process only; here the refresh is taken under a lease on the
 * installation's row, so of several processes one refreshes and the others
 * wait for its new token.
 */
export class WorkspaceInstalls {
  readonly #provider: InstallProvider;
  readonly #installations: SealedInstallationStore;
  readonly #store: InstallationPort;
  readonly #logger: Logger;
  readonly #holder = randomUUID();
  readonly #tokens = new Map<string, { token: string; until: number }>();
  readonly #refreshes = new Map<string, Promise<AuthorizeResult>>();
  /** Teams linked to their org-wide installation by this process already. */
  readonly #linked = new Map<string, string>();
  readonly #installUrlOptions: { scopes: string[]; redirectUri?: string };

  constructor(options: {
    installs: SlackInstalls;
    apiUrl: string;
    store: InstallationPort;
    logger: Logger;
    libraryLogger: BoltLogger;
    clientOptions: webApi.WebClientOptions;
  }) {
    const { installs, store, logger } = options;
    this.#store = store;
    this.#logger = logger.child({ component: 'slack-installs' });
    this.#installations = new SealedInstallationStore({
      store,
      sealer: new InstallationSealer({ current: installs.secretsKey, previous: installs.previousSecretsKey }),
      logger: this.#logger,
    });
    this.#installUrlOptions = {
      scopes: Object.keys(BOT_SCOPES),
      ...(installs.redirectUrl === undefined ? {} : { redirectUri: installs.redirectUrl }),
    };
    // The installer's clients log through its own logger.
    const { logger: _clientLogger, ...installerClientOptions } = options.clientOptions;
    this.#provider = new InstallProvider({
      clientId: installs.clientId,
      clientSecret: installs.clientSecret,
      installationStore: this.#installations,
      stateStore: new OneUseStateStore({ store, stateSecret: installs.stateSecret }),
      installUrlOptions: this.#installUrlOptions,
      // Straight to Slack's page, on the host of the Web API (slack.com, or a stand-in in tests).
      directInstall: true,
      authorizationUrl: new URL('/oauth/v2/authorize', options.apiUrl).toString(),
      clientOptions: installerClientOptions,
      // Its web client logs request bodies at debug: here they hold the client secret, codes and refresh tokens.
      logger: withoutDebug(options.libraryLogger),
    });
  }

  /** `GET /slack/install` and `GET /slack/oauth_redirect`, for the Bolt receiver's custom routes. */
  get routes(): CustomRoute[] {
    return [
      {
        path: INSTALL_PATH,
        method: 'GET',
        handler: (req, res) => void this.#install(req, res),
      },
      {
        path: REDIRECT_PATH,
        method: 'GET',
        handler: (req, res) => void this.#callback(req, res),
      },
    ];
  }

  /**
   * Bolt's authorize: the installation's tokens, refreshed first when they
   * are about to expire, under the lease. A token that expired and could not
   * be refreshed is never handed out.
   */
  readonly authorize = async (source: Query): Promise<AuthorizeResult> => {
    const key = installationKey(source);
    const installation = await this.#installations.find(key);
    if (installation === undefined) throw new NotInstalledError(`genbot is not installed in ${key}`);
    if (source.isEnterpriseInstall && source.teamId !== undefined) await this.#link(source.teamId, key);
    const result = expiresSoon(installation, nowS())
      ? await this.#refreshing(key, source)
      : await this.#provider.authorize(source);
    if (result.botTokenExpiresAt !== undefined && result.botTokenExpiresAt <= nowS()) {
      throw new NotInstalledError(`the token of ${key} expired and could not be refreshed`);
    }
    return result;
  };

  /**
   * The bot token of a workspace (a job's: its team), for every call made
   * for it. Rejects with NotInstalledError once it is uninstalled.
   */
  async botToken(origin: DeliveryOrigin): Promise<string> {
    const workspace = installationKey(queryOf(origin));
    const cached = this.#tokens.get(workspace);
    if (cached !== undefined && cached.until > Date.now()) return cached.token;
    const result = await this.#authorizeWorkspace(origin);
    if (result.botToken === undefined) throw new NotInstalledError(`no bot token installed for ${workspace}`);
    const expiresAtMs =
      result.botTokenExpiresAt === undefined ? Number.POSITIVE_INFINITY : result.botTokenExpiresAt * 1000;
    this.#tokens.set(workspace, { token: result.botToken, until: Math.min(Date.now() + TOKEN_CACHE_MS, expiresAtMs) });
    return result.botToken;
  }

  /**
   * A job names its team only: with no installation of the team's own, the
   * org-wide one its deliveries came through (linked as they arrived).
   */
  async #authorizeWorkspace(origin: DeliveryOrigin): Promise<AuthorizeResult> {
    const query = queryOf(origin);
    try {
      return await this.authorize(query);
    } catch (error) {
      if (!(error instanceof NotInstalledError) || query.isEnterpriseInstall || query.teamId === undefined) throw error;
      const key = await this.#store.linkedKey(query.teamId);
      if (key === undefined) throw error;
      return this.authorize({ teamId: query.teamId, enterpriseId: key, isEnterpriseInstall: true });
    }
  }

  async #link(teamId: string, key: string): Promise<void> {
    if (this.#linked.get(teamId) === key) return;
    await this.#store.linkTeam(teamId, key);
    this.#linked.set(teamId, key);
  }

  /** `app_uninstalled`, or the bot's token revoked: the installation and its tokens are deleted. */
  async uninstall(origin: DeliveryOrigin): Promise<void> {
    const query = queryOf(origin);
    const key = installationKey(query);
    // Cached by workspace: an org's are among them.
    this.#tokens.clear();
    this.#linked.clear();
    await this.#installations.deleteInstallation(query);
    this.#logger.info({ installation: key }, 'installation deleted');
  }

  /** One refresh at a time in this process (the lease keeps other processes out). */
  async #refreshing(key: string, source: Query): Promise<AuthorizeResult> {
    const inFlight = this.#refreshes.get(key);
    if (inFlight !== undefined) {
      // Another call here refreshes it: its token is read afresh once it is done.
      await inFlight.catch(() => undefined);
      return this.authorize(source);
    }
    const refresh = this.#leased(key, source);
    this.#refreshes.set(key, refresh);
    try {
      return await refresh;
    } finally {
      this.#refreshes.delete(key);
    }
  }

  async #leased(key: string, source: Query): Promise<AuthorizeResult> {
    const deadline = Date.now() + 2 * LEASE_MS;
    for (;;) {
      if (await this.#store.lease(key, this.#holder, new Date(Date.now() + LEASE_MS))) {
        try {
          // Inside the lease Bolt reads the installation again: refreshed meanwhile, it is used as it is.
          return await this.#provider.authorize(source);
        } finally {
          await this.#store.release(key, this.#holder);
        }
      }
      await sleep(LEASE_POLL_MS);
      const again = await this.#installations.find(key);
      if (again === undefined) throw new NotInstalledError(`genbot is not installed in ${key}`);
      if (!expiresSoon(again, nowS()) || Date.now() > deadline) return this.#provider.authorize(source);
    }
  }

  async #install(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.#provider.handleInstallPath(req, res, {}, this.#installUrlOptions);
    } catch (error) {
      this.#logger.error({ err: error }, 'could not start an install');
      if (!res.headersSent) sendRefused(res, 'failed');
    }
  }

  async #callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await this.#provider.handleCallback(req, res, {
      successAsync: async (installation) => {
        this.#logger.info({ installation: installationKey(keyOf(installation)) }, 'installed');
        sendInstalled(res, installation.team?.name ?? installation.enterprise?.name);
      },
      failureAsync: async (error) => {
        const reason = refusalOf(error);
        this.#logger.warn({ reason }, 'an install came back from Slack and was refused');
        sendRefused(res, reason);
      },
    });
  }
}

function withoutDebug(logger: BoltLogger): BoltLogger {
  return { ...logger, debug: () => undefined };
}

function nowS(): number {
  return Math.floor(Date.now() / 1000);
}

function keyOf(installation: Installation<'v1' | 'v2', boolean>) {
  return {
    isEnterpriseInstall: installation.isEnterpriseInstall,
    enterpriseId: installation.enterprise?.id,
    teamId: installation.team?.id,
  };
}

function refusalOf(error: { code?: string; message: string }): InstallRefusal {
  if (error instanceof StateRefusedError) return error.refusal;
  switch (error.code) {
    case ErrorCode.MissingStateError:
    case ErrorCode.MissingCodeError:
      return 'missing';
    case ErrorCode.InvalidStateError:
      return 'other-browser';
    case ErrorCode.AuthorizationError:
      return /cancelled/i.test(error.message) ? 'cancelled' : 'failed';
    default:
      return 'failed';
  }
}
