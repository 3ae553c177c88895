/**
 * Issue 12: Slack's conversations.replies is limited to one call a minute and
 * 15 messages a page for apps outside the Marketplace. A burst of 100
 * mentions in one thread, under those limits, and the calls it costs per
 * mention: in a thread the bot saw arrive as events, and in one it never saw.
 * Baseline: the same bot with a thread cache that keeps nothing, under
 * Slack's older limits, so it reads the thread through the API as it used to.
 */
import type { CachedThread, ThreadCache } from '@genbot/core/chat';
import type { ChatModel, ImageModel } from '@genbot/core/surface';
import { GenAiClient } from '@genbot/core/genai';
import { JobScheduler } from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import { startSlackFake, type SlackFake } from '@genbot/fakes';
import { parseSlackEnv } from '@genbot/slack-bot';
import { inMemoryDatabase, startBots } from '@genbot/cli/wiring';
import { boundedRow, type BenchContext, type Benchmark, type Row } from './suite.js';

const MENTIONS = 100;
const REPLIES = 10;
const CHANNEL = 'C1';
/** The target: at most one call per ten mentions. */
const MAX_CALLS_PER_MENTION = 0.1;

/** The baseline's cache: it remembers nothing, so every read goes to the API. */
class NoThreadCache implements ThreadCache {
  async observe(): Promise<void> {}
  async forget(): Promise<void> {}
  async backfill(): Promise<void> {}
  async read(): Promise<CachedThread | undefined> {
    return undefined;
  }
}

type Variant = 'cached' | 'uncached';

async function thread(slack: SlackFake, seen: boolean): Promise<string> {
  if (!seen) {
    const parent = slack.workspace.post({ channel: CHANNEL, user: 'U2', text: 'where do we meet?' });
    for (let i = 0; i < REPLIES; i += 1)
      slack.workspace.post({ channel: CHANNEL, user: 'U1', threadTs: parent.ts, text: `reply ${i}` });
    return parent.ts;
  }
  const parent = await slack.userSays({ user: 'U2', channel: CHANNEL, text: 'where do we meet?' });
  for (let i = 0; i < REPLIES; i += 1)
    await slack.userSays({ user: 'U1', channel: CHANNEL, threadTs: parent.ts, text: `reply ${i}` });
  return parent.ts;
}

/** conversations.replies calls (refused ones included) per mention of a burst in one thread, once every mention has read it. */
async function callsPerMention(context: BenchContext, variant: Variant, seen: boolean): Promise<number> {
  const slack = await startSlackFake({ nonMarketplaceApp: variant === 'cached' });
  const client = new GenAiClient({ baseUrl: context.emulatorUrl, apiKey: context.apiKey });
  const logger = createLogger({ level: 'silent' });
  const config = parseSlackEnv({
    SLACK_BOT_TOKEN: slack.identity.botToken,
    SLACK_SIGNING_SECRET: slack.identity.signingSecret,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: '0',
  });
  // A job asks the model once it has its thread: when every mention has asked, every read is done.
  let asked = 0;
  const counting: ImageModel & ChatModel = {
    generateImages: (model, input, options) => client.generateImages(model, input, options),
    streamMessage: (request, options) => {
      asked += 1;
      return client.streamMessage(request, options);
    },
  };
  const bots = await startBots({
    slack: { slack: config.bot!, ...(variant === 'uncached' ? { threads: new NoThreadCache() } : {}) },
    database: await inMemoryDatabase(),
    models: { client: counting, chatModel: 'bench-chat', imageModel: 'bench-image' },
    logger,
    // All at once: the cache has to hold against a burst of reads of one thread, not a trickle.
    runtime: new BotRuntime({
      scheduler: new JobScheduler({ stream: { queueLimit: MENTIONS, concurrency: MENTIONS } }),
    }),
  });
  await bots.working;
  try {
    slack.deliverTo(`http://127.0.0.1:${String(bots.slack?.port)}/slack/events`);
    const threadTs = await thread(slack, seen);
    const since = slack.calls.length;
    // One mention per person, so no one's share of the scheduler turns a mention away.
    await Promise.all(
      Array.from({ length: MENTIONS }, (_, index) =>
        slack.userSays({ user: `UB${index}`, channel: CHANNEL, threadTs, text: `<@UBOT> question ${index}` }),
      ),
    );
    // The answers themselves then take a second each (the channel's post budget): not what is measured.
    await slack.waitFor(() => asked >= MENTIONS || undefined, { timeoutMs: 120_000 });
    const calls = slack.calls.slice(since).filter((call) => call.method === 'conversations.replies').length;
    return calls / MENTIONS;
  } finally {
    await bots.stop({ drainMs: 5_000 });
    await client.close();
    await slack.close();
  }
}

async function rows(context: BenchContext, seen: boolean): Promise<Row> {
  // Side by side: each run waits mostly on the fake's answers, not on the CPU.
  const [ours, baseline] = await Promise.all([
    callsPerMention(context, 'cached', seen),
    callsPerMention(context, 'uncached', seen),
  ]);
  const which = seen ? 'a thread seen as events' : 'a thread never seen';
  return boundedRow(
    `slack ${MENTIONS} mentions in ${which}: conversations.replies calls per mention`,
    'calls',
    ours,
    baseline,
    MAX_CALLS_PER_MENTION,
  );
}

export const threadReads: Benchmark = {
  name: 'Slack thread reads under the 2025 conversations.replies limits: cache vs reading the API',
  async run(context) {
    return Promise.all([rows(context, true), rows(context, false)]);
  },
};
