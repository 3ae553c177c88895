import type { ChatModel, ImageModel } from '@genbot/core/surface';
import type { QuotaConfig } from '@genbot/core/config';
import type { JobLane } from '@genbot/core/scheduling';
import { BotRuntime } from '@genbot/core/runtime';
import type { Store } from '@genbot/core/store';
import { InProcessJobs } from '@genbot/core/jobs';
import { type SlackBot, type SlackBotOptions, startSlackBot } from '@genbot/slack-bot';
import { openStore } from '@genbot/store';

export interface SlackBotOnJobs {
  bot: SlackBot;
  store: Store;
  jobs: InProcessJobs;
  runtime: BotRuntime;
  /** Stops taking jobs, stops the bot (its drain), closes the store. */
  close(options?: { drainMs?: number }): Promise<void>;
}

/**
 * The real Slack bot with the jobs floor as the launcher composes it: a store
 * (a fresh in-memory SQLite database unless one is given), the in-process
 * queue and the worker, all on one runtime.
 */
export async function startSlackBotOnJobs(
  options: Omit<SlackBotOptions, 'jobs' | 'runtime'> & {
    models: { client: ImageModel & ChatModel; chatModel: string; imageModel: string };
    runtime?: BotRuntime | undefined;
    store?: Store;
    quota?: QuotaConfig;
    maxReplyChars?: number;
    /** Jobs the worker takes at once, per lane (default: InProcessJobs'). */
    workers?: Readonly<Record<JobLane, number>>;
  },
): Promise<SlackBotOnJobs> {
  const { models, logger } = options;
  const runtime = options.runtime ?? new BotRuntime();
  const store = options.store ?? (await openStore('sqlite::memory:'));
  const jobs = new InProcessJobs({
    store,
    runtime,
    quota: options.quota,
    logger,
    ...(options.workers === undefined ? {} : { concurrency: options.workers }),
    deps: {
      images: models.client,
      chat: models.client,
      config: {
        imageModel: models.imageModel,
        chatModel: models.chatModel,
        ...(options.maxReplyChars === undefined ? {} : { maxReplyChars: options.maxReplyChars }),
      },
      logger,
    },
  });
  let bot: SlackBot;
  try {
    bot = await startSlackBot({
      slack: options.slack,
      logger,
      runtime,
      ...(options.threads === undefined ? {} : { threads: options.threads }),
      threadStore: store.threads,
      jobs: { intake: jobs.intake, usage: jobs.usage, presses: jobs.presses },
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  await jobs.startWorker([bot.surfaces]);
  return {
    bot,
    store,
    jobs,
    runtime,
    close: async (closeOptions = {}) => {
      await jobs.queue.close();
      await bot.stop({ drainMs: closeOptions.drainMs ?? 2_000 });
      await store.close();
    },
  };
}
