import { InProcessJobQueue } from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import type { Store } from '@genbot/core/store';
import { ChatJobIntake, JobWorker, LedgerUsageReporter, ResultPresses } from '@genbot/core/jobs';
import { openStore } from '@genbot/store';
import { GenAiClient } from '@genbot/core/genai';
import { BotRuntime } from '@genbot/core/runtime';
import type { DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import { API_KEY, CHAT_MODEL, IMAGE_MODEL, startHarness, type Harness, type HarnessOptions } from './harness.js';
import { eventually, resultOf } from './results.js';

export interface StoreHarness extends Harness {
  store: Store;
  queue: InProcessJobQueue;
  /** What the bot's ingress checks presses and forms with. */
  presses: ResultPresses;
  /** Starts the worker, when the harness was asked to leave the jobs waiting for it (`worker: false`). */
  startWorker(): Promise<void>;
}

/**
 * The real Discord bot (discord.js) on the fake, with the jobs floor as the
 * launcher composes it: a SQLite store, the in-process queue, the intake,
 * the result presses and the worker on the bot's own surfaces.
 */
export async function startStoreHarness(
  options: Pick<HarnessOptions, 'fake' | 'scheduler'> & {
    databaseUrl?: string;
    quota?: { imagesPerDay?: number; chatTokensPerDay?: number };
    /** False: no worker takes jobs until `startWorker()`, so they wait in the job queue. */
    worker?: boolean;
  } = {},
): Promise<StoreHarness> {
  const logger = createLogger({ level: 'silent' });
  const store = await openStore(options.databaseUrl ?? 'sqlite::memory:');
  const runtime = new BotRuntime(options.scheduler === undefined ? {} : { scheduler: options.scheduler });
  const queue = new InProcessJobQueue();
  const quota = { imagesPerDay: options.quota?.imagesPerDay, chatTokensPerDay: options.quota?.chatTokensPerDay };
  const intake = new ChatJobIntake({ store, queue, runtime, quota, logger });
  const presses = new ResultPresses({ versions: store.versions, intake, logger });
  const h = await startHarness({
    ...(options.fake === undefined ? {} : { fake: options.fake }),
    runtime,
    jobs: async () => ({ intake, usage: new LedgerUsageReporter(store.usage, quota), presses }),
  });
  const client = new GenAiClient({ baseUrl: h.emulator.url, apiKey: API_KEY, retryBaseDelayMs: 5, logger });
  const worker = new JobWorker({
    store,
    runtime,
    surfaces: [h.bot.surfaces],
    deps: {
      images: client,
      chat: client,
      config: { imageModel: IMAGE_MODEL, chatModel: CHAT_MODEL },
      logger,
    },
    logger,
  });
  // Jobs that wait for the worker show their place in line through the bot, as the launcher wires it.
  intake.showPlacesOn([h.bot.surfaces]);
  const startWorker = async (): Promise<void> => {
    await worker.resume(queue);
    queue.process(worker.handle, { concurrency: { image: 8, stream: 8 }, platforms: worker.platforms });
  };
  if (options.worker !== false) await startWorker();
  return {
    ...h,
    store,
    queue,
    presses,
    startWorker,
    async stop() {
      await queue.close();
      await h.stop();
      await client.close();
      await store.close();
    },
  };
}

/**
 * The interaction's result once its image versions are recorded too: the
 * worker records them right after the upload, so a press in between (no
 * person is that quick) would find no record yet.
 */
export async function storedResultOf(h: StoreHarness, started: DiscordInteraction): Promise<DiscordMessage> {
  const result = await resultOf(h.fake, started);
  await eventually(async () =>
    (await h.store.versions.byMessage('discord', result.channelId, result.id)).length > 0 ? true : undefined,
  );
  return result;
}
