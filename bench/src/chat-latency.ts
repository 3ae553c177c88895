/**
 * Issue 7: first visible chat text after the service's first delta, bot and
 * fake platform on loopback, against the naive baseline (edit on every
 * delta, no scheduler). Mentions arrive spread out, a few replies at a time,
 * after one warm-up mention answered in a channel of its own (warm-up.ts).
 */
import { taggedPrompt } from './chat-proxy.js';
import { samples, settledReplies } from './chat-replies.js';
import { startChatRig, type Answerer, type Platform } from './chat-rig.js';
import { sendSpacedMentions } from './spaced-mentions.js';
import { warmUp } from './warm-up.js';
import { percentile } from './stats.js';
import { boundedRow, type BenchContext, type Benchmark, type Row } from './suite.js';

const MENTIONS = 50;
const CHANNELS = 10;
/**
 * Each channel hears a mention every 1.1 s: a little slower than Slack's one
 * new message a second per channel, so the row measures the bot, not a line
 * forming at the platform's pace (the burst rows measure that). At exactly a
 * second, every reply waits on the one before it in its channel.
 */
const SPACING_MS = 110;
/** Three deltas 200 ms apart: the first is unmistakable in the timeline. */
const DIRECTIVES = '[len:150][delay:200]';
const TARGET_P50_MS = 50;

async function firstTextLatencies(context: BenchContext, platform: Platform, answerer: Answerer): Promise<number[]> {
  const rig = await startChatRig({ ...context, platform, answerer, channels: CHANNELS });
  try {
    await warmUp(rig);
    await sendSpacedMentions(MENTIONS, SPACING_MS, (index) => rig.mention(index, taggedPrompt(index, DIRECTIVES)));
    const outcomes = await settledReplies(rig, MENTIONS, 20_000);
    return samples(
      `${platform} first text`,
      outcomes.map((o) => o.firstTextMs),
    );
  } finally {
    await rig.close();
  }
}

async function platformRows(context: BenchContext, platform: Platform): Promise<Row[]> {
  const ours = await firstTextLatencies(context, platform, 'bot');
  const naive = await firstTextLatencies(context, platform, 'naive');
  const prefix = `${platform} ${MENTIONS} mentions: first text after first delta`;
  return [
    boundedRow(`${prefix} p50`, 'ms', percentile(ours, 50), percentile(naive, 50), TARGET_P50_MS),
    boundedRow(`${prefix} p99`, 'ms', percentile(ours, 99), percentile(naive, 99)),
  ];
}

export const chatLatency: Benchmark = {
  name: 'chat first visible text: bot vs edit-every-delta',
  async run(context) {
    return [...(await platformRows(context, 'slack')), ...(await platformRows(context, 'discord'))];
  },
};
