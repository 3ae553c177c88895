import { GenAiClient } from '@genbot/core/genai';
import type { InProcessJobQueue } from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import type { Store } from '@genbot/core/store';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startSlackFake, type SlackFake } from '@genbot/fakes';
import { parseSlackEnv, type SlackBot } from '@genbot/slack-bot';
import { type BotsOptions, inMemoryDatabase, openedDatabase, startBots } from '@genbot/cli/wiring';
import { SECRETS } from './harness.js';

export interface JobsHarness {
  slack: SlackFake;
  emulator: Emulator;
  bot: SlackBot;
  store: Store;
  queue: InProcessJobQueue;
  close(): Promise<void>;
}

/** The real Slack bot (Bolt, HTTP) on the fake, with the jobs floor as the launcher composes it: a SQLite store, the queue, the worker. */
export async function startJobsHarness(
  options: {
    quota?: { imagesPerDay?: number; chatTokensPerDay?: number };
    store?: Store;
    /** CHAT_MODELS, IMAGE_MODELS, BUDGET_* and ADMIN_USER_IDS, as the launcher reads them (default: none). */
    settings?: Pick<BotsOptions, 'operator' | 'adminUserIds'>;
  } = {},
): Promise<JobsHarness> {
  const logger = createLogger({ level: 'silent' });
  const slack = await startSlackFake({
    botToken: SECRETS.botToken,
    signingSecret: SECRETS.signingSecret,
    retryDelaysMs: [50, 100, 100],
  });
  const emulator = await startEmulator({ apiKey: SECRETS.apiKey });
  const client = new GenAiClient({ baseUrl: emulator.url, apiKey: SECRETS.apiKey, retryBaseDelayMs: 5, logger });
  const models = { client, chatModel: 'claude-e2e', imageModel: 'gemini-image-e2e' };
  const config = parseSlackEnv({
    SLACK_BOT_TOKEN: SECRETS.botToken,
    SLACK_SIGNING_SECRET: SECRETS.signingSecret,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: '0',
  });
  const quota = { imagesPerDay: options.quota?.imagesPerDay, chatTokensPerDay: options.quota?.chatTokensPerDay };
  const bots = await startBots({
    slack: { slack: config.bot! },
    models,
    logger,
    quota,
    ...options.settings,
    database: options.store === undefined ? await inMemoryDatabase() : openedDatabase(options.store),
  });
  await bots.working;
  const bot = bots.slack!;
  slack.deliverTo(`http://127.0.0.1:${String(bot.port)}/slack/events`);
  return {
    slack,
    emulator,
    bot,
    store: bots.jobs.store,
    queue: bots.jobs.inProcessQueue!,
    close: async () => {
      await bots.stop();
      await client.close();
      await slack.close();
      await emulator.close();
    },
  };
}
