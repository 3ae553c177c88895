/**
 * Child entry: uploads `count` fresh images of `mib` MiB to the Slack fake,
 * `concurrency` at a time, with nothing else in the process, and sends its
 * peak RSS growth and longest event-loop stall. `ours` is how the bot uploads (the Slack app's
 * `uploadAsOneMessage`); `uploadV2` is @slack/web-api's `files.uploadV2`, which it replaced (it copies
 * each file twice); `raw` POSTs the same bytes to the upload URL with nothing around them.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { WebClient } from '@slack/web-api';
import { uploadAsOneMessage } from '@genbot/slack-bot';
import { request } from 'undici';
import { measureBatch } from './measure.js';

export type UploadMode = 'ours' | 'uploadV2' | 'raw';

export interface UploadFloorInput {
  apiUrl: string;
  botToken: string;
  mode: UploadMode;
  count: number;
  concurrency: number;
  mib: number;
}

const input = JSON.parse(process.argv[2] ?? '{}') as UploadFloorInput;
const client = new WebClient(input.botToken, { slackApiUrl: input.apiUrl, retryConfig: { retries: 0 } });

async function upload(bytes: Buffer, filename: string): Promise<void> {
  if (input.mode === 'ours') {
    await uploadAsOneMessage(client, [{ name: filename, mimeType: 'image/png', bytes }], { channel_id: 'C1' });
    return;
  }
  if (input.mode === 'uploadV2') {
    await client.files.uploadV2({ channel_id: 'C1', file_uploads: [{ file: bytes, filename, title: filename }] });
    return;
  }
  const { upload_url: url, file_id: id } = await client.files.getUploadURLExternal({
    filename,
    length: bytes.byteLength,
  });
  if (url === undefined || id === undefined)
    throw new Error('files.getUploadURLExternal answered without an upload URL');
  const response = await request(url, { method: 'POST', body: bytes });
  await response.body.dump();
  if (response.statusCode !== 200) throw new Error(`upload URL answered ${String(response.statusCode)}`);
  await client.files.completeUploadExternal({ channel_id: 'C1', files: [{ id, title: filename }] });
}

export interface UploadFloorStats {
  peakRssGrowthMiB: number;
  maxLoopDelayMs: number;
}

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const cost = await measureBatch(input.count, input.concurrency, (index) => {
  // From the first upload on: measureBatch's own gc() before it is not the uploads' stall.
  if (index === 0) loopDelay.reset();
  // A fresh buffer per upload, as each decoded image is.
  return upload(Buffer.alloc(input.mib * 1024 * 1024, index), `image-${String(index)}.png`);
});
loopDelay.disable();
const stats: UploadFloorStats = { peakRssGrowthMiB: cost.peakRssGrowthMiB, maxLoopDelayMs: loopDelay.max / 1e6 };
process.send?.(stats, () => process.exit(0));
