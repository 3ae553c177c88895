/**
 * Child entry: the peer, a minimal Chat SDK bot doing what genbot's mention
 * flow does: a mention is answered in its thread by streaming the messages
 * operation's text. Configured as the SDK's README shows (`new Chat` with the
 * Slack adapter from its token and signing secret, in-memory state, the
 * stream handed to `thread.post`), with the adapter's own `apiUrl` option
 * pointing it at the fake. The model is called with the official Anthropic
 * SDK, the usual client for the messages operation. Webhooks arrive on a
 * plain node:http server turned into the Fetch `Request` the SDK takes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { createSlackAdapter, type SlackAdapterConfig } from '@chat-adapter/slack';
import { createMemoryState } from '@chat-adapter/state-memory';
import { Chat, ConsoleLogger } from 'chat';
import { peerBotInput, servePeerBot } from './peer-bot-process.js';

/** genbot's default reply length cap, so both ask the service for the same. */
const MAX_TOKENS = 2_048;

const input = peerBotInput();
const anthropic = new Anthropic({
  apiKey: input.apiKey,
  baseURL: input.serviceUrl,
  // The SDK's own default version is newer than the one the emulator speaks.
  defaultHeaders: { 'anthropic-version': '2023-06-01' },
});

async function* replyText(prompt: string, signal: AbortSignal): AsyncIterable<string> {
  const stream = anthropic.messages.stream(
    { model: input.chatModel, max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: prompt }] },
    { signal },
  );
  for await (const event of stream) {
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield event.delta.text;
  }
}

const silent = new ConsoleLogger('silent');
/** The adapter's own Web API client logs each 429 it waits out on the console; the bench keeps its output to the table. */
type WebClientLogLevel = NonNullable<NonNullable<SlackAdapterConfig['webClientOptions']>['logLevel']>;
const ERRORS_ONLY = 'error' as WebClientLogLevel;
const chat = new Chat({
  userName: 'peer',
  adapters: {
    slack: createSlackAdapter({
      botToken: input.botToken,
      signingSecret: input.signingSecret,
      apiUrl: input.apiUrl,
      agentView: input.agentView,
      webClientOptions: { logLevel: ERRORS_ONLY },
      logger: silent,
    }),
  },
  state: createMemoryState(),
  logger: silent,
});

/** The mention that addressed the bot is not part of the question (genbot drops it too). */
const LEADING_MENTIONS = /^(?:@\S+\s*)+/;

chat.onNewMention(async (thread, message) => {
  await thread.post(replyText(message.text.replace(LEADING_MENTIONS, ''), thread.signal));
});

// In agent view mode each top-level DM message is a thread of its own, answered there.
chat.onDirectMessage(async (thread, message) => {
  await thread.post(replyText(message.text, thread.signal));
});

const pending = new Set<Promise<unknown>>();
const waitUntil = (task: Promise<unknown>): void => {
  pending.add(task);
  void task.finally(() => pending.delete(task));
};

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.append(name, one);
  }
  return new Request(`http://127.0.0.1${req.url ?? '/'}`, {
    method: req.method ?? 'POST',
    headers,
    body: Buffer.concat(chunks),
  });
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const response = await chat.webhooks.slack(await toRequest(req), { waitUntil });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

await chat.initialize();
const server = createServer((req, res) => {
  answer(req, res).catch(() => {
    res.writeHead(500);
    res.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
await servePeerBot({
  port: (server.address() as AddressInfo).port,
  stop: async () => {
    server.close();
    await Promise.allSettled(pending);
    await chat.shutdown();
  },
});
