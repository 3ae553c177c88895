/**
 * Issue 18, first row: the first visible text after the service's first delta
 * on Slack, genbot's bot against the Chat SDK peer, each in its own process
 * behind the same fake and the same emulator stream. Mentions arrive spread
 * out after a warm-up, as in chat-latency.ts.
 */
import { taggedPrompt } from './chat-proxy.js';
import { samples, settledReplies } from './chat-replies.js';
import { PEER_NAME, PEER_PLATFORM } from './peer-name.js';
import { GENBOT_VARIANTS, startPeerRig, type PeerBot } from './peer-rig.js';
import { sendSpacedMentions } from './spaced-mentions.js';
import { warmUp } from './warm-up.js';
import { percentile } from './stats.js';
import { row, type BenchContext, type Benchmark, type Row } from './suite.js';

const MENTIONS = 50;
const CHANNELS = 10;
/** As in chat-latency.ts: a channel hears a mention every 1.1 s. */
const SPACING_MS = 110;
/** Three deltas 200 ms apart, as in chat-latency.ts. */
const DIRECTIVES = '[len:150][delay:200]';

async function firstTextLatencies(context: BenchContext, bot: PeerBot): Promise<number[]> {
  const rig = await startPeerRig({ ...context, bot, channels: CHANNELS, queueLimit: MENTIONS });
  try {
    rig.enforceEditLimits();
    await warmUp(rig);
    await sendSpacedMentions(MENTIONS, SPACING_MS, (index) => rig.mention(index, taggedPrompt(index, DIRECTIVES)));
    const outcomes = await settledReplies(rig, MENTIONS, 20_000);
    await rig.stopBot();
    return samples(
      `${bot} first text`,
      outcomes.map((o) => o.firstTextMs),
    );
  } finally {
    await rig.close();
  }
}

export const peerLatency: Benchmark = {
  name: `peer latency: genbot vs ${PEER_NAME}, first visible text (${PEER_PLATFORM})`,
  async run(context) {
    const peer = await firstTextLatencies(context, 'chat-sdk');
    const rows: Row[] = [];
    for (const { bot, label } of GENBOT_VARIANTS) {
      const ours = await firstTextLatencies(context, bot);
      const prefix = `${label} vs ${PEER_NAME}: ${PEER_PLATFORM} ${MENTIONS} mentions: first text after first delta`;
      rows.push(
        row(`${prefix} p50`, 'ms', percentile(ours, 50), percentile(peer, 50)),
        row(`${prefix} p99`, 'ms', percentile(ours, 99), percentile(peer, 99)),
      );
    }
    return rows;
  },
};
