import { GenAiClient } from '@genbot/core/genai';
import type { InProcessJobQueue } from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import type { Store } from '@genbot/core/store';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startSlackFake, type SlackFake } from '@genbot/fakes';
import { parseSlackEnv, type SlackBot } from '@genbot/slack-bot';
import { startSlackBotOnJobs } from '../../support/slack-bot-on-jobs.js';
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
  options: { quota?: { imagesPerDay?: number; chatTokensPerDay?: number }; store?: Store } = {},
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
  const { bot, store, jobs, close } = await startSlackBotOnJobs({
    slack: config.bot!,
    models,
    logger,
    quota,
    ...(options.store === undefined ? {} : { store: options.store }),
  });
  slack.deliverTo(`http://127.0.0.1:${String(bot.port)}/slack/events`);
  return {
    slack,
    emulator,
    bot,
    store,
    queue: jobs.queue,
    close: async () => {
      await close();
      await client.close();
      await slack.close();
      await emulator.close();
    },
  };
}
