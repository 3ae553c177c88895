import { describe, expect, it } from 'vitest';
import { tinyPng } from '../../testing/fixtures.js';
import { MemoryVersions, version } from '../../testing/memory-versions.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { ChannelBudget } from '../rendering/channel-budget.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps } from '../chat/deps.js';
import type { ImageModel } from '../surface/ports.js';
import type { GeneratedImage } from '../genai/types.js';
import { resolveResultAction } from './resolve-action.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const target = { channelId: 'C1', threadId: 'T-result' };

type ImageRequest = Parameters<ImageModel['generateImages']>[1];

function model(count: number): ImageModel & { requests: ImageRequest[] } {
  const requests: ImageRequest[] = [];
  return {
    requests,
    async generateImages(_name, request): Promise<GeneratedImage[]> {
      requests.push(request);
      return Array.from({ length: count }, () => ({ mimeType: 'image/png', extension: 'png', bytes: tinyPng() }));
    },
  };
}

/** A job's images numbered by the store as they are recorded: `numbers`, as a worker would give them. */
function deps(surface: RecordingSurface, images: ImageModel, numbers: readonly number[]): ChatDeps {
  const chat = {
    streamMessage: () => {
      throw new Error('not used');
    },
  };
  return {
    surface,
    images,
    chat,
    config: { imageModel: 'img', chatModel: 'chat' },
    logger: silent,
    channels: new ChannelBudget(),
    numberImages: async (batch) => numbers.slice(0, batch.length),
  };
}

/** v1 generated (16:9), v2 an edit of it ("make it blue"), v3 a variation of v2, v2 shown again by an undo of v3: numbered by the store. */
async function tree(): Promise<MemoryVersions> {
  const versions = new MemoryVersions();
  await versions.record(version('gen', 0, { aspectRatio: '16:9' }));
  await versions.record(
    version('edit', 0, { parent: { jobId: 'gen', index: 0 }, origin: 'edited', prompt: 'make it blue' }),
  );
  await versions.record(
    version('vary', 0, {
      parent: { jobId: 'edit', index: 0 },
      origin: 'varied',
      prompt: copy.variationInstruction,
    }),
  );
  await versions.record(
    version('undo', 0, { parent: { jobId: 'edit', index: 0 }, origin: 'restored', prompt: 'make it blue' }),
  );
  return versions;
}

const files = {
  'posted:F-gen-0': tinyPng(),
  'posted:F-edit-0': tinyPng(),
  'posted:F-vary-0': tinyPng(),
  'posted:F-undo-0': tinyPng(),
};

async function run(
  kind: 'reroll' | 'vary' | 'edit' | 'undo',
  jobId: string,
  instruction?: string,
  numbers: readonly number[] = [4],
) {
  const versions = await tree();
  const surface = new RecordingSurface({ files });
  const images = model(numbers.length);
  const resolved = await resolveResultAction(
    kind,
    { target, version: { jobId, index: 0 }, userId: 'U2', ...(instruction === undefined ? {} : { instruction }) },
    versions,
    surface,
  );
  if (!resolved.ok) return { resolved, surface, images };
  const outcome = await resolved.run(deps(surface, images, numbers));
  return { resolved, outcome, surface, images };
}

describe('resolveResultAction', () => {
  it('re-rolls a generated image: the same prompt and aspect ratio, a new v1', async () => {
    const { resolved, outcome, surface, images } = await run('reroll', 'gen');
    expect(outcome).toBe('done');
    expect(resolved.ok && resolved.lineage).toMatchObject({ origin: 'generated', undo: false });
    // A seed of its own, so a service that answers a request the same way every time draws another picture.
    expect(images.requests).toEqual([
      { prompt: 'a lighthouse at dawn', aspectRatio: '16:9', seed: expect.any(Number) },
    ]);
    const again = await run('reroll', 'gen');
    expect(again.images.requests[0]?.seed).not.toBe(images.requests[0]?.seed);
    expect(surface.uploads[0]?.comment).toBe('🎲 “a lighthouse at dawn” · re-roll');
    expect(surface.uploads[0]?.target).toEqual(target);
  });

  it('re-rolls an edit: the same edit of the same source', async () => {
    const { resolved, outcome, surface, images } = await run('reroll', 'edit');
    expect(outcome).toBe('done');
    expect(resolved.ok && resolved.lineage).toMatchObject({
      origin: 'edited',
      parent: { jobId: 'gen', index: 0 },
      undo: true,
    });
    expect(surface.downloads).toEqual(['posted:F-gen-0']);
    expect(images.requests[0]?.prompt).toBe('make it blue');
    expect(images.requests[0]?.seed).toEqual(expect.any(Number));
    // The store numbers the new version as it is recorded; the result's text names it.
    expect(surface.uploads.map((upload) => upload.comment)).toEqual(['🖌️ v4 · from v1 · “make it blue”']);
  });

  it('varies the pressed version with the variation instruction, naming the numbers it gets', async () => {
    const { resolved, outcome, surface, images } = await run('vary', 'edit');
    expect(outcome).toBe('done');
    expect(resolved.ok && resolved.lineage).toMatchObject({
      origin: 'varied',
      prompt: copy.variationInstruction,
    });
    expect(surface.downloads).toEqual(['posted:F-edit-0']);
    expect(images.requests[0]?.prompt).toBe(copy.variationInstruction);
    expect(surface.uploads.map((upload) => upload.comment)).toEqual(['🔀 v4 · from v2 · variation']);
    expect(surface.texts()).toEqual(['🔀 Done: 1 variation of v2.']);
    // Named after what the tree began with and the version varied, not the instruction sent for it.
    expect(surface.uploads[0]?.files[0]?.name).toMatch(/^a-lighthouse-at-dawn-v2-variation-1-[0-9a-f]{6}\.png$/);
    const two = await run('vary', 'edit', undefined, [4, 5]);
    expect(two.surface.uploads.map((upload) => upload.comment)).toEqual(['🔀 v4, v5 · from v2 · variation']);
    expect(images.requests[0]?.seed).toEqual(expect.any(Number));
    expect(two.images.requests[0]?.seed).not.toBe(images.requests[0]?.seed);
  });

  it('edits the pressed version with the form’s instruction, showing the lineage', async () => {
    const { resolved, outcome, surface } = await run('edit', 'vary', 'make it red');
    expect(outcome).toBe('done');
    expect(surface.uploads[0]?.files[0]?.name).toMatch(/^a-lighthouse-at-dawn-v3-make-it-red-1-[0-9a-f]{6}\.png$/);
    expect(resolved.ok && resolved.lineage).toMatchObject({ origin: 'edited', parent: { jobId: 'vary', index: 0 } });
    expect(surface.uploads.map((upload) => upload.comment)).toEqual(['🖌️ v4 · from v3 · “make it red”']);
  });

  it('undoes an edit by showing its parent again, with no model call', async () => {
    const { resolved, outcome, surface, images } = await run('undo', 'vary');
    expect(outcome).toBe('done');
    expect(images.requests).toEqual([]);
    expect(resolved.ok && resolved.lineage).toMatchObject({
      origin: 'restored',
      parent: { jobId: 'edit', index: 0 },
      undo: true,
    });
    expect(surface.downloads).toEqual(['posted:F-edit-0']);
    expect(surface.uploads[0]?.comment).toBe('↩️ v2 again · undo of v3');
    expect(surface.uploads[0]?.files[0]?.name).toMatch(/^a-lighthouse-at-dawn-v2-1-[0-9a-f]{6}\.png$/);
  });

  it('treats an undo’s result as the version it shows: Undo goes one further back, Re-roll repeats its edit', async () => {
    const undo = await run('undo', 'undo');
    expect(undo.surface.downloads).toEqual(['posted:F-gen-0']);
    expect(undo.surface.uploads[0]?.comment).toBe('↩️ v1 again · undo of v2');
    expect(undo.resolved.ok && undo.resolved.lineage).toMatchObject({ origin: 'restored', undo: false });
    const reroll = await run('reroll', 'undo');
    expect(reroll.images.requests[0]?.prompt).toBe('make it blue');
    expect(reroll.surface.downloads).toEqual(['posted:F-gen-0']);
  });

  it('says there is nothing to undo on a first version, and that a gone record is gone', async () => {
    const first = await run('undo', 'gen');
    expect(first.resolved).toEqual({ ok: false, answer: copy.nothingToUndo });
    const gone = await run('vary', 'no-such-job');
    expect(gone.resolved).toEqual({ ok: false, answer: copy.buttonGone });
  });

  it('refuses every button of a version whose new result would land in another channel, reading no file', async () => {
    const versions = await tree();
    const surface = new RecordingSurface({ files });
    for (const kind of ['reroll', 'vary', 'edit', 'undo'] as const) {
      const resolved = await resolveResultAction(
        kind,
        { target: { channelId: 'C-elsewhere' }, version: { jobId: 'edit', index: 0 }, userId: 'U2', instruction: 'x' },
        versions,
        surface,
      );
      expect(resolved).toEqual({ ok: false, answer: copy.pressNotOnResult });
    }
    expect(surface.downloads).toEqual([]);
  });

  it('answers a version whose file was deleted on the platform, sending nothing to the model', async () => {
    const versions = await tree();
    const surface = new RecordingSurface({ files: {} });
    const images = model(1);
    const resolved = await resolveResultAction(
      'vary',
      { target, version: { jobId: 'edit', index: 0 }, userId: 'U2' },
      versions,
      surface,
    );
    if (!resolved.ok) throw new Error('expected a job');
    expect(await resolved.run(deps(surface, images, [4]))).not.toBe('done');
    expect(images.requests).toEqual([]);
    expect(surface.uploads).toEqual([]);
  });
});
