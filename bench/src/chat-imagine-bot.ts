/**
 * Child entry: the Slack bot alone in its process, so its resident memory and
 * event-loop delay are its own (the fake platform keeps every upload in the
 * parent). Sends `{ port }` once listening; on `'stop'` sends what it measured
 * and exits. With `heartbeatMs`, it also sends a `Heartbeat` that often, so a
 * parent learns the longest stall so far even from a process that dies or hangs;
 * `'reset'` starts the stall and memory measures afresh and answers with a zero heartbeat;
 * `'beat'` asks for a heartbeat now.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import { GenAiClient } from '@genbot/core/genai';
import { JobScheduler, type JobSchedulerOptions } from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import { inMemoryDatabase, startBots } from '@genbot/cli/wiring';

export interface ImagineBotInput {
  apiUrl: string;
  botToken: string;
  signingSecret: string;
  serviceUrl: string;
  apiKey: string;
  chatModel: string;
  imageModel: string;
  scheduler: JobSchedulerOptions;
  heartbeatMs?: number;
}

export interface ImagineBotStats {
  peakRssGrowthMiB: number;
  /** The highest resident set size since the last reset: growth alone hides what the allocator kept from before. */
  peakRssMiB: number;
  maxLoopDelayMs: number;
}

export interface Heartbeat {
  kind: 'heartbeat';
  maxLoopDelayMs: number;
}

const RSS_SAMPLE_MS = 5;
const MIB = 1024 * 1024;

const input = JSON.parse(process.argv[2] ?? '{}') as ImagineBotInput;
const logger = createLogger({
  level: 'silent',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});
const client = new GenAiClient({ baseUrl: input.serviceUrl, apiKey: input.apiKey });
const bots = await startBots({
  slack: {
    slack: {
      botToken: input.botToken,
      connection: { mode: 'http', signingSecret: input.signingSecret, port: 0 },
      apiUrl: input.apiUrl,
      streaming: 'edit',
    },
  },
  database: await inMemoryDatabase(),
  models: { client, chatModel: input.chatModel, imageModel: input.imageModel },
  logger,
  runtime: new BotRuntime({ scheduler: new JobScheduler(input.scheduler) }),
});
await bots.working;

let baseRss = 0;
let peakRss = 0;
/** Starts the memory measure afresh: what is resident now, after a full collection, is the baseline. */
async function measureRssFromHere(): Promise<void> {
  globalThis.gc?.();
  // Let finalisers and freed pages go before the baseline is read.
  await sleep(50);
  baseRss = process.memoryUsage.rss();
  peakRss = baseRss;
}
await measureRssFromHere();
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, RSS_SAMPLE_MS);
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const heartbeat =
  input.heartbeatMs === undefined
    ? undefined
    : setInterval(() => {
        const beat: Heartbeat = { kind: 'heartbeat', maxLoopDelayMs: loopDelay.max / 1e6 };
        process.send?.(beat);
      }, input.heartbeatMs);

const stop = (): void => {
  clearInterval(sampler);
  clearInterval(heartbeat);
  loopDelay.disable();
  const stats: ImagineBotStats = {
    peakRssGrowthMiB: (peakRss - baseRss) / MIB,
    peakRssMiB: peakRss / MIB,
    maxLoopDelayMs: loopDelay.max / 1e6,
  };
  process.send?.(
    stats,
    () => void Promise.all([bots.stop({ drainMs: 1_000 }), client.close()]).finally(() => process.exit(0)),
  );
};
process.on('message', (message) => {
  if (message === 'beat') {
    const beat: Heartbeat = { kind: 'heartbeat', maxLoopDelayMs: loopDelay.max / 1e6 };
    process.send?.(beat);
    return;
  }
  if (message !== 'reset') {
    stop();
    return;
  }
  // After a warm-up: the stalls and memory measured from here on are the traffic's, not loading and first compiles.
  void measureRssFromHere().then(() => {
    loopDelay.reset();
    const beat: Heartbeat = { kind: 'heartbeat', maxLoopDelayMs: 0 };
    process.send?.(beat);
  });
});
process.send?.({ port: bots.slack?.port });
