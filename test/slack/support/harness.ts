import { Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '@genbot/core/config';
import { GenAiClient, type GenAiClientOptions } from '@genbot/core/genai';
import type { JobLane, JobScheduler } from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import type { Store } from '@genbot/core/store';
import type { ChatModel, ImageModel } from '@genbot/core/surface';
import { startEmulator, type Emulator, type RecordedRequest } from '@genbot/emulator';
import { startSlackFake, type SlackFake, type SlackFakeOptions, type SlackMessage } from '@genbot/fakes';
import { parseSlackEnv, type SlackBot } from '@genbot/slack-bot';
import { inMemoryDatabase, startBots } from '@genbot/cli/wiring';

export type Mode = 'http' | 'socket';
export type Streaming = 'edit' | 'native';

/** Unusual values, so finding one anywhere is never a coincidence. */
export const SECRETS = {
  botToken: 'xoxb-e2e-7Qv2kLm9ZtW4',
  appToken: 'xapp-e2e-3Hn8cRx5YpB1',
  signingSecret: 'sigsec-e2e-9Jd4wTq6UfE2',
  apiKey: 'genai-key-e2e-5Mz7pKs3VaL8',
} as const;

export const CHANNEL = 'C1';

export interface Harness {
  mode: Mode;
  streaming: Streaming;
  slack: SlackFake;
  emulator: Emulator;
  bot: SlackBot;
  /** The jobs' store (versions, usage), as an operator would read it. */
  store: Store;
  /** Every log line the bot (and its clients) wrote. */
  logs(): string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  mode: Mode;
  streaming?: Streaming;
  scheduler?: JobScheduler;
  /** Jobs the in-process worker takes at once, per lane: the rest wait for it in the job queue. */
  workers?: Readonly<Record<JobLane, number>>;
  /** More options for the Slack fake (its limits, subscriptions). */
  fake?: Omit<SlackFakeOptions, 'botToken' | 'appToken' | 'signingSecret'>;
  /** Limits of the bot's service client (timeouts, answer sizes), when a test needs them tighter. */
  serviceLimits?: Pick<GenAiClientOptions, 'textTimeoutMs' | 'streamTimeoutMs' | 'maxResponseBytes'>;
  /** Where the bot's service is, when not the in-process emulator (an emulator in a process of its own). */
  serviceUrl?: string;
  /** CHAT_TOOLS, read as the launcher reads it (default: on). */
  chatTools?: 'on' | 'off';
  /** Awaited before each image request goes to the service: a test holds drawing there while it looks at the reply. */
  beforeImages?: () => Promise<void>;
}

/** The service's client, its image requests made to wait for `before` first. */
function imagesAfter(client: GenAiClient, before: () => Promise<void>): ImageModel & ChatModel {
  return {
    generateImages: async (model, input, options) => {
      await before();
      return client.generateImages(model, input, options);
    },
    streamMessage: (request, options) => client.streamMessage(request, options),
  };
}

/** The fake Slack workspace, the service emulator and the real bot (Bolt) on loopback, wired together. */
export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const streaming = options.streaming ?? 'edit';
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  // No `secrets` given to the logger: the bot itself must never write one.
  const logger = createLogger({ level: 'debug', destination });
  // The fake first: the bot calls auth.test as it starts.
  const slack = await startSlackFake({
    botToken: SECRETS.botToken,
    appToken: SECRETS.appToken,
    signingSecret: SECRETS.signingSecret,
    retryDelaysMs: [50, 100, 100],
    ...options.fake,
  });
  const emulator = await startEmulator({ apiKey: SECRETS.apiKey });
  const client = new GenAiClient({
    baseUrl: options.serviceUrl ?? emulator.url,
    apiKey: SECRETS.apiKey,
    retryBaseDelayMs: 5,
    logger,
    ...options.serviceLimits,
  });
  const config = parseSlackEnv({
    SLACK_BOT_TOKEN: SECRETS.botToken,
    ...(options.mode === 'socket'
      ? { SLACK_APP_TOKEN: SECRETS.appToken }
      : { SLACK_SIGNING_SECRET: SECRETS.signingSecret }),
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: '0',
    SLACK_STREAMING: streaming,
  });
  const bots = await startBots({
    slack: { slack: config.bot! },
    database: await inMemoryDatabase(),
    models: {
      client: options.beforeImages === undefined ? client : imagesAfter(client, options.beforeImages),
      chatModel: 'claude-e2e',
      imageModel: 'gemini-image-e2e',
    },
    logger,
    runtime: options.scheduler === undefined ? undefined : new BotRuntime({ scheduler: options.scheduler }),
    ...(options.chatTools !== undefined && { conversation: loadConfig({ CHAT_TOOLS: options.chatTools }).chat }),
    ...(options.workers !== undefined && { worker: { concurrency: options.workers } }),
  });
  await bots.working;
  const bot = bots.slack!;
  if (options.mode === 'http') {
    slack.deliverTo(`http://127.0.0.1:${String(bot.port)}/slack/events`);
  } else {
    await slack.waitFor(() => slack.socketConnected, { timeoutMs: 10_000 });
  }
  return {
    mode: options.mode,
    streaming,
    slack,
    emulator,
    bot,
    store: bots.jobs.store,
    logs: () => lines.join(''),
    close: async () => {
      await bots.stop({ drainMs: 2_000 });
      await slack.close();
      await emulator.close();
    },
  };
}

/** The bot's messages in a thread, oldest first. */
export function botReplies(slack: SlackFake, threadTs: string): SlackMessage[] {
  return slack.workspace.botMessages(slack.identity.botUserId, { channel: CHANNEL, threadTs });
}

/**
 * Waits until the bot's messages in the thread satisfy `done` (a stream, if
 * any, stopped) and then stay unchanged for a moment, and answers them. Rate
 * limits and slow models make gaps in a reply, so "quiet for a while" alone is
 * no sign that it is complete.
 */
export function repliesWhen(
  slack: SlackFake,
  threadTs: string,
  done: (replies: SlackMessage[]) => boolean,
  timeoutMs = 30_000,
): Promise<SlackMessage[]> {
  return slack.waitFor(
    () => {
      const replies = botReplies(slack, threadTs);
      const streaming = replies.some((m) => m.stream?.state === 'streaming');
      return !streaming && done(replies) ? replies : undefined;
    },
    { timeoutMs, quietMs: 1_000 },
  );
}

/** The bot's single reply in the thread once its text is `expected`. */
export async function replyWithText(slack: SlackFake, threadTs: string, expected: string): Promise<SlackMessage[]> {
  return repliesWhen(slack, threadTs, (replies) => replies.length === 1 && replies[0]?.text === expected);
}

/** The bot's single reply in the thread once its text matches `pattern`. */
export async function replyMatching(slack: SlackFake, threadTs: string, pattern: RegExp): Promise<SlackMessage[]> {
  return repliesWhen(slack, threadTs, (replies) => replies.length === 1 && pattern.test(replies[0]?.text ?? ''));
}

/** Waits for the emulator to receive a request matching `path` after `since` requests. */
export async function requestSeen(harness: Harness, path: RegExp, since: number): Promise<unknown> {
  const { emulator, slack } = harness;
  const found = await slack.waitFor(() => emulator.requests.slice(since).find((r) => path.test(r.path)), {
    timeoutMs: 15_000,
  });
  return found.body;
}

/**
 * The reply the emulator gives to a conversation, computed by sending the
 * exact request the bot sent again without streaming (the emulator's text is
 * deterministic).
 */
export async function expectedReply(harness: Harness, since: number): Promise<string> {
  const body = await requestSeen(harness, /\/v1\/messages$/, since);
  const response = await fetch(`${harness.emulator.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': SECRETS.apiKey, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ ...(body as object), stream: false }),
  });
  const json = (await response.json()) as { content: Array<{ type: string; text?: string }> };
  return json.content.map((block) => block.text ?? '').join('');
}

export function generateContentRequests(harness: Harness, since: number): number {
  return harness.emulator.requests.slice(since).filter((r) => r.path.includes(':generateContent')).length;
}

export function messagesRequests(harness: Harness, since: number): number {
  return harness.emulator.requests.slice(since).filter((r) => r.path.endsWith('/v1/messages')).length;
}

/** Fails when a secret shows up in the bot's logs, the fake's record of API calls, or any message or file comment. */
export function assertNoSecrets(harness: Harness): void {
  const { slack } = harness;
  const places: Array<[string, string]> = [
    ['logs', harness.logs()],
    ['api calls', JSON.stringify(slack.calls)],
    [
      'messages',
      JSON.stringify([...slack.workspace.messages, ...slack.workspace.deleted, ...slack.workspace.ephemerals]),
    ],
    ['files', JSON.stringify([...slack.workspace.files.values()].map((f) => [f.name, f.title, f.initialComment]))],
  ];
  for (const [where, text] of places) {
    for (const [name, secret] of Object.entries(SECRETS)) {
      if (text.includes(secret)) throw new Error(`${name} found in ${where}`);
    }
  }
  if (!/"level":\d+/.test(harness.logs())) throw new Error('no log lines were captured');
}

/**
 * A harness for the enclosing describe: started before its tests, closed after
 * them once no secret is found anywhere. Call the getter inside a test.
 */
export function useHarness(options: HarnessOptions): () => Harness {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness(options);
  });
  afterAll(async () => {
    if (harness === undefined) return;
    assertNoSecrets(harness);
    await harness.close();
  });
  return () => {
    if (harness === undefined) throw new Error('the harness starts in beforeAll: use it inside a test');
    return harness;
  };
}

const MARKER = 'marker, answer briefly [len:40]';

/**
 * What reached the service from `since` on, besides a mention sent now, once the bot has answered that
 * mention in full: events reach the bot in order, so whatever it would still do about earlier ones has
 * begun by then. Proves that the bot did nothing, without sleeping and hoping long enough.
 */
export async function requestsUntilMarker(harness: Harness, since: number): Promise<RecordedRequest[]> {
  const { slack, emulator } = harness;
  const from = emulator.requests.length;
  const marker = await slack.userSays({ user: 'U2', channel: CHANNEL, text: `<@UBOT> ${MARKER}` });
  const request = await slack.waitFor(
    () => emulator.requests.slice(from).find((r) => r.path.endsWith('/v1/messages') && mentions(r, MARKER)),
    { timeoutMs: 15_000 },
  );
  const expected = await expectedReply(harness, emulator.requests.indexOf(request));
  await slack.waitFor(
    () => {
      const [reply, ...more] = botReplies(slack, marker.ts);
      return more.length === 0 && reply?.text === expected && reply.stream?.state !== 'streaming';
    },
    { timeoutMs: 15_000 },
  );
  // The marker's requests: the bot's, and the replay behind its expected reply.
  return emulator.requests.slice(since).filter((r) => !mentions(r, MARKER));
}

function mentions(request: RecordedRequest, text: string): boolean {
  return JSON.stringify(request.body).includes(text);
}
