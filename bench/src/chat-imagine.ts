/**
 * Issue 7: 50 concurrent Slack `/imagine` of 4 MiB images. The bot runs in
 * its own process (peak RSS growth, max event-loop delay); the fake and the
 * recording proxy run here and say how many images the bot held at once
 * (from the service starting to send one to its upload completing). Ours is
 * the bot's default scheduler; the baseline admits every job at once (no
 * scheduler). Both are measured after a warm-up burst of small images.
 */
import { once } from 'node:events';
import { startSlackFake, type SlackFake } from '@genbot/fakes';
import type { JobSchedulerOptions } from '@genbot/core/scheduling';
import { forkBenchChild } from './child-process.js';
import type { ImagineBotInput, ImagineBotStats } from './chat-imagine-bot.js';
import { startChatProxy } from './chat-proxy.js';
import { CHAT_MODEL, IMAGE_MODEL } from './chat-rig.js';
import { boundedRow, type BenchContext, type Benchmark } from './suite.js';

const COMMANDS = 50;
/**
 * The commands come from 10 channels, 5 each: every post and upload in a channel waits for that
 * channel's budget (about one a second), so 50 in one channel would measure the budget, not memory.
 */
const CHANNELS = 10;

function channelOf(index: number): string {
  return `CI${index % CHANNELS}`;
}
const IMAGE_MIB = 4;
/** One prompt throughout, so the emulator encodes the image once. */
const PROMPT = `a benchmark picture [mb:${IMAGE_MIB}]`;
/** The warm-up's images: the emulator's small default picture. */
const WARM_UP_PROMPT = 'a warm-up picture';
const NO_SCHEDULER: JobSchedulerOptions = { image: { concurrency: COMMANDS, perUser: COMMANDS, queueLimit: 0 } };
const TARGET_RSS_PER_BYTE_IN_FLIGHT = 3;
const TARGET_LOOP_DELAY_MS = 50;
/**
 * Extra node flags for the bot process only, to look inside it, e.g.
 * `BENCH_IMAGINE_BOT_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof --trace-gc'`.
 */
const BOT_FLAGS = (process.env.BENCH_IMAGINE_BOT_FLAGS ?? '').split(/\s+/).filter((flag) => flag !== '');

interface ImagineResult extends ImagineBotStats {
  peakImagesHeld: number;
}

/** Most images between the service starting to send one and Slack completing its upload. */
function peakHeld(starts: readonly number[], ends: readonly number[]): number {
  const events = [...starts.map((at) => ({ at, step: 1 })), ...ends.map((at) => ({ at, step: -1 }))].sort(
    (a, b) => a.at - b.at || a.step - b.step,
  );
  let held = 0;
  let peak = 0;
  for (const event of events) {
    held += event.step;
    peak = Math.max(peak, held);
  }
  return peak;
}

const uploadsDone = (slack: SlackFake) =>
  slack.calls.filter((call) => call.method === 'files.completeUploadExternal' && call.ok);

async function imagineBurst(context: BenchContext, scheduler: JobSchedulerOptions): Promise<ImagineResult> {
  const slack = await startSlackFake();
  const proxy = await startChatProxy(context.emulatorUrl);
  const input: ImagineBotInput = {
    apiUrl: slack.apiUrl,
    botToken: slack.identity.botToken,
    signingSecret: slack.identity.signingSecret,
    serviceUrl: proxy.url,
    apiKey: context.apiKey,
    chatModel: CHAT_MODEL,
    imageModel: IMAGE_MODEL,
    scheduler,
  };
  const child = forkBenchChild(
    new URL('./chat-imagine-bot.ts', import.meta.url),
    [JSON.stringify(input)],
    ['--expose-gc', ...BOT_FLAGS],
  );
  const exited = once(child.process, 'exit');
  let stopping = false;
  try {
    const { port } = (await child.message) as { port: number };
    slack.deliverTo(`http://127.0.0.1:${String(port)}/slack/events`);
    for (let index = 0; index < CHANNELS; index += 1)
      slack.workspace.addChannel({ id: `CI${index}`, name: `imagine-${index}` });
    for (let index = 0; index < COMMANDS; index += 1)
      slack.workspace.addUser({ id: `U${1000 + index}`, name: `user${index}` });
    const round = async (prompt: string, uploads: number): Promise<void> => {
      await Promise.all(
        Array.from({ length: COMMANDS }, (_, index) =>
          slack.userRunsCommand({
            user: `U${1000 + index}`,
            channel: channelOf(index),
            command: '/imagine',
            text: prompt,
          }),
        ),
      );
      await slack.waitFor(() => uploadsDone(slack).length >= uploads || undefined, { timeoutMs: 120_000 });
    };
    // The same burst with small images first: what only the first traffic costs (compiled code, the
    // heap's working size, connections) is not memory held per image, and a running bot has paid it.
    await round(WARM_UP_PROMPT, COMMANDS);
    const measuredFrom = { responses: proxy.imageResponsesAt.length, uploads: uploadsDone(slack).length };
    const reset = once(child.process, 'message');
    child.process.send('reset');
    await reset;
    await round(PROMPT, 2 * COMMANDS);
    const stats = once(child.process, 'message');
    stopping = true;
    child.process.send('stop');
    const [measured] = (await stats) as [ImagineBotStats];
    return {
      ...measured,
      peakImagesHeld: peakHeld(
        proxy.imageResponsesAt.slice(measuredFrom.responses),
        uploadsDone(slack)
          .slice(measuredFrom.uploads)
          .map((call) => call.atMs),
      ),
    };
  } finally {
    // A run that failed before 'stop' (say, uploads that never completed) would otherwise wait forever.
    if (!stopping) child.process.kill();
    await exited.catch(() => undefined);
    await proxy.close();
    await slack.close();
  }
}

export const chatImagine: Benchmark = {
  name: `slack /imagine ${COMMANDS}x ${IMAGE_MIB} MiB: default scheduler vs none`,
  async run(context) {
    const ours = await imagineBurst(context, {});
    const naive = await imagineBurst(context, NO_SCHEDULER);
    const perByte = (r: ImagineResult) => r.peakRssGrowthMiB / (r.peakImagesHeld * IMAGE_MIB);
    const prefix = `slack /imagine ${COMMANDS}x ${IMAGE_MIB} MiB`;
    return [
      boundedRow(`${prefix}: images held at once`, 'n', ours.peakImagesHeld, naive.peakImagesHeld),
      boundedRow(`${prefix}: peak RSS growth`, 'MiB', ours.peakRssGrowthMiB, naive.peakRssGrowthMiB),
      boundedRow(
        `${prefix}: RSS growth / bytes in flight`,
        'x',
        perByte(ours),
        perByte(naive),
        TARGET_RSS_PER_BYTE_IN_FLIGHT,
      ),
      boundedRow(
        `${prefix}: max event-loop delay`,
        'ms',
        ours.maxLoopDelayMs,
        naive.maxLoopDelayMs,
        TARGET_LOOP_DELAY_MS,
      ),
    ];
  },
};
