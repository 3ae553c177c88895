/** Child entry: genbot's Slack bot (Bolt over HTTP, its scheduler, edits in place or native streaming) for the peer comparison. */
import { Writable } from 'node:stream';
import { GenAiClient } from '@genbot/core/genai';
import { JobScheduler } from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import { inMemoryDatabase, startBots } from '@genbot/cli/wiring';
import { peerBotInput, servePeerBot } from './peer-bot-process.js';

const input = peerBotInput();
const logger = createLogger({
  level: 'silent',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});
// A chat job holds a connection to the service while it streams: raising the job cap raises this one with it.
const client = new GenAiClient({
  baseUrl: input.serviceUrl,
  apiKey: input.apiKey,
  ...(input.streamConcurrency !== undefined && { connections: input.streamConcurrency }),
});
const bots = await startBots({
  slack: {
    slack: {
      botToken: input.botToken,
      connection: { mode: 'http', signingSecret: input.signingSecret, port: 0 },
      apiUrl: input.apiUrl,
      streaming: input.streaming,
    },
  },
  database: await inMemoryDatabase(),
  models: { client, chatModel: input.chatModel, imageModel: input.chatModel },
  logger,
  runtime: new BotRuntime({
    scheduler: new JobScheduler({
      stream: {
        queueLimit: input.queueLimit,
        ...(input.streamConcurrency !== undefined && { concurrency: input.streamConcurrency }),
      },
    }),
  }),
});
await bots.working;
const bot = bots.slack;
// HTTP mode, so there is a port.
if (bot?.port === undefined) throw new Error('genbot Slack bot started without an HTTP port');
await servePeerBot({
  port: bot.port,
  stop: async () => {
    await bots.stop({ drainMs: 1_000 });
    await client.close();
  },
});
