/**
 * Issue 7: a burst of mentions across a few channels with the fake platform
 * enforcing its real edit limit. What reaches the user: replies that did not
 * end exactly as streamed (a 429 turned into a visible failure, or lost
 * text), and how long after the service's last delta the whole text showed.
 * Against the naive baseline (edit on every delta, no scheduler).
 */
import { taggedPrompt } from './chat-proxy.js';
import { samples, settledReplies, type ReplyOutcome } from './chat-replies.js';
import { startChatRig, type Answerer, type Platform } from './chat-rig.js';
import { percentile } from './stats.js';
import { boundedRow, type BenchContext, type Benchmark, type Row } from './suite.js';

const MENTIONS = 100;
const CHANNELS = 20;
/** Twelve deltas 100 ms apart: about a second of streaming, so edits contend for the limit. */
const DIRECTIVES = '[len:600][delay:100]';
/**
 * Every mention of the burst admitted (the default line of 50 would turn a
 * third away with a "busy" answer): the rows measure the edit path.
 */
const SCHEDULER = { stream: { queueLimit: MENTIONS } };

interface BurstResult {
  outcomes: ReplyOutcome[];
  rateLimitHits: number;
  editWindowMs: number;
}

async function burst(context: BenchContext, platform: Platform, answerer: Answerer): Promise<BurstResult> {
  const rig = await startChatRig({ ...context, platform, answerer, channels: CHANNELS, scheduler: SCHEDULER });
  try {
    rig.enforceEditLimits();
    await Promise.all(
      Array.from({ length: MENTIONS }, (_, index) => rig.mention(index, taggedPrompt(index, DIRECTIVES))),
    );
    const outcomes = await settledReplies(rig, MENTIONS, 90_000);
    return { outcomes, rateLimitHits: rig.rateLimitHits(), editWindowMs: rig.editWindowMs };
  } finally {
    await rig.close();
  }
}

async function platformRows(context: BenchContext, platform: Platform): Promise<Row[]> {
  const ours = await burst(context, platform, 'bot');
  const naive = await burst(context, platform, 'naive');
  const notExact = (r: BurstResult) => r.outcomes.filter((o) => !o.exact).length;
  const lags = (r: BurstResult) =>
    samples(
      `${platform} burst lag`,
      r.outcomes.map((o) => o.lagMs),
    );
  const prefix = `${platform} burst ${MENTIONS} mentions/${CHANNELS} ch`;
  return [
    boundedRow(`${prefix}: 429s from the platform`, 'n', ours.rateLimitHits, naive.rateLimitHits),
    boundedRow(`${prefix}: replies not exact (visible failures)`, 'n', notExact(ours), notExact(naive), 0),
    boundedRow(
      `${prefix}: visible lag after last delta p50`,
      'ms',
      percentile(lags(ours), 50),
      percentile(lags(naive), 50),
    ),
    boundedRow(
      `${prefix}: visible lag after last delta max`,
      'ms',
      Math.max(...lags(ours)),
      Math.max(...lags(naive)),
      ours.editWindowMs,
    ),
  ];
}

export const chatBurst: Benchmark = {
  name: 'chat burst under edit limits: bot vs edit-every-delta',
  async run(context) {
    return [...(await platformRows(context, 'slack')), ...(await platformRows(context, 'discord'))];
  },
};
