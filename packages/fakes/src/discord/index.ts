import pino, { type Logger } from 'pino';
import { createApp } from './app.js';
import type { FakeContext } from './context.js';
import { Dispatcher } from './dispatcher.js';
import { Driver, type UserCreatesThread, type UserRunsCommand, type UserSays } from './driver.js';
import { Gateway, GATEWAY_PATH } from './gateway.js';
import { GuildState } from './guild-state.js';
import type { ChannelRecord, InteractionRecord, MessageRecord, UserRecord } from './model.js';
import { RateLimits, type RateLimitRule, type RateLimitSwitch } from './rate-limits.js';
import { listen } from './server.js';
import { createSnowflakeGenerator } from './snowflake.js';
import { TransferFaults } from '../transfer-faults.js';
import type { DownloadFault, TransferFault, TransferFaultSwitch } from './transfer-faults.js';
import { waitFor } from './wait-for.js';
import { APPLICATION_FLAG_MESSAGE_CONTENT } from './permissions.js';
import { wireGuildCreate, wireReady } from './wire.js';

// Every exported name says Discord: the package root re-exports this next to the Slack fake.
export type {
  GuildRecord as DiscordGuildRecord,
  GuildState as DiscordGuildState,
  RateLimitHit as DiscordRateLimitHit,
  UserRef as DiscordUserRef,
} from './guild-state.js';
export type {
  AttachmentRecord as DiscordAttachment,
  ChannelRecord as DiscordChannel,
  CommandRecord as DiscordCommand,
  InteractionRecord as DiscordInteraction,
  InteractionStatus as DiscordInteractionStatus,
  MessageRecord as DiscordMessage,
  MessageVersion as DiscordMessageVersion,
  UserRecord as DiscordUser,
} from './model.js';
export type { RateLimitRule as DiscordRateLimitRule, RateLimitSwitch as DiscordRateLimitSwitch } from './rate-limits.js';
export type {
  DownloadFault as DiscordDownloadFault,
  TransferFault as DiscordTransferFault,
  TransferFaultSwitch as DiscordTransferFaultSwitch,
} from './transfer-faults.js';
export type {
  UserAttachment as DiscordUserAttachment,
  UserCreatesThread as DiscordUserCreatesThread,
  UserRunsCommand as DiscordUserRunsCommand,
  UserSays as DiscordUserSays,
} from './driver.js';

export interface DiscordFakeOptions {
  /** 0 (default) picks a free port. Always bound to 127.0.0.1. */
  readonly port?: number;
  readonly botToken?: string;
  /** Defaults to the bot user's ID, as for applications created on Discord. */
  readonly applicationId?: string;
  readonly botUsername?: string;
  readonly guild?: { readonly name?: string; readonly channels?: readonly string[] };
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
  userSays(input: UserSays): MessageRecord;
  userEdits(input: { channelId: string; messageId: string; content: string }): MessageRecord;
  userDeletes(input: { channelId: string; messageId: string }): void;
  userRunsCommand(input: UserRunsCommand): InteractionRecord;
  createThread(input: UserCreatesThread): ChannelRecord;
  /** Switches a per-route limit on; the returned switch turns it off. */
  rateLimit(rule: RateLimitRule): RateLimitSwitch;
  clearRateLimits(): void;
  /** Makes attachment downloads from the CDN answer `fault.status`; the returned switch turns it off. */
  failDownloads(fault: DownloadFault): TransferFaultSwitch;
  /** Refuses requests carrying files with 413 (40005, entity too large); the returned switch turns it off. */
  rejectUploads(fault?: TransferFault): TransferFaultSwitch;
  /** Closes every gateway connection with `closeCode` (default 4000: clients RESUME). */
  dropConnection(closeCode?: number): void;
  /** Gateway sessions with a live connection. */
  connectedSessions(): number;
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
  const ids = createSnowflakeGenerator();
  const server = await listen(options.port ?? 0);
  const state = new GuildState({
    ids,
    guildName: options.guild?.name ?? 'genbot-test',
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
    onIdentify: () => ({
      ready: wireReady(state, applicationId, allowMessageContentIntent ? APPLICATION_FLAG_MESSAGE_CONTENT : 0),
      then: [{ t: 'GUILD_CREATE', d: wireGuildCreate(state) }],
    }),
  });
  const ctx: FakeContext = {
    state,
    events: new Dispatcher(gateway, state, applicationId, attachmentSizeLimit),
    rateLimits: new RateLimits(),
    downloadFaults: new TransferFaults<DownloadFault>(),
    uploadFaults: new TransferFaults<TransferFault>(),
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
  server.attach(createApp(ctx, { allowMessageContentIntent }), gateway);
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
    userSays: (input) => driver.userSays(input),
    userEdits: (input) => driver.userEdits(input),
    userDeletes: (input) => driver.userDeletes(input),
    userRunsCommand: (input) => driver.userRunsCommand(input),
    createThread: (input) => driver.createThread(input),
    rateLimit: (rule) => ctx.rateLimits.add(rule),
    clearRateLimits: () => ctx.rateLimits.clear(),
    failDownloads: (fault) => ({ off: ctx.downloadFaults.add(fault) }),
    rejectUploads: (fault = {}) => ({ off: ctx.uploadFaults.add(fault) }),
    dropConnection: (closeCode = 4000) => gateway.dropConnections(closeCode),
    connectedSessions: () => gateway.connectedSessions.length,
    waitFor: (predicate, timeoutMs = 5000) => waitFor(() => predicate(state), timeoutMs),
    async close() {
      driver.close();
      await gateway.close();
      await server.close();
    },
  };
}
