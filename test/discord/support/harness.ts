import { GenAiClient, type GenAiClientOptions, type MessagesRequest } from '@genbot/core/genai';
import type { JobScheduler } from '@genbot/core/scheduling';
import { createLogger, type Logger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import { startDiscordBot, type DiscordBot, type DiscordBotOptions, type DiscordConfig } from '@genbot/discord-bot';
import { startEmulator, type Emulator, type RecordedRequest } from '@genbot/emulator';
import { startDiscordFake, type DiscordFake, type DiscordFakeOptions, type DiscordMessage } from '@genbot/fakes';

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
  logs: string[];
  channelId: string;
  /** `<@bot>`: what a user types to mention the bot. */
  mention: string;
  /** Every message the bot posted in a channel or thread, oldest first. */
  botMessages(channelId: string): DiscordMessage[];
  stop(): Promise<void>;
}

export interface HarnessOptions {
  fake?: DiscordFakeOptions;
  streamDelayMs?: number;
  registerCommands?: DiscordBotOptions['registerCommands'];
  scheduler?: JobScheduler;
  /** The bot's runtime, when a worker in the test shares it (the bot makes its own otherwise). */
  runtime?: BotRuntime;
  /** Limits of the bot's service client (timeouts, answer sizes), when a test needs them tighter. */
  serviceLimits?: Pick<GenAiClientOptions, 'textTimeoutMs' | 'streamTimeoutMs' | 'maxResponseBytes'>;
  /** The intake (and `/usage`) the bot submits to, made once the fake and the emulator run; the bot's own by default. */
  jobs?: (services: { fake: DiscordFake; emulator: Emulator; logger: Logger }) => Promise<DiscordBotOptions['jobs']>;
}

/** The Discord fake, the service emulator and the real bot (real discord.js), all on loopback. */
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
  const discord: DiscordConfig = { token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl };
  let bot: DiscordBot;
  try {
    const jobs = await options.jobs?.({ fake, emulator, logger });
    bot = await startDiscordBot({
      discord,
      models: { client, chatModel: CHAT_MODEL, imageModel: IMAGE_MODEL },
      logger,
      registerCommands: options.registerCommands ?? { guildId: fake.guildId },
      ...(jobs === undefined ? {} : { jobs }),
      runtime:
        options.runtime ??
        (options.scheduler === undefined ? undefined : new BotRuntime({ scheduler: options.scheduler })),
    });
  } catch (error) {
    await Promise.allSettled([client.close(), emulator.close(), fake.close()]);
    throw error;
  }
  return {
    fake,
    emulator,
    bot,
    logs: lines,
    channelId: fake.channelId('general'),
    mention: `<@${fake.botUser.id}>`,
    botMessages: (channelId) =>
      fake.state.messages(channelId).filter((message) => message.author.id === fake.botUser.id),
    async stop() {
      await bot.stop({ drainMs: 2_000 });
      await Promise.allSettled([client.close(), emulator.close(), fake.close()]);
    },
  };
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
export async function nthChatRequest(emulator: Emulator, n: number, timeoutMs = 10_000): Promise<MessagesRequest> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const request = chatRequests(emulator)[n - 1];
    if (request !== undefined) return request;
    if (Date.now() > deadline) throw new Error(`no messages request #${n} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The reply the service gives to exactly this conversation, asked for again
 * (the emulator is deterministic): what the bot must end up showing.
 */
export async function expectedReply(emulator: Emulator, request: MessagesRequest): Promise<string> {
  const client = new GenAiClient({ baseUrl: emulator.url, apiKey: API_KEY, retryBaseDelayMs: 5 });
  try {
    let text = '';
    const { model, messages, max_tokens, system } = request;
    const stream = client.streamMessage({ model, messages, max_tokens, ...(system === undefined ? {} : { system }) });
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
