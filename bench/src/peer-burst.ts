/**
 * Issue 18, burst rows: 100 mentions over 20 channels on Slack with the fake
 * enforcing its edit limit, genbot's bot against the Chat SDK peer. What the
 * users saw (429s met, replies not ending exactly as streamed, how long after
 * the last delta the whole text showed) and what the bot process spent on
 * the 100 concurrent streams (CPU time, peak resident memory).
 */
import { taggedPrompt } from './chat-proxy.js';
import { samples, settledReplies, type ReplyOutcome } from './chat-replies.js';
import type { PeerBotStats } from './peer-bot-process.js';
import { PEER_NAME, PEER_PLATFORM } from './peer-name.js';
import { GENBOT_VARIANTS, startPeerRig, type PeerBot } from './peer-rig.js';
import { percentile } from './stats.js';
import { row, type BenchContext, type Benchmark, type Row } from './suite.js';

const MENTIONS = 100;
const CHANNELS = 20;
/** As in chat-burst.ts: twelve deltas 100 ms apart, so edits contend for the limit. */
const DIRECTIVES = '[len:600][delay:100]';

interface BurstResult {
  outcomes: ReplyOutcome[];
  rateLimitHits: number;
  stats: PeerBotStats;
}

async function burst(context: BenchContext, bot: PeerBot): Promise<BurstResult> {
  const rig = await startPeerRig({ ...context, bot, channels: CHANNELS, queueLimit: MENTIONS });
  try {
    rig.enforceEditLimits();
    await Promise.all(
      Array.from({ length: MENTIONS }, (_, index) => rig.mention(index, taggedPrompt(index, DIRECTIVES))),
    );
    const outcomes = await settledReplies(rig, MENTIONS, 90_000);
    const stats = await rig.stopBot();
    return { outcomes, rateLimitHits: rig.rateLimitHits(), stats };
  } finally {
    await rig.close();
  }
}

const notExact = (r: BurstResult) => r.outcomes.filter((o) => !o.exact).length;
const lags = (r: BurstResult, who: string) =>
  samples(
    `${who} burst lag`,
    r.outcomes.map((o) => o.lagMs),
  );

function burstRows(label: string, ours: BurstResult, peer: BurstResult): Row[] {
  const prefix = `${label} vs ${PEER_NAME}: ${PEER_PLATFORM} burst ${MENTIONS} mentions/${CHANNELS} ch`;
  return [
    row(`${prefix}: 429s from the platform`, 'n', ours.rateLimitHits, peer.rateLimitHits),
    row(`${prefix}: replies not exact`, 'n', notExact(ours), notExact(peer)),
    row(
      `${prefix}: visible lag after last delta p50`,
      'ms',
      percentile(lags(ours, label), 50),
      percentile(lags(peer, PEER_NAME), 50),
    ),
    row(
      `${prefix}: visible lag after last delta max`,
      'ms',
      Math.max(...lags(ours, label)),
      Math.max(...lags(peer, PEER_NAME)),
    ),
    row(`${prefix}: bot process CPU time`, 'ms', ours.stats.cpuMs, peer.stats.cpuMs),
    row(`${prefix}: bot process peak RSS`, 'MiB', ours.stats.peakRssMiB, peer.stats.peakRssMiB),
    row(`${prefix}: bot process peak RSS growth`, 'MiB', ours.stats.peakRssGrowthMiB, peer.stats.peakRssGrowthMiB),
  ];
}

export const peerBurst: Benchmark = {
  name: `peer burst: genbot vs ${PEER_NAME}, ${MENTIONS} mentions (${PEER_PLATFORM})`,
  async run(context) {
    const peer = await burst(context, 'chat-sdk');
    const rows: Row[] = [];
    for (const { bot, label } of GENBOT_VARIANTS) rows.push(...burstRows(label, await burst(context, bot), peer));
    return rows;
  },
};
