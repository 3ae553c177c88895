import { GenAiClient, type GenAiClientOptions, type MessagesRequest } from '@genbot/core/genai';
import { type Jobs, openedDatabase, openJobs, startBots } from '@genbot/cli/wiring';
import type { JobScheduler } from '@genbot/core/scheduling';
import { createLogger, type Logger } from '@genbot/core/log';
import { loadConfig } from '@genbot/core/config';
import { BotRuntime } from '@genbot/core/runtime';
import type { OperatorSettings } from '@genbot/core/settings';
import type { Store } from '@genbot/core/store';
import type { DiscordBot, DiscordBotOptions, DiscordConfig } from '@genbot/discord-bot';
import { startEmulator, type Emulator, type RecordedRequest } from '@genbot/emulator';
import {
  startDiscordFake,
  type DiscordFake,
  type DiscordFakeOptions,
  type DiscordInteraction,
  type DiscordMessage,
} from '@genbot/fakes';
import { openStore } from '@genbot/store';
import { eventually } from '@genbot/test-servers';
import { resultOf } from './results.js';

export const API_KEY = 'e2e-genai-api-key-6b1d0f2c';
export const BOT_TOKEN = 'e2e-discord-bot-token-93a7c5e1';
export const CHAT_MODEL = 'e2e-chat-model';
export const IMAGE_MODEL = 'e2e-image-model';

/** Log lines, captured as written (no redaction configured: the bot itself must keep secrets out). */
export function captureLogs(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: {
      write(line: string) {
        lines.push(line);
        return true;
      },
    },
  });
  return { logger, lines };
}

export interface Harness {
  fake: DiscordFake;
  emulator: Emulator;
  bot: DiscordBot;
  /** The jobs floor's store: jobs, image versions, usage. */
  store: Store;
  /** What the bot submits to: the intake, `/usage` and the presses of result buttons. */
  jobs: Jobs['botJobs'];
  logs: string[];
  channelId: string;
  /** `<@bot>`: what a user types to mention the bot. */
  mention: string;
  /** Every message the bot posted in a channel or thread, oldest first. */
  botMessages(channelId: string): DiscordMessage[];
  /** Starts the worker, when the harness was asked to leave the jobs waiting for it (`worker: false`). */
  startWorker(): Promise<void>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  fake?: DiscordFakeOptions;
  streamDelayMs?: number;
  registerCommands?: DiscordBotOptions['registerCommands'];
  scheduler?: JobScheduler;
  /** Limits of the worker's service client (timeouts, answer sizes), when a test needs them tighter. */
  serviceLimits?: Pick<GenAiClientOptions, 'textTimeoutMs' | 'streamTimeoutMs' | 'maxResponseBytes'>;
  /** The store's database (default: a fresh in-memory SQLite one). */
  databaseUrl?: string;
  quota?: { imagesPerDay?: number; chatTokensPerDay?: number };
  /** CHAT_TOOLS, read as the launcher reads it (default: core's, on). */
  chatTools?: 'on' | 'off';
  /** False: no worker takes jobs until `startWorker()`, so they wait in the job queue. */
  worker?: boolean;
  /** CHAT_MODELS, IMAGE_MODELS and BUDGET_* as the launcher reads them (default: the two models alone, no budget). */
  operator?: OperatorSettings;
  /** ADMIN_USER_IDS (default: none). */
  adminUserIds?: readonly string[];
}

export interface JobsFloorOptions {
  client: GenAiClient;
  logger: Logger;
  scheduler?: JobScheduler | undefined;
  /** The store's database (default: a fresh in-memory SQLite one). */
  databaseUrl?: string | undefined;
  quota?: { imagesPerDay?: number | undefined; chatTokensPerDay?: number | undefined } | undefined;
  /** CHAT_TOOLS, read as the launcher reads it into the jobs' conversation settings (default: core's, on). */
  chatTools?: 'on' | 'off' | undefined;
  operator?: OperatorSettings | undefined;
  adminUserIds?: readonly string[] | undefined;
}

export interface JobsFloor {
  store: Store;
  runtime: BotRuntime;
  /** The jobs as every process composes them (`openJobs`): intake, `/usage`, presses, the worker once started. */
  jobs: Jobs;
  /** Stops taking jobs and closes the store. */
  close(): Promise<void>;
}

/** What the floor is composed of, the same for a bare floor and for a bot on one. */
async function floorParts(options: JobsFloorOptions) {
  const { client, logger } = options;
  const store = await openStore(options.databaseUrl ?? 'sqlite::memory:');
  return {
    database: openedDatabase(store),
    runtime: new BotRuntime(options.scheduler === undefined ? {} : { scheduler: options.scheduler }),
    models: { client, imageModel: IMAGE_MODEL, chatModel: CHAT_MODEL },
    quota: { imagesPerDay: options.quota?.imagesPerDay, chatTokensPerDay: options.quota?.chatTokensPerDay },
    ...(options.chatTools === undefined ? {} : { conversation: loadConfig({ CHAT_TOOLS: options.chatTools }).chat }),
    operator: options.operator,
    adminUserIds: options.adminUserIds,
    logger,
  };
}

/**
 * The jobs floor with no bot on it, as production composes it (`openJobs`): for a worker started on
 * surfaces of its own. The service is the emulator's.
 */
export async function openJobsFloor(options: JobsFloorOptions): Promise<JobsFloor> {
  const parts = await floorParts(options);
  const jobs = openJobs(parts);
  return {
    store: jobs.store,
    runtime: parts.runtime,
    jobs,
    async close() {
      await jobs.stopTaking.stop(0);
      await jobs.close.stop(0);
    },
  };
}

export interface BotOnJobs {
  bot: DiscordBot;
  store: Store;
  /** The bot's intake, `/usage` and result presses. */
  jobs: Jobs['botJobs'];
  /** Starts the worker, when it was asked to leave the jobs waiting for it (`worker: false`). */
  startWorker(): Promise<void>;
  /** Stops taking jobs, stops the bot (its drain), closes the store. */
  close(): Promise<void>;
}

/** The real Discord bot (discord.js) on the jobs floor, started as the launcher starts it (`startBots`). */
export async function startBotOnJobs(
  options: JobsFloorOptions & {
    discord: DiscordConfig;
    registerCommands?: DiscordBotOptions['registerCommands'];
    /** False: no worker takes jobs until `startWorker()`, so they wait in the job queue. */
    worker?: boolean | undefined;
  },
): Promise<BotOnJobs> {
  const bots = await startBots({
    ...(await floorParts(options)),
    discord: {
      discord: options.discord,
      ...(options.registerCommands === undefined ? {} : { registerCommands: options.registerCommands }),
    },
    workerStarts: options.worker === false ? 'later' : 'now',
  });
  await bots.working;
  return {
    bot: bots.discord!,
    store: bots.jobs.store,
    jobs: bots.jobs.botJobs,
    startWorker: bots.startWorker,
    close: () => bots.stop(),
  };
}

/** The Discord fake, the service emulator and the real bot on its jobs floor (`startBotOnJobs`), all on loopback. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fake = await startDiscordFake({ botToken: BOT_TOKEN, heartbeatIntervalMs: 2_000, ...options.fake });
  const emulator = await startEmulator({
    apiKey: API_KEY,
    ...(options.streamDelayMs === undefined ? {} : { streamDelayMs: options.streamDelayMs }),
  });
  const { logger, lines } = captureLogs();
  const client = new GenAiClient({
    baseUrl: emulator.url,
    apiKey: API_KEY,
    retryBaseDelayMs: 5,
    logger,
    ...options.serviceLimits,
  });
  let floor: BotOnJobs;
  try {
    floor = await startBotOnJobs({
      discord: { token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl },
      client,
      logger,
      registerCommands: options.registerCommands ?? { guildId: fake.guildId },
      scheduler: options.scheduler,
      databaseUrl: options.databaseUrl,
      quota: options.quota,
      chatTools: options.chatTools,
      worker: options.worker,
      operator: options.operator,
      adminUserIds: options.adminUserIds,
    });
  } catch (error) {
    await Promise.allSettled([client.close(), emulator.close(), fake.close()]);
    throw error;
  }
  return {
    fake,
    emulator,
    bot: floor.bot,
    store: floor.store,
    jobs: floor.jobs,
    logs: lines,
    channelId: fake.channelId('general'),
    mention: `<@${fake.botUser.id}>`,
    botMessages: (channelId) =>
      fake.state.messages(channelId).filter((message) => message.author.id === fake.botUser.id),
    startWorker: floor.startWorker,
    async stop() {
      await floor.close();
      await Promise.allSettled([client.close(), emulator.close(), fake.close()]);
    },
  };
}

/**
 * The interaction's result once its image versions are recorded too: the
 * worker records them right after the upload, so a press in between (no
 * person is that quick) would find no record yet.
 */
export async function storedResultOf(h: Harness, started: DiscordInteraction): Promise<DiscordMessage> {
  const result = await resultOf(h.fake, started);
  await eventually(async () => (await h.store.versions.byMessage('discord', result.channelId, result.id)).length > 0, {
    what: `the image versions of message ${result.id}`,
  });
  return result;
}

function isMessagesRequest(body: unknown): body is MessagesRequest {
  return (
    typeof body === 'object' && body !== null && 'model' in body && 'messages' in body && Array.isArray(body.messages)
  );
}

/** The messages-operation requests the emulator received, oldest first. */
export function chatRequests(emulator: Emulator): MessagesRequest[] {
  return emulator.requests
    .filter((request: RecordedRequest) => request.method === 'POST' && request.path.endsWith('/v1/messages'))
    .map((request) => request.body)
    .filter(isMessagesRequest);
}

/** Waits for the n-th (1-based) messages request to reach the emulator. */
export function nthChatRequest(emulator: Emulator, n: number, timeoutMs = 10_000): Promise<MessagesRequest> {
  return eventually(() => chatRequests(emulator)[n - 1], { timeoutMs, what: `messages request #${n}` });
}

/**
 * The reply the service gives to exactly this conversation, asked for again
 * (the emulator is deterministic): what the bot must end up showing.
 */
export async function expectedReply(emulator: Emulator, request: MessagesRequest): Promise<string> {
  const client = new GenAiClient({ baseUrl: emulator.url, apiKey: API_KEY, retryBaseDelayMs: 5 });
  try {
    let text = '';
    const { model, messages, max_tokens, system, tools } = request;
    const stream = client.streamMessage({
      model,
      messages,
      max_tokens,
      ...(system === undefined ? {} : { system }),
      // The tools offered decide whether the model calls one, and so its words.
      ...(tools === undefined ? {} : { tools }),
    });
    for await (const delta of stream.textDeltas()) text += delta;
    return text;
  } finally {
    await client.close();
  }
}

/** Every piece of text the bot could have leaked a secret into: log lines and all message versions. */
export function everythingSaid(harness: Pick<Harness, 'fake' | 'logs'>): string[] {
  const messages = harness.fake.state.allMessages.flatMap((message) => [
    message.content,
    ...message.history.map((version) => version.content),
  ]);
  return [...harness.logs, ...messages];
}

export const SECRETS = [API_KEY, BOT_TOKEN];
