import { describe, expect, it } from 'vitest';
import { MemoryVersions } from '../../testing/memory-versions.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import type { ChatDeps } from '../chat/deps.js';
import { copy } from '../copy/copy.js';
import { ASPECT_RATIOS } from '../genai/types.js';
import { ChannelBudget } from '../rendering/channel-budget.js';
import type { ChatJob } from './chat-job.js';
import { planJob } from './job-plan.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const target = { channelId: 'C1' };

function imagineJob(aspectRatio: string): ChatJob {
  return {
    id: 'job-1',
    platform: 'slack',
    channelId: 'C1',
    userId: 'U1',
    input: { kind: 'imagine', imagine: { target, prompt: 'a fox', aspectRatio, userId: 'U1' } },
  };
}

function plan(job: ChatJob, surface: RecordingSurface) {
  const stored = <T>(_what: string, call: () => Promise<T>) => call();
  return planJob(job, surface, { versions: new MemoryVersions(), stored, logger: silent });
}

function deps(surface: RecordingSurface, requests: unknown[]): ChatDeps {
  return {
    surface,
    images: {
      generateImages: async (_model, request) => {
        requests.push(request);
        return [];
      },
    },
    chat: {
      streamMessage: () => {
        throw new Error('not used');
      },
    },
    config: { imageModel: 'img', chatModel: 'chat' },
    logger: silent,
    channels: new ChannelBudget(),
  };
}

describe('planJob for an /imagine', () => {
  it('checks it once: the lineage and the model call take the same aspect ratio, as the check gave it', async () => {
    const surface = new RecordingSurface();
    const planned = await plan(imagineJob(' 16 : 9 '), surface);
    expect(planned.lineage).toMatchObject({ origin: 'generated', prompt: 'a fox', aspectRatio: '16:9' });
    const requests: unknown[] = [];
    await planned.run(deps(surface, requests), new AbortController().signal);
    expect(requests).toEqual([{ prompt: 'a fox', aspectRatio: '16:9' }]);
  });

  it('refuses one the check refuses with its answer, and no lineage', async () => {
    const surface = new RecordingSurface();
    const planned = await plan(imagineJob('7:5'), surface);
    expect(planned.lineage).toBeUndefined();
    const requests: unknown[] = [];
    expect(await planned.run(deps(surface, requests), new AbortController().signal)).toBe('rejected');
    expect([surface.texts(), requests]).toEqual([[copy.badAspectRatio('7:5', ASPECT_RATIOS)], []]);
  });
});
