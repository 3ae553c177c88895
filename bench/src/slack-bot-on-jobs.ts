import type { ChatModel, ImageModel } from '@genbot/core/surface';
import type { BotRuntime } from '@genbot/core/runtime';
import { InProcessJobs } from '@genbot/core/jobs';
import { type SlackBot, type SlackBotOptions, startSlackBot } from '@genbot/slack-bot';
import { openStore } from '@genbot/store';

/**
 * genbot's Slack bot as it ships: every request a job, recorded in a fresh
 * in-memory SQLite database and run by the in-process worker on `runtime`.
 * Its `stop` also stops the worker and closes the database.
 */
export async function startSlackBotOnJobs(
  options: Omit<SlackBotOptions, 'jobs'> & {
    models: { client: ImageModel & ChatModel; chatModel: string; imageModel: string };
    runtime: BotRuntime;
  },
): Promise<SlackBot> {
  const { models, logger, runtime } = options;
  const store = await openStore('sqlite::memory:');
  const jobs = new InProcessJobs({
    store,
    runtime,
    logger,
    deps: {
      images: models.client,
      chat: models.client,
      config: { imageModel: models.imageModel, chatModel: models.chatModel },
      logger,
    },
  });
  const bot = await startSlackBot({
    slack: options.slack,
    logger,
    runtime,
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    threadStore: store.threads,
    jobs: { intake: jobs.intake, usage: jobs.usage, presses: jobs.presses },
  });
  await jobs.startWorker([bot.surfaces]);
  return {
    ...bot,
    stop: async (stopOptions) => {
      await jobs.queue.close();
      await bot.stop(stopOptions);
      await store.close();
    },
  };
}
