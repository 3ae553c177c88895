/**
 * Issue 14: what recording a job in the store (SQLite file), queueing it and
 * running it through the job worker adds to what a user waits for: a
 * mention's first visible message (its placeholder until the text comes),
 * and an `/imagine`'s progress message and
 * images. Ours goes through the intake, the in-process queue and the worker
 * with its recorded steps; the baseline calls the same use case directly,
 * on the same surface (in memory: only genbot's own time is measured).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatDeps, handleMention, imagine } from '@genbot/core/chat';
import type { ChatSurface, MessageRef } from '@genbot/core/surface';
import { GenAiClient } from '@genbot/core/genai';
import { createLogger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import type { ChatJob } from '@genbot/core/jobs';
import { openedDatabase, openJobs } from '@genbot/cli/wiring';
import { openStore } from '@genbot/store';
import { interleavedRounds } from './rounds.js';
import { percentile } from './stats.js';
import { boundedRow, type BenchContext, type Benchmark, type Row } from './suite.js';

const ROUNDS = 4;
const PER_ROUND = 10;
/** The bound on the store's share of the wait, on SQLite. */
const TARGET_OVERHEAD_MS = 5;

/** A surface that answers at once and tells when the first post and the upload happened. */
function timedSurface(): { surface: ChatSurface; firstPost: Promise<number>; uploaded: Promise<number> } {
  let posted: (at: number) => void = () => undefined;
  let uploadedAt: (at: number) => void = () => undefined;
  const firstPost = new Promise<number>((resolve) => {
    posted = resolve;
  });
  const uploaded = new Promise<number>((resolve) => {
    uploadedAt = resolve;
  });
  let next = 1;
  const surface: ChatSurface = {
    platform: 'slack',
    limits: {
      maxMessageChars: 4000,
      minPostIntervalMs: 0,
      minEditIntervalMs: 1000,
      maxFilesPerMessage: 10,
      maxUploadBytes: 50 << 20,
    },
    post: async (target, _text): Promise<MessageRef> => {
      posted(performance.now());
      return { ...target, messageId: `m${next++}` };
    },
    edit: async () => undefined,
    uploadFiles: async () => {
      uploadedAt(performance.now());
      return { messageId: `m${next++}`, fileIds: [`F${next++}`] };
    },
    readThread: async () => [],
    download: async () => {
      throw new Error('no downloads in this benchmark');
    },
  };
  return { surface, firstPost, uploaded };
}

interface Timings {
  mentionFirstTextMs: number[];
  imagineProgressMs: number[];
  imagineImagesMs: number[];
}

export const storeOverhead: Benchmark = {
  name: 'store overhead on what users wait for (SQLite): through the job worker vs the use case called directly',
  async run(context: BenchContext): Promise<Row[]> {
    const directory = await mkdtemp(join(tmpdir(), 'genbot-bench-overhead-'));
    const store = await openStore(`sqlite:${join(directory, 'genbot.db')}`);
    const logger = createLogger({ level: 'silent' });
    const client = new GenAiClient({ baseUrl: context.emulatorUrl, apiKey: context.apiKey, logger });
    const runtime = new BotRuntime();
    const config = { imageModel: 'bench-image', chatModel: 'bench-chat' };
    const jobs = openJobs({
      database: openedDatabase(store),
      runtime,
      models: { client, ...config },
      logger,
      worker: { concurrency: { image: 8, stream: 8 } },
    });
    const { intake } = jobs.botJobs;
    const queue = jobs.inProcessQueue!;
    // Each job brings its own surface; the factory hands the current one out.
    const surfaces = new Map<string, ChatSurface>();
    await jobs.startWorker([{ platform: 'slack', surfaceFor: (job) => surfaces.get(job.id)! }]);
    let serial = 0;
    const direct = (surface: ChatSurface): ChatDeps => ({
      surface,
      images: client,
      chat: client,
      config,
      logger,
      channels: runtime.channels,
    });

    const mention = async (contender: 'ours' | 'baseline'): Promise<number> => {
      const timed = timedSurface();
      const id = `bench-ev-${serial++}`;
      // A channel per job: every post in a channel waits for its budget (about one a second), which is not what this measures.
      const channelId = `C${serial}`;
      const target = { channelId, threadId: `${id}.ts` };
      const input = {
        target,
        trigger: {
          id: `${id}.ts`,
          author: { id: 'U1', name: 'alice', isBot: false, isSelf: false },
          text: 'hello',
          attachments: [],
        },
        userId: `U${serial}`,
      };
      const started = performance.now();
      if (contender === 'baseline') {
        void handleMention(input, direct(timed.surface));
      } else {
        surfaces.set(id, timed.surface);
        const job: ChatJob = {
          id,
          platform: 'slack',
          channelId,
          threadId: target.threadId,
          userId: input.userId,
          input: { kind: 'mention', mention: input },
        };
        await intake.submit(job);
      }
      return (await timed.firstPost) - started;
    };

    const picture = async (contender: 'ours' | 'baseline'): Promise<[number, number]> => {
      const timed = timedSurface();
      const id = `bench-cmd-${serial++}`;
      const channelId = `C${serial}`;
      const input = { target: { channelId }, prompt: 'a small benchmark picture', userId: `U${serial}` };
      const started = performance.now();
      if (contender === 'baseline') {
        void imagine(input, direct(timed.surface));
      } else {
        surfaces.set(id, timed.surface);
        await intake.submit({
          id,
          platform: 'slack',
          channelId,
          userId: input.userId,
          input: { kind: 'imagine', imagine: input },
        });
      }
      return [(await timed.firstPost) - started, (await timed.uploaded) - started];
    };

    const once = async (contender: 'ours' | 'baseline'): Promise<Timings> => {
      const timings: Timings = { mentionFirstTextMs: [], imagineProgressMs: [], imagineImagesMs: [] };
      for (let index = 0; index < PER_ROUND; index++) {
        timings.mentionFirstTextMs.push(await mention(contender));
        const [progress, images] = await picture(contender);
        timings.imagineProgressMs.push(progress);
        timings.imagineImagesMs.push(images);
        await queue.idle();
      }
      return timings;
    };

    try {
      await once('ours');
      await once('baseline');
      const rounds = await interleavedRounds(ROUNDS, (contender) => once(contender));
      const p50 = (timings: Timings[], key: keyof Timings) =>
        percentile(
          timings.flatMap((timing) => timing[key]),
          50,
        );
      const rows: [string, keyof Timings][] = [
        ["mention's first visible message p50", 'mentionFirstTextMs'],
        ["/imagine's progress message p50", 'imagineProgressMs'],
        ["/imagine's images uploaded p50", 'imagineImagesMs'],
      ];
      return rows.map(([name, key]) => {
        const baseline = p50(rounds.baseline, key);
        return boundedRow(
          `store overhead, SQLite, ${ROUNDS * PER_ROUND} jobs: ${name} (target: at most ${TARGET_OVERHEAD_MS} ms more than the baseline)`,
          'ms',
          p50(rounds.ours, key),
          baseline,
          Math.round((baseline + TARGET_OVERHEAD_MS) * 10) / 10,
        );
      });
    } finally {
      await jobs.stopTaking.stop(0);
      await runtime.drain({ deadlineMs: 1_000 });
      await jobs.close.stop(0);
      await client.close();
      await rm(directory, { recursive: true, force: true });
    }
  },
};
