/**
 * Child entry: the Slack bot alone in its process, so its resident memory and
 * event-loop delay are its own (the fake platform keeps every upload in the
 * parent). Sends `{ port }` once listening; on `'stop'` sends what it measured
 * and exits.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import { createLogger, GenAiClient, JobScheduler, type JobSchedulerOptions } from '@genbot/core';
import { startSlackBot } from '@genbot/slack-bot';

export interface ImagineBotInput {
  apiUrl: string;
  botToken: string;
  signingSecret: string;
  serviceUrl: string;
  apiKey: string;
  chatModel: string;
  imageModel: string;
  scheduler: JobSchedulerOptions;
}

export interface ImagineBotStats {
  peakRssGrowthMiB: number;
  maxLoopDelayMs: number;
}

const RSS_SAMPLE_MS = 5;
const MIB = 1024 * 1024;

const input = JSON.parse(process.argv[2] ?? '{}') as ImagineBotInput;
const logger = createLogger({ level: 'silent', destination: new Writable({ write: (_chunk, _encoding, done) => done() }) });
const client = new GenAiClient({ baseUrl: input.serviceUrl, apiKey: input.apiKey });
const bot = await startSlackBot({
  slack: { botToken: input.botToken, signingSecret: input.signingSecret, apiUrl: input.apiUrl, port: 0, streaming: 'edit' },
  models: { client, chatModel: input.chatModel, imageModel: input.imageModel },
  logger,
  scheduler: new JobScheduler(input.scheduler),
});

globalThis.gc?.();
// Let finalisers and freed pages go before the baseline is read.
await sleep(50);
const baseRss = process.memoryUsage.rss();
let peakRss = baseRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, RSS_SAMPLE_MS);
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

process.once('message', () => {
  clearInterval(sampler);
  loopDelay.disable();
  const stats: ImagineBotStats = { peakRssGrowthMiB: (peakRss - baseRss) / MIB, maxLoopDelayMs: loopDelay.max / 1e6 };
  process.send?.(stats, () => void Promise.all([bot.stop({ drainMs: 1_000 }), client.close()]).finally(() => process.exit(0)));
});
process.send?.({ port: bot.port });
