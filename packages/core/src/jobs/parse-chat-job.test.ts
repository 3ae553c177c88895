import { describe, expect, it } from 'vitest';
import type { ThreadMessage } from '../surface/surface.js';
import type { JobRecord } from '../store/index.js';
import type { ChatJob } from './chat-job.js';
import { parseChatJob, toNewJob, UnreadableJobError } from './parse-chat-job.js';

function said(id: string, text: string): ThreadMessage {
  return { id, author: { id: 'U1', name: 'ada', isBot: false, isSelf: false }, text, attachments: [] };
}

function mention(history: readonly ThreadMessage[] | undefined): ChatJob {
  const trigger = said('m2', 'how tall was it?');
  const target = { channelId: 'C1', threadId: 'm2' };
  return {
    id: 'dc-msg-m2',
    platform: 'discord',
    channelId: 'C1',
    threadId: 'm2',
    userId: 'U1',
    input: {
      kind: 'mention',
      mention: { target, trigger, ...(history === undefined ? {} : { history }), userId: 'U1' },
    },
  };
}

/** As the store gives it back. */
function stored(job: ChatJob): JobRecord {
  const now = new Date();
  return { ...toNewJob(job), state: 'queued', attempts: 0, steps: [], createdAt: now, updatedAt: now };
}

describe('a mention job with the conversation ingress saw whole', () => {
  it('keeps that conversation through the store, so a worker need not read it again', () => {
    const history = [said('m1', 'The lighthouse of Alexandria.'), said('m2', 'how tall was it?')];
    const job = parseChatJob(stored(mention(history)));
    expect(job.input.kind === 'mention' && job.input.mention.history).toEqual(history);
  });

  it('leaves a worker to read the thread when the job carries none', () => {
    const job = parseChatJob(stored(mention(undefined)));
    expect(job.input.kind === 'mention' && job.input.mention.history).toBeUndefined();
  });

  it('refuses a carried conversation longer than a mention and what it replies to', () => {
    const record = stored(mention([said('m0', 'a'), said('m1', 'b')]));
    const input = record.input as { mention: { history: unknown[] } };
    input.mention.history.push(said('m2', 'c'));
    expect(() => parseChatJob(record)).toThrow(UnreadableJobError);
  });
});

describe('a press that showed the images of its message', () => {
  it('keeps them through the store, so a worker elsewhere reads the version from them', () => {
    const shown = [{ id: '{"url":"https://cdn.example/a.png"}', name: 'a.png', mimeType: 'image/png', size: 10 }];
    const press: ChatJob = {
      id: 'dc-int-1',
      platform: 'discord',
      channelId: 'C1',
      userId: 'U1',
      input: {
        kind: 'vary',
        action: { target: { channelId: 'C1' }, version: { jobId: 'dc-int-0', index: 0 }, userId: 'U1', shown },
      },
    };
    const job = parseChatJob(stored(press));
    expect(job.input.kind === 'vary' && job.input.action.shown).toEqual(shown);
  });
});

describe('the settings a job was accepted under', () => {
  const settings = { chatModel: 'chat-b', imageModel: 'img-b', aspectRatio: '16:9' as const, images: 2 };

  it('travel with the job through the store', () => {
    const job = { ...mention(undefined), settings: { ...settings, systemPrompt: 'Be brief.', budgetImagesPerDay: 5 } };
    expect(parseChatJob(stored(job))).toEqual(job);
  });

  it('are absent from a job recorded before them: the worker runs it on the defaults', () => {
    expect(parseChatJob(stored(mention(undefined))).settings).toBeUndefined();
  });

  it('make a job unreadable when they do not fit', () => {
    const record = stored({ ...mention(undefined), settings });
    (record.input as { settings: { images: number } }).settings.images = 9;
    expect(() => parseChatJob(record)).toThrow(UnreadableJobError);
  });
});
