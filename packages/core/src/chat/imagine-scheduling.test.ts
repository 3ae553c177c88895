import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GeneratedImage } from '../genai/types.js';
import { tinyPng } from '../../testing/fixtures.js';
import { CancellationRegistry } from '../scheduling/cancellation-registry.js';
import { JobScheduler } from '../scheduling/job-scheduler.js';
import type { ChatDeps } from './deps.js';
import { imagine } from './imagine.js';
import type { ChatModel, ImageModel } from '../surface/ports.js';
import type { ChatTarget, MessageRef } from '../surface/surface.js';
import { RecordingSurface, type RecordingSurfaceOptions } from '../../testing/recording-surface.js';
import { ChannelBudget } from '../rendering/channel-budget.js';

/** Keeps every text each message showed, in order, with the fake time it appeared. */
class HistorySurface extends RecordingSurface {
  readonly shown: Array<{ id: string; text: string; at: number }> = [];

  constructor(options: RecordingSurfaceOptions = {}) {
    // New messages unpaced: these tests are about the line; the channel's pacing has tests of its own.
    super({ ...options, limits: { minPostIntervalMs: 0, ...options.limits } });
  }

  override async post(target: ChatTarget, text: string): Promise<MessageRef> {
    const ref = await super.post(target, text);
    this.shown.push({ id: ref.messageId, text, at: Date.now() });
    return ref;
  }

  override async edit(message: MessageRef, text: string): Promise<void> {
    await super.edit(message, text);
    this.shown.push({ id: message.messageId, text, at: Date.now() });
  }

  history(id: string): string[] {
    return this.shown.filter((entry) => entry.id === id).map((entry) => entry.text);
  }

  times(id: string): number[] {
    return this.shown.filter((entry) => entry.id === id).map((entry) => entry.at);
  }
}

/** An image model whose calls end when the test says, or when their signal aborts. */
class HeldImages implements ImageModel {
  readonly calls: string[] = [];
  readonly #release = new Map<string, () => void>();

  generateImages(
    _model: string,
    input: { prompt: string },
    options?: { signal?: AbortSignal },
  ): Promise<GeneratedImage[]> {
    this.calls.push(input.prompt);
    return new Promise((resolve, reject) => {
      const image: GeneratedImage = { mimeType: 'image/png', extension: 'png', bytes: tinyPng() };
      this.#release.set(input.prompt, () => resolve([image]));
      options?.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
    });
  }

  release(prompt: string): void {
    this.#release.get(prompt)?.();
  }
}

const unusedChat: ChatModel = {
  streamMessage: () => {
    throw new Error('no conversation in these tests');
  },
};

const channel = { channelId: 'C1' };

function depsWith(surface: RecordingSurface, images: ImageModel, scheduler: JobScheduler): ChatDeps {
  return {
    surface,
    images,
    chat: unusedChat,
    config: { imageModel: 'image-model-test', chatModel: 'chat-model-test' },
    logger: pino({ level: 'silent' }),
    channels: new ChannelBudget(),
    scheduler,
  };
}

/** Runs pending promise chains and due fake timers. */
const settle = (ms = 0): Promise<void> => vi.advanceTimersByTimeAsync(ms).then(() => undefined);

describe('imagine under the job scheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a waiting request its place in line, moves it up, then back to "Generating…", edits spaced in the channel', async () => {
    const surface = new HistorySurface({ limits: { minEditIntervalMs: 1_000 } });
    const model = new HeldImages();
    const deps = depsWith(surface, model, new JobScheduler({ image: { concurrency: 1 } }));
    const outcomes = Promise.all(
      (['first', 'second', 'third'] as const).map((prompt, i) =>
        imagine({ target: channel, prompt, userId: `U${i}` }, deps),
      ),
    );
    await settle();
    expect(surface.texts()).toEqual([
      '🎨 Generating “first”…',
      '⏳ “second” is next in line.',
      '⏳ “third” is #2 in line.',
    ]);
    expect(model.calls).toEqual(['first']);

    await settle(100);
    model.release('first');
    await settle();
    // The second starts at once; the channel's edits follow one an interval, running jobs' words first.
    expect(model.calls).toEqual(['first', 'second']);
    await settle(2_000);
    expect(surface.history('m1')).toEqual(['🎨 Generating “first”…', '🎨 Done: 1 image for “first”.']);
    expect(surface.history('m2')).toEqual(['⏳ “second” is next in line.', '🎨 Generating “second”…']);
    expect(surface.history('m3')).toEqual(['⏳ “third” is #2 in line.', '⏳ “third” is next in line.']);
    const movedUp = surface.shown.findIndex((entry) => entry.text === '⏳ “third” is next in line.');
    expect(surface.shown.slice(movedUp).map((entry) => entry.id)).toEqual(['m3']);

    model.release('second');
    await settle(1_000);
    expect(model.calls).toEqual(['first', 'second', 'third']);
    await settle(1_000);
    model.release('third');
    await settle(3_000);
    expect(await outcomes).toEqual(['done', 'done', 'done']);

    expect(surface.history('m3')).toEqual([
      '⏳ “third” is #2 in line.',
      '⏳ “third” is next in line.',
      '🎨 Generating “third”…',
      '🎨 Done: 1 image for “third”.',
    ]);
    const edits = surface.shown.filter((entry, index) => surface.shown.findIndex((e) => e.id === entry.id) !== index);
    for (let i = 1; i < edits.length; i++)
      expect((edits[i]?.at ?? 0) - (edits[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(1_000);
    expect(surface.uploads).toHaveLength(3);
  });

  it('coalesces moves that come while an edit waits: only the latest place is shown', async () => {
    const surface = new HistorySurface({ limits: { minEditIntervalMs: 1_000 } });
    const model = new HeldImages();
    const deps = depsWith(surface, model, new JobScheduler({ image: { concurrency: 1 } }));
    const prompts = ['a', 'b', 'c', 'd'];
    const outcomes = Promise.all(
      prompts.map((prompt, i) => imagine({ target: channel, prompt, userId: `U${i}` }, deps)),
    );
    await settle();
    model.release('a');
    await settle();
    model.release('b');
    await settle(4_000);
    expect(surface.history('m4')).toEqual(['⏳ “d” is #3 in line.', '⏳ “d” is next in line.']);
    model.release('c');
    await settle(3_000);
    model.release('d');
    await settle(3_000);
    expect(await outcomes).toEqual(['done', 'done', 'done', 'done']);
  });

  it('refuses a user over their share with when to try again, sending nothing to the model', async () => {
    const surface = new HistorySurface();
    const model = new HeldImages();
    const deps = depsWith(surface, model, new JobScheduler({ image: { perUser: 1, typicalDurationMs: 30_000 } }));
    const running = imagine({ target: channel, prompt: 'a fox', userId: 'U1' }, deps);
    await settle();
    expect(await imagine({ target: channel, prompt: 'a hen', userId: 'U1' }, deps)).toBe('rejected');
    expect(surface.texts()).toEqual([
      '🎨 Generating “a fox”…',
      '⏳ You already have requests on the way. Try again in about 30 seconds.',
    ]);
    expect(model.calls).toEqual(['a fox']);
    model.release('a fox');
    await settle();
    expect(await running).toBe('done');
  });

  it('turns away new work politely when the line is full', async () => {
    const surface = new HistorySurface();
    const model = new HeldImages();
    const deps = depsWith(surface, model, new JobScheduler({ image: { concurrency: 1, queueLimit: 0 } }));
    const running = imagine({ target: channel, prompt: 'a fox', userId: 'U1' }, deps);
    await settle();
    expect(await imagine({ target: channel, prompt: 'a hen', userId: 'U2' }, deps)).toBe('rejected');
    expect(surface.texts()[1]).toBe("⏳ I'm very busy right now. Try again in about 20 seconds.");
    model.release('a fox');
    await settle();
    await running;
  });

  it('runs at once, unscheduled, when the input carries no user', async () => {
    const surface = new HistorySurface();
    const model = new HeldImages();
    const scheduler = new JobScheduler({ image: { concurrency: 1 } });
    const deps = depsWith(surface, model, scheduler);
    const outcomes = Promise.all([
      imagine({ target: channel, prompt: 'one' }, deps),
      imagine({ target: channel, prompt: 'two' }, deps),
    ]);
    await settle();
    expect(model.calls).toEqual(['one', 'two']);
    expect(scheduler.stats().image).toEqual({ running: 0, queued: 0 });
    model.release('one');
    model.release('two');
    await settle(1_000);
    expect(await outcomes).toEqual(['done', 'done']);
  });

  it('a deleted trigger stops the request, waiting or running: the model call ends and the message says so', async () => {
    const surface = new HistorySurface({ limits: { minEditIntervalMs: 1_000 } });
    const model = new HeldImages();
    const deps = depsWith(surface, model, new JobScheduler({ image: { concurrency: 1 } }));
    const registry = new CancellationRegistry();
    const run = (key: string, prompt: string, userId: string): Promise<string> =>
      registry.run(key, (signal) => imagine({ target: channel, prompt, userId }, deps, signal));
    const running = run('slack:C1:1.1', 'running', 'U1');
    const waiting = run('slack:C1:1.2', 'waiting', 'U2');
    await settle();
    expect(surface.texts()).toEqual(['🎨 Generating “running”…', '⏳ “waiting” is next in line.']);

    registry.cancel('slack:C1:1.2');
    registry.cancel('slack:C1:1.1');
    await settle(1_000);
    expect(await Promise.all([running, waiting])).toEqual(['failed', 'failed']);
    expect(model.calls).toEqual(['running']);
    expect(surface.texts()).toEqual(['_Cancelled._', '_Cancelled._']);
    expect(surface.uploads).toHaveLength(0);
    expect(registry.size).toBe(0);
  });

  it('a restart keeps what was asked: the waiting request is turned away, the running one aborted, both say so', async () => {
    const surface = new HistorySurface({ limits: { minEditIntervalMs: 1_000 } });
    const model = new HeldImages();
    const scheduler = new JobScheduler({ image: { concurrency: 1 } });
    const deps = depsWith(surface, model, scheduler);
    const shutdown = new AbortController();
    const running = imagine({ target: channel, prompt: 'a lighthouse', userId: 'U1' }, deps, shutdown.signal);
    const waiting = imagine({ target: channel, prompt: 'a harbour', userId: 'U2' }, deps, shutdown.signal);
    await settle();
    expect(surface.texts()).toEqual(['🎨 Generating “a lighthouse”…', '⏳ “a harbour” is next in line.']);

    // Admission closes first; the drain runs out later.
    scheduler.close();
    await settle(1_000);
    expect(await waiting).toBe('rejected');
    shutdown.abort(new Error('shutting down'));
    await settle(1_000);
    expect(await running).toBe('failed');
    expect(model.calls).toEqual(['a lighthouse']);
    expect(surface.texts()).toEqual([
      "🔄 I'm restarting. “a lighthouse” will continue after the restart.",
      "🔄 I'm restarting. “a harbour” will continue after the restart.",
    ]);
    expect(surface.uploads).toHaveLength(0);
  });
});
