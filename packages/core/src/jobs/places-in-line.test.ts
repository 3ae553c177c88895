import { describe, expect, it } from 'vitest';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { ChannelBudget } from '../rendering/channel-budget.js';
import { copy } from '../copy/copy.js';
import type { MessageRef } from '../surface/surface.js';
import type { NewJobStep } from '../store/index.js';
import type { ChatJob } from './chat-job.js';
import { PlacesInLine, takeBackFirstPost } from './places-in-line.js';
import { eventually } from '@genbot/test-servers';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** A platform without private messages whose posts can be deleted (Discord's channel messages). */
class DeletingSurface extends RecordingSurface {
  readonly deleted: string[] = [];
  async delete(message: MessageRef): Promise<void> {
    this.deleted.push(message.messageId);
  }
}

function mention(id: string): ChatJob {
  const target = { channelId: 'C1', threadId: `${id}-ts` };
  return {
    id,
    platform: 'discord',
    channelId: 'C1',
    threadId: target.threadId,
    userId: 'U1',
    input: {
      kind: 'mention',
      mention: {
        target,
        trigger: {
          id: `${id}-ts`,
          author: { id: 'U1', name: 'ada', isBot: false, isSelf: false },
          text: 'hi',
          attachments: [],
        },
        userId: 'U1',
      },
    },
  };
}

function places(surface: RecordingSurface, claimed: Set<string>) {
  const steps: { id: string; step: NewJobStep }[] = [];
  const shown = new PlacesInLine({
    surfaces: [{ platform: 'discord', surfaceFor: () => surface }],
    channels: new ChannelBudget(),
    jobs: {
      // As the store does with `onlyQueued`: a claimed job takes no step.
      recordStep: async (id, step, options) => {
        if (options?.onlyQueued === true && claimed.has(id)) return false;
        steps.push({ id, step });
        return true;
      },
    },
    logger: silent,
  });
  return { shown, steps };
}

describe('places in line shown from ingress', () => {
  it('posts the place as the job’s first message and records it, so the worker edits it', async () => {
    const surface = new DeletingSurface();
    const { shown, steps } = places(surface, new Set());
    shown.show(mention('dc-msg-1'), 3);
    await eventually(() => steps.length > 0);
    expect(surface.texts()).toEqual([copy.chatQueued(3)]);
    expect(steps).toEqual([{ id: 'dc-msg-1', step: { name: 'posted', index: 0, messageId: 'm1' } }]);
    expect(surface.deleted).toEqual([]);
  });

  it('takes the place back when a worker claimed the job while it was posted: the worker shows its own', async () => {
    const surface = new DeletingSurface();
    const { shown, steps } = places(surface, new Set(['dc-msg-2']));
    shown.show(mention('dc-msg-2'), 1);
    await eventually(() => surface.deleted.length > 0);
    expect(surface.deleted).toEqual(['m1']);
    expect(steps).toEqual([]);
  });

  it('tells the user alone where the platform allows, and records nothing', async () => {
    const surface = new RecordingSurface({ private: true });
    const { shown, steps } = places(surface, new Set());
    shown.show(mention('dc-msg-3'), 2);
    await eventually(() => surface.privates.length > 0);
    expect(surface.privates.map((note) => [note.userId, note.target, note.text])).toEqual([
      ['U1', { channelId: 'C1', threadId: 'dc-msg-3-ts' }, copy.chatQueued(2)],
    ]);
    expect(surface.texts()).toEqual([]);
    expect(steps).toEqual([]);
  });
});

describe('taking back the place of a job whose trigger was deleted', () => {
  const posted = (messageId: string) => ({ steps: [{ name: 'posted', index: 0, messageId, at: new Date() }] });

  it('deletes it where the platform can', async () => {
    const surface = new DeletingSurface();
    const job = mention('dc-msg-4');
    const place = await surface.post({ channelId: 'C1', threadId: 'dc-msg-4-ts' }, copy.chatQueued(1));
    await takeBackFirstPost({ surface, channels: new ChannelBudget(), logger: silent }, job, posted(place.messageId));
    expect(surface.deleted).toEqual([place.messageId]);
  });

  it('otherwise edits it to say the request was cancelled', async () => {
    const surface = new RecordingSurface();
    const job = mention('dc-msg-5');
    const place = await surface.post({ channelId: 'C1', threadId: 'dc-msg-5-ts' }, copy.chatQueued(2));
    await takeBackFirstPost({ surface, channels: new ChannelBudget(), logger: silent }, job, posted(place.messageId));
    expect(surface.texts()).toEqual([copy.cancelled]);
  });

  it('leaves nothing to do for a job that posted nothing', async () => {
    const surface = new RecordingSurface();
    await takeBackFirstPost({ surface, channels: new ChannelBudget(), logger: silent }, mention('dc-msg-6'), {
      steps: [],
    });
    expect(surface.texts()).toEqual([]);
  });
});
