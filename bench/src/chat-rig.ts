/**
 * A fake platform with something answering mentions on it, in this process:
 * either the real bot (Bolt or discord.js, with its scheduler) or the naive
 * baseline (core's `converse` over a surface that edits on every delta, no
 * scheduler, fed the mention directly). The service is reached through the
 * recording proxy, so the rig can tell when text was streamed and when the
 * user saw it.
 */
import { Writable } from 'node:stream';
import { converse } from '@genbot/core/chat';
import { ChannelBudget } from '@genbot/core/rendering';
import type { ChatSurface } from '@genbot/core/surface';
import { GenAiClient } from '@genbot/core/genai';
import { JobScheduler, type JobSchedulerOptions } from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import {
  startDiscordFake,
  startSlackFake,
  type DiscordFakeOptions,
  type DiscordMessage,
  type SlackMessage,
} from '@genbot/fakes';
import { inMemoryDatabase, startBots } from '@genbot/cli/wiring';
import { naiveDiscordSurface, naiveSlackSurface } from './chat-naive.js';
import { startChatProxy, type ChatProxy } from './chat-proxy.js';

export type Platform = 'slack' | 'discord';
export type Answerer = 'bot' | 'naive';

export const CHAT_MODEL = 'claude-sonnet-5';
export const IMAGE_MODEL = 'gemini-3.1-flash-lite-image';

/** One text a message showed, from `at` (epoch ms) until the next. */
export interface Version {
  text: string;
  at: number;
}

export interface RigOptions {
  platform: Platform;
  answerer: Answerer;
  channels: number;
  emulatorUrl: string;
  apiKey: string;
  /** The bot's scheduler limits (the naive answerer has none). */
  scheduler?: JobSchedulerOptions;
}

export interface ChatRig {
  proxy: ChatProxy;
  /** Mention `index` from its own user in channel `index % channels`; resolves once it is handed to the answerer. */
  mention(index: number, prompt: string): Promise<void>;
  /** As `mention`, in a channel of its own that no `mention` uses (see warm-up.ts). */
  mentionAside(index: number, prompt: string): Promise<void>;
  /** Every version of each bot message answering mention `index`, oldest message first. */
  replies(index: number): Version[][];
  /** Switches the platform's real edit limit on (Slack chat.update 1/s per channel; Discord PATCH 5 per 5 s per channel). */
  enforceEditLimits(): void;
  /** The edit limit's window, ms. */
  editWindowMs: number;
  rateLimitHits(): number;
  close(): Promise<void>;
}

/** The channel `mentionAside` uses, on each platform. */
export const ASIDE_CHANNEL = { id: 'CASIDE', name: 'bench-aside' };

/** Logs are dropped: the bench prints only its table. */
const quiet = () =>
  createLogger({ level: 'silent', destination: new Writable({ write: (_chunk, _encoding, done) => done() }) });

/** Every text a Slack message showed, oldest first. */
export function slackVersions(message: SlackMessage): Version[] {
  const created = Number(message.ts) * 1000;
  const starts = [created, ...message.edits.map((edit) => edit.replacedAtMs)];
  return [...message.edits.map((edit) => edit.text), message.text].map((text, i) => ({
    text,
    at: starts[i] ?? created,
  }));
}

function discordVersions(message: DiscordMessage): Version[] {
  const current = { text: message.content, at: Date.parse(message.editedTimestamp ?? message.timestamp) };
  return [...message.history.map((version) => ({ text: version.content, at: Date.parse(version.since) })), current];
}

export async function startChatRig(options: RigOptions): Promise<ChatRig> {
  const proxy = await startChatProxy(options.emulatorUrl);
  const client = new GenAiClient({ baseUrl: proxy.url, apiKey: options.apiKey });
  const models = { client, chatModel: CHAT_MODEL, imageModel: IMAGE_MODEL };
  const logger = quiet();
  const runtime = new BotRuntime({ scheduler: new JobScheduler(options.scheduler) });
  const rig =
    options.platform === 'slack'
      ? await slackRig(options, models, logger, runtime)
      : await discordRig(options, models, logger, runtime);
  return {
    ...rig,
    proxy,
    async close() {
      await rig.close();
      await client.close();
      await proxy.close();
    },
  };
}

type Models = { client: GenAiClient; chatModel: string; imageModel: string };
type Rig = Omit<ChatRig, 'proxy'>;

/** The naive answerer: the mention goes straight to `converse`, in the background like a bot's handler. */
function naiveAnswer(surface: ChatSurface, models: Models, logger: ReturnType<typeof quiet>) {
  const deps = {
    surface,
    images: models.client,
    chat: models.client,
    config: { imageModel: models.imageModel, chatModel: models.chatModel },
    logger,
    // Both gaps are 0 on the naive surfaces: every call is let through at once.
    channels: new ChannelBudget(),
  };
  return (channelId: string, messageId: string, userId: string, text: string): void => {
    const trigger = {
      id: messageId,
      author: { id: userId, name: userId, isBot: false, isSelf: false },
      text,
      attachments: [],
    };
    void converse({ target: { channelId, threadId: messageId }, trigger, history: [trigger] }, deps);
  };
}

async function slackRig(
  options: RigOptions,
  models: Models,
  logger: ReturnType<typeof quiet>,
  runtime: BotRuntime,
): Promise<Rig> {
  const channels = Array.from({ length: options.channels }, (_, i) => ({ id: `C${100 + i}`, name: `bench-${i}` }));
  const bot = options.answerer === 'bot';
  const slack = await startSlackFake({
    channels: [...channels, ASIDE_CHANNEL],
    events: ['app_mention'],
    echoBotMessages: false,
  });
  const { botUserId } = slack.identity;
  let stopBot = async (): Promise<void> => undefined;
  let answer: ReturnType<typeof naiveAnswer> | undefined;
  if (bot) {
    const started = await startBots({
      slack: {
        slack: {
          botToken: slack.identity.botToken,
          connection: { mode: 'http', signingSecret: slack.identity.signingSecret, port: 0 },
          apiUrl: slack.apiUrl,
          streaming: 'edit',
        },
      },
      database: await inMemoryDatabase(),
      models,
      logger,
      runtime,
    });
    await started.working;
    slack.deliverTo(`http://127.0.0.1:${String(started.slack?.port)}/slack/events`);
    stopBot = () => started.stop({ drainMs: 2_000 });
  } else {
    answer = naiveAnswer(naiveSlackSurface(slack.apiUrl, slack.identity.botToken), models, logger);
  }
  const posted = new Map<number, { channel: string; ts: string }>();
  const mentionIn = async (channel: string, index: number, prompt: string): Promise<void> => {
    const user = `U${1000 + index}`;
    slack.workspace.addUser({ id: user, name: `user${index}` });
    const text = `<@${botUserId}> ${prompt}`;
    if (answer === undefined) {
      const message = await slack.userSays({ user, channel, text });
      posted.set(index, { channel, ts: message.ts });
    } else {
      // No event delivery: the naive answerer is handed the mention directly.
      const message = slack.workspace.post({ channel, user, text, fileIds: [] });
      posted.set(index, { channel, ts: message.ts });
      answer(channel, message.ts, user, prompt);
    }
  };
  return {
    editWindowMs: 1_000,
    mention: (index, prompt) => mentionIn(channels[index % channels.length]?.id ?? 'C1', index, prompt),
    mentionAside: (index, prompt) => mentionIn(ASIDE_CHANNEL.id, index, prompt),
    replies(index) {
      const at = posted.get(index);
      if (at === undefined) return [];
      return slack.workspace.botMessages(botUserId, { channel: at.channel, threadTs: at.ts }).map(slackVersions);
    },
    enforceEditLimits() {
      slack.rateLimit({ method: 'chat.update', perSecond: 1, scope: 'channel' });
    },
    rateLimitHits: () => slack.rateLimitHits.length,
    async close() {
      await stopBot();
      await slack.close();
    },
  };
}

async function discordRig(
  options: RigOptions,
  models: Models,
  logger: ReturnType<typeof quiet>,
  runtime: BotRuntime,
): Promise<Rig> {
  const names = Array.from({ length: options.channels }, (_, i) => `bench-${i}`);
  const fakeOptions: DiscordFakeOptions = { guild: { channels: [...names, ASIDE_CHANNEL.name] } };
  const fake = await startDiscordFake(fakeOptions);
  const botId = fake.botUser.id;
  let stopBot = async (): Promise<void> => undefined;
  let answer: ReturnType<typeof naiveAnswer> | undefined;
  if (options.answerer === 'bot') {
    // As it ships: every mention a job, recorded in an in-memory SQLite database and run by the in-process worker.
    const started = await startBots({
      discord: {
        discord: { token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl },
        registerCommands: false,
      },
      database: await inMemoryDatabase(),
      models,
      logger,
      runtime,
    });
    await started.working;
    stopBot = () => started.stop({ drainMs: 2_000 });
  } else {
    answer = naiveAnswer(naiveDiscordSurface(fake.apiUrl, fake.botToken), models, logger);
  }
  const posted = new Map<number, { channelId: string; id: string }>();
  const mentionIn = async (channelName: string, index: number, prompt: string): Promise<void> => {
    const channelId = fake.channelId(channelName);
    const message = fake.userSays({
      user: { username: `user${index}` },
      channelId,
      content: `<@${botId}> ${prompt}`,
    });
    posted.set(index, { channelId, id: message.id });
    answer?.(channelId, message.id, message.author.id, prompt);
  };
  return {
    editWindowMs: 5_000,
    mention: (index, prompt) => mentionIn(names[index % names.length] ?? 'general', index, prompt),
    mentionAside: (index, prompt) => mentionIn(ASIDE_CHANNEL.name, index, prompt),
    replies(index) {
      const at = posted.get(index);
      if (at === undefined) return [];
      return fake.state
        .messages(at.channelId)
        .filter((message) => message.author.id === botId && message.reference?.messageId === at.id)
        .map(discordVersions);
    },
    enforceEditLimits() {
      fake.rateLimit({ route: 'PATCH /channels/:id/messages/:id', limit: 5, windowMs: 5_000 });
    },
    rateLimitHits: () => fake.state.rateLimitHits.length,
    async close() {
      await stopBot();
      await fake.close();
    },
  };
}
