/**
 * Issue 30's row: a burst of 50 direct messages on Slack, 50 users each in
 * their own DM with the bot, genbot with native streaming against the Chat
 * SDK in its agent view mode, each in its own process behind the same fake
 * limits and the same emulator stream. What the users saw (the first text of
 * each reply, from the event) and what the bot process spent (CPU time, peak
 * resident memory).
 */
import { taggedPrompt } from './chat-proxy.js';
import { samples, settledReplies, type ReplyOutcome } from './chat-replies.js';
import type { PeerBotStats } from './peer-bot-process.js';
import { PEER_NAME, PEER_PLATFORM } from './peer-name.js';
import { startPeerRig, type PeerBot, type PeerRig } from './peer-rig.js';
import { percentile } from './stats.js';
import { row, type BenchContext, type Benchmark, type Row } from './suite.js';
import { warmUp } from './warm-up.js';

const DMS = 50;
/** As in peer-burst.ts: twelve deltas 100 ms apart, so appends contend for the limit. */
const DIRECTIVES = '[len:600][delay:100]';
/** Every reply text starts with this (the emulator quotes the prompt). */
const REPLY_START = 'You said';

interface DmBurstResult {
  outcomes: ReplyOutcome[];
  /** From the fake sending each DM's event to the first version of its reply carrying text, ms. */
  firstTextMs: number[];
  /** From the event to the service's first delta (the bot's intake plus the service's start), ms. */
  firstDeltaMs: number[];
  rateLimitHits: number;
  stats: PeerBotStats;
}

function firstDeltaFromEvent(rig: PeerRig, index: number): number | undefined {
  const sent = rig.sentAt(index);
  const stream = rig.proxy.streams.get(`m${String(index)}`);
  return sent === undefined || stream === undefined ? undefined : stream.firstDeltaAt - sent;
}

function firstTextFromEvent(rig: PeerRig, index: number): number | undefined {
  const sent = rig.sentAt(index);
  const first = rig.replies(index)[0]?.find((version) => version.text.startsWith(REPLY_START));
  return sent === undefined || first === undefined ? undefined : first.at - sent;
}

async function dmBurst(context: BenchContext, bot: PeerBot, streamConcurrency?: number): Promise<DmBurstResult> {
  const rig = await startPeerRig({
    ...context,
    bot,
    channels: 1,
    queueLimit: DMS,
    setting: 'dms',
    ...(streamConcurrency !== undefined && { streamConcurrency }),
  });
  try {
    rig.enforceEditLimits();
    // One DM answered first, from a user of its own: the burst measures a warm process, not its start-up.
    await warmUp(rig);
    await Promise.all(Array.from({ length: DMS }, (_, index) => rig.mention(index, taggedPrompt(index, DIRECTIVES))));
    const outcomes = await settledReplies(rig, DMS, 90_000);
    const stats = await rig.stopBot();
    const firstTextMs = samples(
      `${bot} DM first text`,
      Array.from({ length: DMS }, (_, index) => firstTextFromEvent(rig, index)),
    );
    const firstDeltaMs = samples(
      `${bot} DM first delta`,
      Array.from({ length: DMS }, (_, index) => firstDeltaFromEvent(rig, index)),
    );
    return { outcomes, firstTextMs, firstDeltaMs, rateLimitHits: rig.rateLimitHits(), stats };
  } finally {
    await rig.close();
  }
}

const firstTextAfterDelta = (r: DmBurstResult) =>
  samples(
    'DM first text after the first delta',
    r.outcomes.map((o) => o.firstTextMs),
  );
const notExact = (r: DmBurstResult) => r.outcomes.filter((o) => !o.exact).length;

/**
 * genbot as it ships runs 16 chat jobs at once over 16 connections to the
 * service and queues the rest, so in a burst of 50 the later DMs wait for a
 * slot (three waves behind the first); the peer starts every one at once. The
 * second variant lifts both caps to the burst's size, which shows the per-DM
 * cost apart from that queue.
 */
const VARIANTS: ReadonlyArray<{ label: string; streamConcurrency?: number }> = [
  { label: 'genbot (native streaming)' },
  { label: `genbot (native streaming, ${DMS} chat jobs at once)`, streamConcurrency: DMS },
];

function dmRows(label: string, ours: DmBurstResult, peer: DmBurstResult): Row[] {
  const prefix = `${label} vs ${PEER_NAME} (agent view): ${PEER_PLATFORM} burst ${DMS} DMs`;
  const both = (what: string, unit: string, of: (r: DmBurstResult) => number): Row =>
    row(`${prefix}: ${what}`, unit, of(ours), of(peer));
  return [
    both('first text from the event p50', 'ms', (r) => percentile(r.firstTextMs, 50)),
    both('first text from the event p99', 'ms', (r) => percentile(r.firstTextMs, 99)),
    both('first delta from the event p50', 'ms', (r) => percentile(r.firstDeltaMs, 50)),
    both('first text after the first delta p50', 'ms', (r) => percentile(firstTextAfterDelta(r), 50)),
    both('429s from the platform', 'n', (r) => r.rateLimitHits),
    both('replies not exact', 'n', notExact),
    both('bot process CPU time', 'ms', (r) => r.stats.cpuMs),
    both('bot process peak RSS', 'MiB', (r) => r.stats.peakRssMiB),
    both('bot process peak RSS growth', 'MiB', (r) => r.stats.peakRssGrowthMiB),
  ];
}

export const peerDmBurst: Benchmark = {
  name: `peer dm burst: genbot (native streaming) vs ${PEER_NAME} (agent view), ${DMS} DMs (${PEER_PLATFORM})`,
  async run(context) {
    const peer = await dmBurst(context, 'chat-sdk');
    const rows: Row[] = [];
    for (const { label, streamConcurrency } of VARIANTS) {
      rows.push(...dmRows(label, await dmBurst(context, 'genbot-native', streamConcurrency), peer));
    }
    return rows;
  },
};
