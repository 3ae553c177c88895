import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { pino, type Logger } from 'pino';
import {
  SlackDriver,
  type BotSays,
  type CommandRun,
  type PostedMessage,
  type Press,
  type UserEdits,
  type UserPresses,
  type UserActsInView,
  type UserSubmitsView,
  type ViewSubmission,
  type SubscribedEvent,
  type UserRunsCommand,
  type UserSays,
} from './driver.js';
import { AiAppDriver, type AssistantThreadOpened, type UserOpensApp, type UserRatesReply } from './ai-app-driver.js';
import { SlackAiApps, type AiView } from './ai-apps.js';
import type { SlackEnv, SlackIdentity } from './env.js';
import { EventDelivery, type AttemptInfo, type DeliveryKind, type DeliveryRecord } from './event-delivery.js';
import { FileTransfers } from './files.js';
import { HttpTransport } from './http-transport.js';
import { Interactivity, type SlackView } from './interactivity.js';
import { SlackIds } from './ids.js';
import { RateLimits, type RateLimitHit, type RateLimitRule } from './rate-limits.js';
import { ResponseUrls } from './response-urls.js';
import { SocketModeServer } from './socket-mode.js';
import type { TransferFault } from './transfer-faults.js';
import type { RedirectFault } from '../transfer-faults.js';
import { waitFor, type Probe, type WaitOptions } from './wait-for.js';
import { handleApiCall, type ApiCall } from './web-api.js';
import { SlackWorkspace, type SlackChannel, type SlackUser } from './workspace.js';
import { eventCallback } from './events.js';
import { type InstallableTeam, type OAuthApp, type OAuthExchange, SlackOAuth } from './oauth.js';

export interface SlackFakeOptions {
  /** 0 (default) picks a free port. The fake listens on 127.0.0.1 only. */
  port?: number;
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
  teamId?: string;
  teamName?: string;
  appId?: string;
  botUserId?: string;
  botId?: string;
  botName?: string;
  /** People and channels to start with, besides U1 (alice), U2 (bob) and C1 (#general). */
  users?: Array<Pick<SlackUser, 'id' | 'name'> & Partial<SlackUser>>;
  channels?: Array<Pick<SlackChannel, 'id' | 'name'> & Partial<SlackChannel>>;
  /** How long the bot has to acknowledge an event or command (Slack: 3 s). */
  ackTimeoutMs?: number;
  /** Delays before retries 1..n of an unacknowledged event (Slack: 0, 1 min, 5 min). */
  retryDelaysMs?: readonly number[];
  /** Interval of the server pings on Socket Mode connections (the client gives up after 30 s without). */
  socketPingIntervalMs?: number;
  /** Event subscriptions of the app (default: `message`, every message.* one, and `app_mention`). */
  events?: readonly SubscribedEvent[];
  /** Deliver the bot's own posts and edits back to it as `message` events, as Slack does (default true). */
  echoBotMessages?: boolean;
  /** Start with Slack's 2025 limits for apps outside the Marketplace (see `limitAsNonMarketplaceApp`). */
  nonMarketplaceApp?: boolean;
  /** The AI-app experience the app's manifest declares (default the agent view, as for every new app). */
  aiView?: AiView;
  /** The manifest's `app_home.home_tab_enabled` (default true). */
  homeTabEnabled?: boolean;
  logger?: Logger;
}

const DEFAULT_RETRY_DELAYS_MS = [0, 60_000, 5 * 60_000];
/** conversations.replies and .history for Marketplace and internal apps: Tier 3, pages up to 1,000. */
const MARKETPLACE_PAGING = { defaultLimit: 100, maxLimit: 1000 };
/** Since May 2025, for apps distributed outside the Marketplace: 15 messages a page, at most. */
const NON_MARKETPLACE_PAGING = { defaultLimit: 15, maxLimit: 15 };

/**
 * A Slack workspace on loopback that the real @slack/bolt and @slack/web-api talk to: the Web API
 * under `apiUrl`, file upload and download URLs, response URLs, Socket Mode, and signed delivery of
 * events and slash commands to the bot, plus a driver for tests.
 */
export class SlackFake {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/api/`, for Bolt's `clientOptions.slackApiUrl`. */
  readonly apiUrl: string;
  readonly identity: SlackIdentity;
  readonly workspace: SlackWorkspace;
  /** Every Web API call, in order, without tokens. */
  readonly calls: readonly ApiCall[];
  readonly #server: Server;
  readonly #http: HttpTransport;
  readonly #socket: SocketModeServer;
  readonly #delivery: EventDelivery;
  readonly #rateLimits: RateLimits;
  readonly #driver: SlackDriver;
  readonly #aiAppDriver: AiAppDriver;
  readonly #files: FileTransfers;
  readonly #env: SlackEnv;

  private constructor(parts: {
    url: string;
    identity: SlackIdentity;
    workspace: SlackWorkspace;
    server: Server;
    http: HttpTransport;
    socket: SocketModeServer;
    delivery: EventDelivery;
    rateLimits: RateLimits;
    driver: SlackDriver;
    aiAppDriver: AiAppDriver;
    files: FileTransfers;
    calls: ApiCall[];
    env: SlackEnv;
  }) {
    this.url = parts.url;
    this.apiUrl = `${parts.url}api/`;
    this.identity = parts.identity;
    this.workspace = parts.workspace;
    this.calls = parts.calls;
    this.#server = parts.server;
    this.#http = parts.http;
    this.#socket = parts.socket;
    this.#delivery = parts.delivery;
    this.#rateLimits = parts.rateLimits;
    this.#driver = parts.driver;
    this.#aiAppDriver = parts.aiAppDriver;
    this.#files = parts.files;
    this.#env = parts.env;
  }

  static async start(options: SlackFakeOptions = {}): Promise<SlackFake> {
    const logger = options.logger ?? pino({ level: 'silent' });
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/`;
    const identity: SlackIdentity = {
      teamId: options.teamId ?? 'T1',
      teamName: options.teamName ?? 'Genbot Test',
      appId: options.appId ?? 'A1',
      botToken: options.botToken ?? 'xoxb-test',
      appToken: options.appToken ?? 'xapp-test',
      signingSecret: options.signingSecret ?? 'secret',
      botUserId: options.botUserId ?? 'UBOT',
      botId: options.botId ?? 'BBOT',
    };
    const workspace = new SlackWorkspace(identity.teamId, new SlackIds());
    seed(workspace, identity, options);

    const ackTimeoutMs = options.ackTimeoutMs ?? 3000;
    const http = new HttpTransport({ signingSecret: identity.signingSecret, ackTimeoutMs, logger });
    const socket = new SocketModeServer({
      appId: identity.appId,
      ackTimeoutMs,
      pingIntervalMs: options.socketPingIntervalMs ?? 10_000,
      logger,
    });
    const delivery = new EventDelivery({
      http,
      socket,
      retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      logger,
    });
    const files = new FileTransfers({ workspace, baseUrl: url, botToken: identity.botToken, logger });
    const rateLimits = new RateLimits();
    const calls: ApiCall[] = [];

    // The driver and the API handlers need each other (bot posts are echoed as events): bind late.
    let driver: SlackDriver | undefined;
    const interactivity = new Interactivity();
    const oauth = new SlackOAuth({ botUserId: identity.botUserId, botId: identity.botId });
    oauth.teams.set(identity.teamId, { id: identity.teamId, name: identity.teamName });
    const env: SlackEnv = {
      identity,
      workspace,
      interactivity,
      aiApps: new SlackAiApps(workspace, {
        view: options.aiView ?? 'agent',
        homeTabEnabled: options.homeTabEnabled ?? true,
      }),
      oauth,
      historyPaging: { ...MARKETPLACE_PAGING },
      render: { workspace, baseUrl: url, appId: identity.appId },
      openSocketUrl: () => socket.openUrl(`ws://127.0.0.1:${port}`),
      botPosted: (message) => driver?.botPosted(message),
      botEdited: (message, previous) => driver?.botEdited(message, previous),
      uploadUrl: (fileId) => files.uploadUrl(fileId),
    };
    const responses = new ResponseUrls(env);
    driver = new SlackDriver({
      env,
      delivery,
      responses,
      subscriptions: options.events ?? ['message', 'app_mention'],
      echoBotMessages: options.echoBotMessages ?? true,
      logger,
    });

    const aiAppDriver = new AiAppDriver({ env, delivery, responses });

    const app = new Hono();
    app.get('/oauth/v2/authorize', (c) => oauth.authorizePage(new URL(c.req.url)));
    app.all('/api/:method', (c) => handleApiCall({ env, rateLimits, calls, logger }, c.req.param('method'), c.req.raw));
    app.post('/upload/v1/:secret', (c) => files.handleUpload(c.req.param('secret'), c.req.raw));
    app.get('/files-pri/:teamFile/download/:name', (c) => files.handleDownload(c.req.param('teamFile'), c.req.raw));
    app.get('/files-pri/:teamFile/:name', (c) => files.handleDownload(c.req.param('teamFile'), c.req.raw));
    app.post('/commands/:team/:id/:secret', (c) =>
      responses.handle(`${c.req.param('id')}/${c.req.param('secret')}`, c.req.raw),
    );
    // Global objects stay untouched: the process also runs Bolt and undici.
    server.on('request', getRequestListener(app.fetch, { overrideGlobalObjects: false }));
    server.on('upgrade', (request, stream, head) => {
      if (!socket.handleUpgrade(request, stream, head)) stream.destroy();
    });

    const fake = new SlackFake({
      url,
      identity,
      workspace,
      server,
      http,
      socket,
      delivery,
      rateLimits,
      driver,
      aiAppDriver,
      files,
      calls,
      env,
    });
    if (options.nonMarketplaceApp === true) fake.limitAsNonMarketplaceApp();
    return fake;
  }

  /** Every event, command and challenge sent to the bot, with each attempt's outcome. */
  get deliveries(): readonly DeliveryRecord[] {
    return this.#delivery.deliveries;
  }

  /** Every call refused with 429. */
  get rateLimitHits(): readonly RateLimitHit[] {
    return this.#rateLimits.hits;
  }

  /** True while a Socket Mode client is connected (deliveries then go over it). */
  get socketConnected(): boolean {
    return this.#socket.connected;
  }

  /**
   * The bot's Request URL for events and commands, e.g. `http://127.0.0.1:PORT/slack/events`; with
   * several (replicas), deliveries go to each in turn and a retry goes to another than the last attempt.
   */
  deliverTo(urls: string | readonly string[]): void {
    this.#http.targets = typeof urls === 'string' ? [urls] : urls;
  }

  userSays(input: UserSays): Promise<PostedMessage> {
    return this.#driver.userSays(input);
  }

  /**
   * The person's DM with the bot, as the app's Messages tab opens it (the
   * same one every time): its ID starts with `D`, and what is written there
   * comes to the app as `message.im` events with `channel_type: "im"`.
   */
  openDm(userId: string): string {
    if (!this.workspace.users.has(userId)) throw new Error(`slack fake: no user ${userId}`);
    return this.workspace.openIm(userId).id;
  }

  /** A person edits their message: `message_changed` goes to the app when it hears that conversation. */
  userEdits(input: UserEdits): Promise<DeliveryRecord | undefined> {
    return this.#driver.userEdits(input);
  }

  botSays(input: BotSays): Promise<PostedMessage> {
    return this.#driver.botSays(input);
  }

  userRunsCommand(input: UserRunsCommand): Promise<CommandRun> {
    return this.#driver.userRunsCommand(input);
  }

  /** A user presses a button on a message: a signed `block_actions` delivery with a fresh trigger_id. */
  userPresses(input: UserPresses): Promise<Press> {
    return this.#driver.userPresses(input);
  }

  /** A user submits an open modal: a signed `view_submission`; `errors` when the app kept it open. */
  userSubmitsView(input: UserSubmitsView): Promise<ViewSubmission> {
    return this.#driver.userSubmitsView(input);
  }

  /** A user presses a button or chooses an option in an open modal's actions block: a signed `block_actions`. */
  userActsInView(input: UserActsInView): Promise<Press> {
    return this.#driver.userActsInView(input);
  }

  /** Suggested prompts, conversation titles and Home tabs the app set, and how its AI-app features are configured. */
  get aiApps(): SlackAiApps {
    return this.#env.aiApps;
  }

  /** A person opens the app's Home tab or Messages tab: `app_home_opened` with that `tab`. */
  userOpensApp(input: UserOpensApp): Promise<DeliveryRecord> {
    return this.#aiAppDriver.userOpensApp(input);
  }

  /** The assistant view opens a thread for a person: its root posted as the app, then `assistant_thread_started`. */
  userStartsAssistantThread(input: { user: string; viewing?: string }): Promise<AssistantThreadOpened> {
    return this.#aiAppDriver.userStartsAssistantThread(input);
  }

  /** A person presses a reply's thumbs up or down: `block_actions` with a `feedback_buttons` action. */
  userRatesReply(input: UserRatesReply): Promise<DeliveryRecord> {
    return this.#aiAppDriver.userRatesReply(input);
  }

  /** A person presses a button of the Home tab the app published for them. */
  userPressesInHomeTab(input: { user: string; actionId: string }): Promise<DeliveryRecord> {
    return this.#aiAppDriver.userPressesInHomeTab(input);
  }

  /** A file is deleted: files.info answers `file_deleted` from now on. */
  userDeletesFile(fileId: string): void {
    this.#driver.userDeletesFile(fileId);
  }

  /** Modals the app opened (with `views.open`), oldest first. */
  get views(): readonly SlackView[] {
    return [...this.#env.interactivity.views.values()];
  }

  /**
   * Makes every trigger count as expired (`views.open` answers
   * `expired_trigger_id`), as when the app takes longer than 3 s to open a
   * modal; call the result to switch it off.
   */
  expireTriggers(): () => void {
    this.#env.interactivity.expireAll = true;
    return () => {
      this.#env.interactivity.expireAll = false;
    };
  }

  /** A user deletes a message; the app gets `message_deleted` when subscribed to `message`. */
  userDeletes(input: { channel: string; ts: string }): Promise<DeliveryRecord | undefined> {
    return this.#driver.userDeletes(input);
  }

  /**
   * Sends a payload recorded from Slack (an event_callback, a slash command's
   * fields, a url_verification) to the bot exactly as given, signed like any
   * delivery; its IDs are the caller's to match to this workspace.
   */
  replay(kind: DeliveryKind, payload: Record<string, unknown>): Promise<DeliveryRecord> {
    return this.#delivery.deliver({ kind, payload });
  }

  /** Sends an event again with its original `event_id` (default retry 1, `http_timeout`), to replica `to` if given. */
  redeliver(eventId: string, info?: Partial<AttemptInfo> & { to?: string }): Promise<DeliveryRecord> {
    return this.#driver.redeliver(eventId, info);
  }

  verifyUrl(): Promise<{ verified: boolean; delivery: DeliveryRecord }> {
    return this.#driver.verifyUrl();
  }

  /** Switches a rate limit on; call the result to switch it off. */
  rateLimit(rule: RateLimitRule): () => void {
    return this.#rateLimits.add(rule);
  }

  clearRateLimits(): void {
    this.#rateLimits.clear();
  }

  /**
   * Slack's limits since May 2025 for apps distributed outside the Marketplace:
   * conversations.replies and conversations.history answer one call a minute
   * (429 with Retry-After past it) and at most 15 messages a page. The result
   * switches back to the limits Marketplace and internal apps keep.
   */
  limitAsNonMarketplaceApp(): () => void {
    const offs = ['conversations.replies', 'conversations.history'].map((method) =>
      this.#rateLimits.add({ method, perMinute: 1 }),
    );
    this.#env.historyPaging = { ...NON_MARKETPLACE_PAGING };
    return () => {
      for (const off of offs) off();
      this.#env.historyPaging = { ...MARKETPLACE_PAGING };
    };
  }

  /** Makes upload URLs answer `fault.status` instead of taking the bytes; call the result to switch it off. */
  failUploads(fault: TransferFault): () => void {
    return this.#files.uploadFaults.add(fault);
  }

  /**
   * Makes `url_private` downloads (with a valid token) answer `fault.status` (200: Slack's sign-in page
   * instead of the file, as a token without files:read gets it); call the result to switch it off.
   */
  failDownloads(fault: TransferFault): () => void {
    return this.#files.downloadFaults.add(fault);
  }

  /** Makes `url_private` downloads (with a valid token) answer a redirect to `fault.location`; call the result to switch it off. */
  redirectDownloads(fault: RedirectFault): () => void {
    return this.#files.downloadRedirects.add(fault);
  }

  /**
   * Lets the app be installed through OAuth v2 (`GET /oauth/v2/authorize`,
   * `oauth.v2.access`): with `tokenExpiresInS`, tokens rotate and expire.
   */
  allowInstalls(app: OAuthApp): void {
    this.#env.oauth.app = app;
  }

  /**
   * Another workspace the app can be installed into (the fake's own is one
   * already), with its channels; `enterprise` puts it in an org, which can
   * install the app for all its workspaces at once (authorize with the
   * enterprise's ID as `team`). People are shared between workspaces.
   */
  addTeam(team: InstallableTeam, channels: ReadonlyArray<{ id: string; name: string }> = []): void {
    this.#env.oauth.teams.set(team.id, team);
    for (const channel of channels) this.workspace.addChannel({ ...channel, teamId: team.id });
  }

  /** What a person's browser gets from Slack's authorize page at `authorizeUrl` (a redirect back to the app). */
  approveInstall(authorizeUrl: string, choice: { team?: string; deny?: boolean } = {}): Response {
    const url = new URL(authorizeUrl);
    if (choice.team !== undefined) url.searchParams.set('team', choice.team);
    if (choice.deny === true) url.searchParams.set('deny', '1');
    return this.#env.oauth.authorizePage(url);
  }

  /** Every oauth.v2.access exchange and refresh the fake answered. */
  get oauthExchanges(): readonly OAuthExchange[] {
    return this.#env.oauth.exchanges;
  }

  /** The current access tokens of an installation stop working (`token_expired`), as if their time had passed. */
  expireTokens(key: string): void {
    this.#env.oauth.expireTokens(key);
  }

  /**
   * The app is uninstalled from a workspace (or an org): its tokens stop
   * working, and Slack tells the app with `tokens_revoked` and `app_uninstalled`.
   */
  async uninstallApp(key: string): Promise<DeliveryRecord[]> {
    const { oauth } = this.#env;
    const team = oauth.teams.has(key) ? key : [...oauth.teams.values()].find((t) => t.enterprise?.id === key)?.id;
    const at = `${Date.now() / 1000}`;
    // Enveloped as the install was (org-wide or not) before its tokens go.
    const payloads = [
      { type: 'tokens_revoked', tokens: { oauth: [], bot: [this.identity.botUserId] }, event_ts: at },
      { type: 'app_uninstalled', event_ts: at },
    ].map((event) => eventCallback(this.#env, event, team ?? key));
    oauth.revoke(key);
    const records: DeliveryRecord[] = [];
    for (const payload of payloads) records.push(await this.#delivery.deliver({ kind: 'events_api', payload }));
    return records;
  }

  /** Sends Socket Mode clients a `disconnect` message; they reconnect through apps.connections.open. */
  requestSocketReconnect(reason?: string): void {
    this.#socket.requestReconnect(reason);
  }

  /** Resolves with the probe's value once the workspace matches; a number is the timeout in ms. */
  waitFor<T>(probe: Probe<T>, options: WaitOptions | number = {}): Promise<T> {
    return waitFor(this.workspace, probe, typeof options === 'number' ? { timeoutMs: options } : options);
  }

  async close(): Promise<void> {
    this.#delivery.close();
    this.#socket.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

function seed(workspace: SlackWorkspace, identity: SlackIdentity, options: SlackFakeOptions): void {
  workspace.addUser({ id: identity.botUserId, name: options.botName ?? 'genbot', isBot: true, botId: identity.botId });
  workspace.addUser({ id: 'U1', name: 'alice', realName: 'Alice Example', displayName: 'Alice' });
  workspace.addUser({ id: 'U2', name: 'bob', realName: 'Bob Example', displayName: 'Bob' });
  workspace.addChannel({ id: 'C1', name: 'general' });
  for (const user of options.users ?? []) workspace.addUser(user);
  for (const channel of options.channels ?? []) workspace.addChannel(channel);
}

export function startSlackFake(options?: SlackFakeOptions): Promise<SlackFake> {
  return SlackFake.start(options);
}
