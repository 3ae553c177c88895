import { describe, expect, it } from 'vitest';
import { tinyPng } from '../../testing/fixtures.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { alice, bob, bot, message } from '../../testing/thread.js';
import { copy } from '../copy/copy.js';
import { AttachmentUnavailableError } from '../files/attachment-unavailable.js';
import type { ModelContentBlock } from '../files/model-content.js';
import { ChannelBudget } from '../rendering/channel-budget.js';
import type { AttachmentRef, DownloadedFile, ThreadMessage } from '../surface/surface.js';
import { conversationFiles } from './conversation-files.js';
import type { ChatDeps } from './deps.js';

const MIB = 1024 * 1024;
const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const instant = { now: () => 0, sleep: async () => {} };
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const pdf = text('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

/** Serves each file by id: its bytes, or errors thrown in turn before them; counts downloads at once. */
class FileHost extends RecordingSurface {
  readonly served = new Map<string, Uint8Array>();
  readonly errors = new Map<string, unknown[]>();
  #active = 0;
  maxActive = 0;

  override async download(attachment: AttachmentRef, options: { signal?: AbortSignal } = {}): Promise<DownloadedFile> {
    options.signal?.throwIfAborted();
    this.downloads.push(attachment.id);
    this.#active += 1;
    this.maxActive = Math.max(this.maxActive, this.#active);
    try {
      // Lets the other downloads start meanwhile, as a transfer would.
      await new Promise((resolve) => setImmediate(resolve));
      const error = this.errors.get(attachment.id)?.shift();
      if (error !== undefined) throw error;
      const bytes = this.served.get(attachment.id);
      if (bytes === undefined) throw new Error(`no file ${attachment.id}`);
      return { bytes, size: bytes.byteLength, mimeType: attachment.mimeType };
    } finally {
      this.#active -= 1;
    }
  }

  /** An attachment whose bytes this host serves. */
  file(id: string, name: string, bytes: Uint8Array, mimeType?: string): AttachmentRef {
    this.served.set(id, bytes);
    return { id, name, size: bytes.byteLength, ...(mimeType === undefined ? {} : { mimeType }) };
  }

  png(id: string, name = `${id}.png`): AttachmentRef {
    return this.file(id, name, tinyPng(), 'image/png');
  }
}

function deps(surface: FileHost): ChatDeps {
  const unused = () => {
    throw new Error('not used');
  };
  return {
    surface,
    images: { generateImages: unused },
    chat: { streamMessage: unused },
    config: { imageModel: 'img', chatModel: 'chat' },
    logger: silent,
    clock: instant,
    channels: new ChannelBudget(),
  };
}

/** The names the model sees before each image, in order. */
function labels(blocks: readonly ModelContentBlock[]): string[] {
  return blocks.flatMap((block) => (block.type === 'text' && block.text.startsWith('Image "') ? [block.text] : []));
}

function kinds(blocks: readonly ModelContentBlock[]): string[] {
  return blocks.map((block) => block.type);
}

describe('conversationFiles', () => {
  it('downloads and sends only the 4 newest of 50 images, two downloads at a time, and lists all 50', async () => {
    const host = new FileHost();
    const history = Array.from({ length: 50 }, (_, index) =>
      message(alice, `image ${index}`, [host.png(`img${index}`)]),
    );
    const trigger = message(alice, 'what changed between these?');

    const files = await conversationFiles(deps(host), { history, trigger });

    expect([...host.downloads].sort()).toEqual(['img46', 'img47', 'img48', 'img49']);
    expect(host.maxActive).toBe(2);
    expect(labels(files.blocks)).toEqual([
      'Image "img46.png":',
      'Image "img47.png":',
      'Image "img48.png":',
      'Image "img49.png":',
    ]);
    expect(kinds(files.blocks)).toEqual(['text', 'image', 'text', 'image', 'text', 'image', 'text', 'image']);
    expect(files.notes).toEqual([]);
    expect(files.images.map((image) => image.name)).toEqual(history.map((_, index) => `img${index}.png`));
  });

  it('sends a PDF as a document and a text file as text', async () => {
    const host = new FileHost();
    const trigger = message(alice, 'summarise these', [
      host.file('f1', 'report.pdf', pdf, 'application/pdf'),
      host.file('f2', 'notes.txt', text('buy milk'), 'text/plain'),
    ]);

    const files = await conversationFiles(deps(host), { history: [trigger], trigger });

    expect(files.blocks).toEqual([
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(pdf).toString('base64') },
        title: 'report.pdf',
      },
      { type: 'text', text: '<file name="notes.txt">\nbuy milk\n</file>' },
    ]);
    expect(files.notes).toEqual([]);
    expect(files.images).toEqual([]);
  });

  it('makes names unique across the conversation and labels the images with them', async () => {
    const host = new FileHost();
    const first = message(alice, 'one', [host.png('a', 'photo.png'), host.file('t1', 'notes', text('one'))]);
    const second = message(bob, 'two', [host.png('b', 'photo.png')]);
    const trigger = message(alice, 'compare', [host.png('c', 'photo.png'), host.file('t2', 'notes', text('two'))]);

    const files = await conversationFiles(deps(host), { history: [first, second], trigger });

    expect(files.images.map((image) => image.name)).toEqual(['photo.png', 'photo (2).png', 'photo (3).png']);
    expect(labels(files.blocks)).toEqual(['Image "photo.png":', 'Image "photo (2).png":', 'Image "photo (3).png":']);
    expect(files.blocks).toContainEqual({ type: 'text', text: '<file name="notes">\none\n</file>' });
    expect(files.blocks).toContainEqual({ type: 'text', text: '<file name="notes (2)">\ntwo\n</file>' });
  });

  it('turns a file the platform will not give into a note, tries a passing failure again, and sends the rest', async () => {
    const host = new FileHost();
    const secret = host.png('s', 'secret.png');
    host.errors.set('s', [new AttachmentUnavailableError('not_allowed', 'sign-in page')]);
    const flaky = host.file('f', 'flaky.txt', text('there in the end'), 'text/plain');
    host.errors.set('f', [new Error('connection reset')]);
    const gone = host.file('g', 'gone.txt', text('never served'), 'text/plain');
    host.errors.set('g', [new AttachmentUnavailableError('deleted', '404')]);
    const trigger = message(alice, 'look', [secret, host.png('ok', 'fine.png'), flaky, gone]);

    const files = await conversationFiles(deps(host), { history: [], trigger });

    expect(files.notes).toEqual([
      copy.fileUnavailable('secret.png', 'not_allowed'),
      copy.fileUnavailable('gone.txt', 'deleted'),
    ]);
    expect(files.notes[0]).toContain('`files:read`');
    expect(labels(files.blocks)).toEqual(['Image "fine.png":']);
    expect(files.blocks).toContainEqual({ type: 'text', text: '<file name="flaky.txt">\nthere in the end\n</file>' });
    expect(files.images.map((image) => image.name)).toEqual(['secret.png', 'fine.png']);
  });

  it('notes a file declared past its cap without downloading it', async () => {
    const host = new FileHost();
    const scan = { id: 'p', name: 'scan.pdf', mimeType: 'application/pdf', size: 25 * MIB };
    const poster = { id: 'i', name: 'poster.png', mimeType: 'image/png', size: 21 * MIB };
    const trigger = message(alice, 'read this', [scan, poster, host.png('ok', 'fine.png')]);

    const files = await conversationFiles(deps(host), { history: [], trigger });

    expect(host.downloads).toEqual(['ok']);
    expect(files.notes).toEqual([
      copy.modelFileNote({ name: 'scan.pdf', reason: 'too_large', kind: 'PDF', size: 25 * MIB, limit: 20 * MIB }),
      "📎 I couldn't read “poster.png”: it is 21.0 MiB, and an image may be at most 20.0 MiB.",
    ]);
    expect(labels(files.blocks)).toEqual(['Image "fine.png":']);
  });

  it('notes a file the platform found too large to hand over', async () => {
    const host = new FileHost();
    const big = host.file('b', 'big.jpg', new Uint8Array(), 'image/jpeg');
    host.errors.set('b', [new AttachmentUnavailableError('too_large', 'over the cap')]);
    const trigger = message(alice, 'this one', [big]);

    const files = await conversationFiles(deps(host), { history: [], trigger });

    expect(files.notes).toEqual([
      "📎 I couldn't read “big.jpg”: it is larger than 20.0 MiB, the most an image may be.",
    ]);
    expect(files.blocks).toEqual([]);
  });

  it('orders the history, then the replied-to message, then the trigger, and marks what is pointed at and by whom', async () => {
    const host = new FileHost();
    const result = message(bot, 'Done: 2 images', [host.png('r1'), host.png('r2')]);
    const referenced = message(bob, 'mine', [host.png('ref')]);
    const later = message(alice, 'and this', [host.png('later')]);
    const trigger = message(alice, 'make this one blue', [host.png('own')]);
    const afterTrigger = message(bob, 'too late', [host.png('after')]);
    const history: ThreadMessage[] = [result, referenced, later, trigger, afterTrigger];

    const files = await conversationFiles(deps(host), { history, trigger, referenced });

    const image = (name: string, on: ThreadMessage, position: number, pointedAt: boolean, byBot: boolean) => ({
      name,
      attachment: on.attachments[position],
      messageId: on.id,
      position,
      pointedAt,
      byBot,
    });
    expect(files.images).toEqual([
      image('r1.png', result, 0, false, true),
      image('r2.png', result, 1, false, true),
      image('later.png', later, 0, false, false),
      image('ref.png', referenced, 0, true, false),
      image('own.png', trigger, 0, true, false),
    ]);
    expect(labels(files.blocks)).toEqual([
      'Image "r2.png":',
      'Image "later.png":',
      'Image "ref.png":',
      'Image "own.png":',
    ]);
  });

  it('counts positions among a message’s images only', async () => {
    const host = new FileHost();
    const trigger = message(alice, 'both', [host.file('t', 'a.txt', text('a'), 'text/plain'), host.png('p')]);

    const files = await conversationFiles(deps(host), { history: [], trigger });

    expect(files.images.map((image) => image.position)).toEqual([0]);
  });

  it('stops when aborted', async () => {
    const host = new FileHost();
    const trigger = message(alice, 'look', [host.png('a'), host.png('b')]);
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));

    await expect(conversationFiles(deps(host), { history: [], trigger }, controller.signal)).rejects.toThrow(
      'cancelled',
    );
    expect(host.downloads).toEqual([]);
  });
});
