import pino, { type Logger } from 'pino';
import { eventually } from '@genbot/test-servers';
import { createApp } from './app.js';
import type { FakeContext } from './context.js';
import { Dispatcher } from './dispatcher.js';
import {
  type AppPosts,
  Driver,
  type UserClicks,
  type UserCreatesThread,
  type UserRunsCommand,
  type UserRunsMessageCommand,
  type UserSays,
  type UserSubmitsModal,
} from './driver.js';
import { Gateway, GATEWAY_PATH } from './gateway.js';
import { GuildState, type UserRef } from './guild-state.js';
import type { AttachmentRecord, ChannelRecord, InteractionRecord, MessageRecord, UserRecord } from './model.js';
import { type GlobalRateLimit, RateLimits, type RateLimitRule, type RateLimitSwitch } from './rate-limits.js';
import { listen } from './server.js';
import { createSnowflakeGenerator } from './snowflake.js';
import { TransferFaults, type RedirectFault } from '../transfer-faults.js';
import type { DownloadFault, SlowCallback, TransferFault, TransferFaultSwitch } from './transfer-faults.js';
import { APPLICATION_FLAG_MESSAGE_CONTENT, type MemberPermissionName } from './permissions.js';
import { wireGuildCreate, wireReady } from './wire.js';
import { onShard, shardOf, type ShardInfo } from './shards.js';

// Every exported name says Discord: the package root re-exports this next to the Slack fake.
export type {
  GuildRecord as DiscordGuildRecord,
  GuildState as DiscordGuildState,
  BotRequest as DiscordBotRequest,
  RateLimitHit as DiscordRateLimitHit,
  Refusal as DiscordRefusal,
  UserRef as DiscordUserRef,
} from './guild-state.js';
export type {
  AttachmentRecord as DiscordAttachment,
  ChannelRecord as DiscordChannel,
  CommandRecord as DiscordCommand,
  InteractionRecord as DiscordInteraction,
  InteractionData as DiscordInteractionData,
  InteractionStatus as DiscordInteractionStatus,
  ModalRecord as DiscordModal,
  SelectRecord as DiscordModalSelect,
  MessageRecord as DiscordMessage,
  MessageVersion as DiscordMessageVersion,
  UserRecord as DiscordUser,
} from './model.js';
export type { ShardInfo as DiscordShardInfo } from './shards.js';
export type { MemberPermissionName as DiscordMemberPermission } from './permissions.js';
export type {
  GlobalRateLimit as DiscordGlobalRateLimit,
  RateLimitRule as DiscordRateLimitRule,
  RateLimitSwitch as DiscordRateLimitSwitch,
} from './rate-limits.js';
export type {
  DownloadFault as DiscordDownloadFault,
  SlowCallback as DiscordSlowCallback,
  TransferFault as DiscordTransferFault,
  TransferFaultSwitch as DiscordTransferFaultSwitch,
} from './transfer-faults.js';
export type {
  AppPosts as DiscordAppPosts,
  UserAttachment as DiscordUserAttachment,
  UserCreatesThread as DiscordUserCreatesThread,
  UserClicks as DiscordUserClicks,
  UserRunsCommand as DiscordUserRunsCommand,
  UserRunsMessageCommand as DiscordUserRunsMessageCommand,
  UserSays as DiscordUserSays,
  UserSubmitsModal as DiscordUserSubmitsModal,
} from './driver.js';

export interface DiscordFakeOptions {
  /** 0 (default) picks a free port. Always bound to 127.0.0.1. */
  readonly port?: number;
  readonly botToken?: string;
  /** Defaults to the bot user's ID, as for applications created on Discord. */
  readonly applicationId?: string;
  readonly botUsername?: string;
  /** `id` places the guild on a shard: `(id >> 22) % shardCount`. */
  readonly guild?: { readonly id?: string; readonly name?: string; readonly channels?: readonly string[] };
  /** `GET /gateway/bot`'s recommended `shards` (default 1), what discord.js's `shards: 'auto'` starts. */
  readonly recommendedShards?: number;
  /** `session_start_limit.max_concurrency` (default 1: clients wait 5 s between IDENTIFYs of one bucket). */
  readonly maxConcurrency?: number;
  /** HELLO's heartbeat_interval (Discord: 41250 ms); short values make clients heartbeat in tests. */
  readonly heartbeatIntervalMs?: number;
  /** Whether the app may use the privileged MessageContent intent; false closes IDENTIFYs asking for it with 4014. */
  readonly allowMessageContentIntent?: boolean;
  /** Per-file upload limit (Discord's default: 10 MiB). */
  readonly attachmentSizeLimit?: number;
  /** Time allowed for an interaction's first callback (Discord: 3000 ms). */
  readonly interactionDeadlineMs?: number;
  readonly logger?: Logger;
}

export interface DiscordFake {
  /** What `new Client({ rest: { api } })` and `new REST({ api })` take; REST lives under `${apiUrl}/v10`. */
  readonly apiUrl: string;
  readonly gatewayUrl: string;
  readonly origin: string;
  readonly botToken: string;
  readonly applicationId: string;
  readonly botUser: UserRecord;
  readonly guildId: string;
  /** Inspectable in-memory guild: channels, threads, users, messages (with edit history and attachment bytes), commands, interactions. */
  readonly state: GuildState;
  /** The ID of a guild channel by name (`general` or `#general`). */
  channelId(name: string): string;
  /**
   * The ID of the DM between the bot and this person (a channel of type 1, opened on first use):
   * `userSays` there is a direct message, delivered to sessions with the DirectMessages intent.
   */
  dmChannelId(user: UserRef): string;
  /**
   * A text channel of another server, one the bot is not in, where people use the app installed
   * to their own account: interactions there come with only the person's install
   * (`authorizing_integration_owners` `{"1": userId}`, `context` 0); the bot gets no other event
   * from it, its REST calls on the channel are refused (50001 Missing Access), an interaction
   * may create at most 5 follow-ups (40094), and with `externalApps: false` (the server withholds
   * Use External Apps) every answer is ephemeral.
   */
  elsewhereChannelId(name: string, options?: { externalApps?: boolean }): string;
  /**
   * Moves the fake's clock forward: messages, interactions and IDs made from now on carry the later
   * time, as if that much time had passed (deadlines and token lifetimes keep real time).
   */
  advanceClock(ms: number): void;
  userSays(input: UserSays): MessageRecord;
  userEdits(input: { channelId: string; messageId: string; content: string }): MessageRecord;
  userDeletes(input: { channelId: string; messageId: string }): void;
  /**
   * Gives a member permissions beyond @everyone's (as a role would), carried from now on in
   * their interactions' `member.permissions`; an empty list takes them back. The server's
   * owner (`guild-owner`) has Administrator.
   */
  grantPermissions(user: UserRef, permissions: readonly MemberPermissionName[]): void;
  userRunsCommand(input: UserRunsCommand): InteractionRecord;
  /** Runs a message command (type 3) on a message, as from its Apps menu. */
  userRunsMessageCommand(input: UserRunsMessageCommand): InteractionRecord;
  /** Another app posts a message with buttons (a press on it still reaches this bot: see the driver). */
  appPosts(input: AppPosts): MessageRecord;
  /** Presses an enabled button of a message: INTERACTION_CREATE of type 3. */
  userClicks(input: UserClicks): InteractionRecord;
  /** Submits the modal an interaction answered with: INTERACTION_CREATE of type 5. */
  userSubmitsModal(input: UserSubmitsModal): InteractionRecord;
  /** Delivers a message or an interaction again with the same ids, as the gateway may after a resume. */
  redeliver(input: { channelId: string; messageId: string } | { interactionId: string }): void;
  createThread(input: UserCreatesThread): ChannelRecord;
  /** Switches a per-route limit on; the returned switch turns it off. */
  rateLimit(rule: RateLimitRule): RateLimitSwitch;
  /**
   * Switches the bot's global limit on (Discord: 50 requests a second over every
   * route but interaction callbacks and follow-ups); over it, a 429 with
   * `global: true` and `X-RateLimit-Global`. Hits are recorded with route `global`.
   */
  globalRateLimit(limit: GlobalRateLimit): RateLimitSwitch;
  clearRateLimits(): void;
  /**
   * Makes attachment downloads from the CDN answer `fault.status` (with `attachmentId`, that
   * attachment's alone); the returned switch turns it off.
   */
  failDownloads(fault: DownloadFault): TransferFaultSwitch;
  /** Makes CDN downloads answer a redirect to `fault.location`; the returned switch turns it off. */
  redirectDownloads(fault: RedirectFault): TransferFaultSwitch;
  /** The attachment's URL as Discord would hand it out now: signed, valid for a day. */
  signedUrl(attachment: AttachmentRecord): string;
  /** Every attachment URL handed out so far expires (messages fetched again carry fresh ones), as after a day. */
  expireAttachmentUrls(): void;
  /**
   * Takes the next interaction callbacks as arriving after Discord's 3 s (the
   * interaction expires: 10062), as when a bot answers too slowly; the returned switch turns it off.
   */
  lateCallbacks(fault?: TransferFault): TransferFaultSwitch;
  /**
   * Takes the next interaction callbacks only after `delayMs` (a slow network
   * between the bot and Discord): until then the interaction is unanswered and
   * its webhook unknown (10015). The returned switch turns it off.
   */
  slowCallbacks(fault: SlowCallback): TransferFaultSwitch;
  /** Refuses requests carrying files (40005, entity too large); the returned switch turns it off. */
  rejectUploads(fault?: TransferFault): TransferFaultSwitch;
  /**
   * Sends a dispatch recorded from Discord (`t` and `d` as they were) to every
   * session with the GuildMessages intent, as given: its IDs are the caller's
   * to match to this guild.
   */
  replay(t: string, d: Record<string, unknown>): void;
  /** Closes every gateway connection with `closeCode` (default 4000: clients RESUME). */
  dropConnection(closeCode?: number): void;
  /** Gateway sessions with a live connection. */
  connectedSessions(): number;
  /** The `[id, count]` of each session with a live connection, in the order they identified. */
  connectedShards(): ShardInfo[];
  /** The shard the guild's events go to when a bot runs `count` shards. */
  guildShard(count: number): number;
  /** Resolves with the predicate's first truthy result, checked every 10 ms; rejects after `timeoutMs`. */
  waitFor<T>(predicate: (state: GuildState) => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

/** Starts the Discord fake: REST + CDN + gateway on one loopback port. */
export async function startDiscordFake(options: DiscordFakeOptions = {}): Promise<DiscordFake> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const botToken = options.botToken ?? 'fake-discord-bot-token';
  const allowMessageContentIntent = options.allowMessageContentIntent ?? true;
  const attachmentSizeLimit = options.attachmentSizeLimit ?? 10 * 1024 * 1024;
  let clockOffsetMs = 0;
  const clock = (): number => Date.now() + clockOffsetMs;
  const ids = createSnowflakeGenerator(clock);
  const server = await listen(options.port ?? 0);
  const state = new GuildState({
    ids,
    now: () => new Date(clock()),
    guildName: options.guild?.name ?? 'genbot-test',
    ...(options.guild?.id !== undefined && { guildId: options.guild.id }),
    channelNames: options.guild?.channels ?? ['general'],
    botUsername: options.botUsername ?? 'genbot',
  });
  const applicationId = options.applicationId ?? state.botUser.id;
  const gatewayUrl = `${server.origin.replace(/^http/, 'ws')}${GATEWAY_PATH}`;
  const gateway = new Gateway({
    botToken,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
    allowMessageContentIntent,
    resumeUrl: gatewayUrl,
    logger,
    onIdentify: (session) => ({
      ready: wireReady(
        state,
        applicationId,
        allowMessageContentIntent ? APPLICATION_FLAG_MESSAGE_CONTENT : 0,
        session.shard,
      ),
      afterReady: onShard(state.guild.id, session.shard) ? [{ t: 'GUILD_CREATE', d: wireGuildCreate(state) }] : [],
    }),
  });
  const ctx: FakeContext = {
    state,
    events: new Dispatcher(gateway, state, applicationId, attachmentSizeLimit),
    rateLimits: new RateLimits(),
    downloadFaults: new TransferFaults<DownloadFault>(),
    attachmentFaults: new Map(),
    downloadRedirects: new TransferFaults<RedirectFault>(),
    uploadFaults: new TransferFaults<TransferFault>(),
    lateCallbacks: new TransferFaults(),
    slowCallbacks: new TransferFaults<SlowCallback>(),
    ids,
    origin: server.origin,
    botToken,
    applicationId,
    attachmentSizeLimit,
    interactionDeadlineMs: options.interactionDeadlineMs ?? 3000,
    interactionTokenTtlMs: 15 * 60 * 1000,
    logger,
    now: Date.now,
  };
  server.attach(
    createApp(ctx, {
      allowMessageContentIntent,
      gatewayBot: { shards: options.recommendedShards ?? 1, maxConcurrency: options.maxConcurrency ?? 1 },
    }),
    gateway,
  );
  const driver = new Driver(ctx);
  logger.info({ origin: server.origin }, 'discord fake listening');

  return {
    apiUrl: `${server.origin}/api`,
    gatewayUrl,
    origin: server.origin,
    botToken,
    applicationId,
    botUser: state.botUser,
    guildId: state.guild.id,
    state,
    channelId(name) {
      const channel = state.channel(name);
      if (!channel) throw new Error(`no channel named ${name}`);
      return channel.id;
    },
    dmChannelId: (user) => state.dmChannel(state.user(user)).id,
    elsewhereChannelId: (name, options = {}) =>
      state.addElsewhereChannel(name, { externalApps: options.externalApps ?? true }).id,
    advanceClock: (ms) => {
      clockOffsetMs += ms;
    },
    userSays: (input) => driver.userSays(input),
    userEdits: (input) => driver.userEdits(input),
    userDeletes: (input) => driver.userDeletes(input),
    grantPermissions: (user, permissions) => state.grantPermissions(user, permissions),
    userRunsCommand: (input) => driver.userRunsCommand(input),
    userRunsMessageCommand: (input) => driver.userRunsMessageCommand(input),
    appPosts: (input) => driver.appPosts(input),
    userClicks: (input) => driver.userClicks(input),
    userSubmitsModal: (input) => driver.userSubmitsModal(input),
    redeliver: (input) => driver.redeliver(input),
    createThread: (input) => driver.createThread(input),
    rateLimit: (rule) => ctx.rateLimits.add(rule),
    globalRateLimit: (limit) => ctx.rateLimits.setGlobal(limit),
    clearRateLimits: () => ctx.rateLimits.clear(),
    failDownloads: (fault) => {
      if (fault.attachmentId === undefined) return { off: ctx.downloadFaults.add(fault) };
      const faults = ctx.attachmentFaults.get(fault.attachmentId) ?? new TransferFaults<DownloadFault>();
      ctx.attachmentFaults.set(fault.attachmentId, faults);
      return { off: faults.add(fault) };
    },
    rejectUploads: (fault = {}) => ({ off: ctx.uploadFaults.add(fault) }),
    lateCallbacks: (fault = {}) => ({ off: ctx.lateCallbacks.add(fault) }),
    slowCallbacks: (fault) => ({ off: ctx.slowCallbacks.add(fault) }),
    redirectDownloads: (fault) => ({ off: ctx.downloadRedirects.add(fault) }),
    expireAttachmentUrls: () => state.cdn.expireAll(),
    signedUrl: (attachment) => {
      const url = new URL(attachment.url);
      return `${url.origin}${state.cdn.sign(url.pathname)}`;
    },
    dropConnection: (closeCode = 4000) => gateway.dropConnections(closeCode),
    replay: (t, d) => gateway.dispatch(t, typeof d.guild_id === 'string' ? d.guild_id : state.guild.id, () => d),
    connectedSessions: () => gateway.connectedSessions.length,
    connectedShards: () => gateway.connectedSessions.map((session) => session.shard),
    guildShard: (count) => shardOf(state.guild.id, count),
    waitFor: (predicate, timeoutMs = 5000) =>
      eventually(() => predicate(state), { timeoutMs, what: 'a condition on the Discord fake' }),
    async close() {
      driver.close();
      await gateway.close();
      await server.close();
    },
  };
}
