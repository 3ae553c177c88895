/**
 * The floor under the /imagine memory row: the same number of fresh 4 MiB
 * images, uploaded to the Slack fake at the bot's image concurrency by a
 * process that does nothing else. Ours is the Slack app's upload, which the
 * bot uses (an upload URL per file, the bytes as they are, one completion);
 * the baseline POSTs the bytes with nothing around them. Whatever the bot does
 * beyond uploading comes on top of ours.
 */
import { startSlackFake } from '@genbot/fakes';
import { forkBenchChild } from './child-process.js';
import type { UploadFloorInput, UploadFloorStats, UploadMode } from './upload-floor-child.js';
import { boundedRow, type Benchmark } from './suite.js';

const COUNT = 50;
/** The default image concurrency of the bot's scheduler. */
const CONCURRENCY = 4;
const MIB_PER_IMAGE = 4;

async function uploadAlone(mode: UploadMode): Promise<UploadFloorStats> {
  const slack = await startSlackFake();
  try {
    const input: UploadFloorInput = {
      apiUrl: slack.apiUrl,
      botToken: slack.identity.botToken,
      mode,
      count: COUNT,
      concurrency: CONCURRENCY,
      mib: MIB_PER_IMAGE,
    };
    const child = forkBenchChild(
      new URL('./upload-floor-child.ts', import.meta.url),
      [JSON.stringify(input)],
      ['--expose-gc'],
    );
    return (await child.message) as UploadFloorStats;
  } finally {
    await slack.close();
  }
}

export const uploadFloor: Benchmark = {
  name: `slack upload alone ${COUNT}x ${MIB_PER_IMAGE} MiB: the bot's upload vs raw POST`,
  async run() {
    const ours = await uploadAlone('ours');
    const raw = await uploadAlone('raw');
    const perByte = (stats: UploadFloorStats) => stats.peakRssGrowthMiB / (CONCURRENCY * MIB_PER_IMAGE);
    const prefix = `slack upload alone ${COUNT}x ${MIB_PER_IMAGE} MiB, ${CONCURRENCY} at a time`;
    return [
      boundedRow(`${prefix}: RSS growth / bytes in flight`, 'x', perByte(ours), perByte(raw)),
      boundedRow(`${prefix}: max event-loop delay`, 'ms', ours.maxLoopDelayMs, raw.maxLoopDelayMs),
    ];
  },
};
