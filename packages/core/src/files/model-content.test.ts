import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ImageBlockParam } from '../genai/types.js';
import { blackPng, gifWithFrames } from '../../testing/image-bombs.js';
import { MODEL_CONTENT_LIMITS, modelContent, type ModelContentBlock } from './model-content.js';

async function photo(width: number, height: number, format: 'jpeg' | 'png' | 'webp' | 'gif' = 'jpeg') {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 40 } } });
  return new Uint8Array(await image[format]().toBuffer());
}

function decoded(block: ModelContentBlock | undefined): Buffer {
  if (block?.type !== 'image') throw new Error(`expected an image block, got ${block?.type}`);
  return Buffer.from(block.source.data, 'base64');
}

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

describe('modelContent', () => {
  it('sends a small image as it came, named by a text block before it, its type read from the bytes', async () => {
    const bytes = await photo(640, 480, 'jpeg');
    const content = await modelContent([{ name: 'holiday.png', bytes }]);
    expect(content.leftOut).toEqual([]);
    expect(content.blocks).toHaveLength(2);
    expect(content.blocks[0]).toEqual({ type: 'text', text: 'Image "holiday.png":' });
    const image = content.blocks[1] as ImageBlockParam;
    expect(image.source).toMatchObject({ type: 'base64', media_type: 'image/jpeg' });
    expect(image.source.data).not.toMatch(/^data:/);
    expect(decoded(image).equals(Buffer.from(bytes))).toBe(true);
  });

  it('scales an image larger than 1568 px on its long side down to it, in its own format', async () => {
    const cases = [
      { width: 2000, height: 1500, format: 'jpeg', sent: 'image/jpeg', to: [1568, 1176] },
      { width: 800, height: 1700, format: 'png', sent: 'image/png', to: [738, 1568] },
      { width: 1600, height: 1600, format: 'webp', sent: 'image/webp', to: [1568, 1568] },
      // A GIF goes as a still PNG of its first frame.
      { width: 1600, height: 900, format: 'gif', sent: 'image/png', to: [1568, 882] },
    ] as const;
    for (const { width, height, format, sent, to } of cases) {
      const bytes = await photo(width, height, format);
      const content = await modelContent([{ name: `big.${format}`, bytes }]);
      const image = content.blocks[1] as ImageBlockParam;
      expect(image.source.media_type, format).toBe(sent);
      const metadata = await sharp(decoded(image)).metadata();
      expect([metadata.width, metadata.height], format).toEqual(to);
      expect(metadata.format, format).toBe(sent.slice('image/'.length));
    }
  }, 20_000);

  it('sends an image of too many bytes for the service as a JPEG within them, at its own size', async () => {
    const noise = Buffer.alloc(1200 * 1200 * 3);
    for (let at = 0; at < noise.length; at++) noise[at] = (at * 2654435761) >>> 24;
    const png = new Uint8Array(
      await sharp(noise, { raw: { width: 1200, height: 1200, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer(),
    );
    expect(png.byteLength).toBeGreaterThan(MODEL_CONTENT_LIMITS.maxImageBytes);
    const content = await modelContent([{ name: 'noise.png', bytes: png }]);
    const image = content.blocks[1] as ImageBlockParam;
    expect(image.source.media_type).toBe('image/jpeg');
    // What the service counts: at most 5 MiB of Base64.
    expect(image.source.data.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const metadata = await sharp(decoded(image)).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 1200, 1200]);
  });

  it('turns a photo upright by its orientation tag before scaling it', async () => {
    const sideways = new Uint8Array(
      await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#336699' } })
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer(),
    );
    const content = await modelContent([{ name: 'portrait.jpg', bytes: sideways }]);
    const metadata = await sharp(decoded(content.blocks[1])).metadata();
    expect([metadata.width, metadata.height]).toEqual([784, 1568]);
  });

  it('refuses a 60-megapixel image from its header, with a note naming its size, and sends the rest', async () => {
    const huge = blackPng(10_000, 6_000);
    const started = performance.now();
    const content = await modelContent([
      { name: 'camera.png', bytes: huge },
      { name: 'notes.txt', bytes: text('the rest') },
    ]);
    // Nothing decoded it: a decode of 60 megapixels takes seconds on this machine.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(content.leftOut).toEqual([
      {
        name: 'camera.png',
        reason: 'image_refused',
        problem: { kind: 'pixels', width: 10_000, height: 6_000, maxMegapixels: 40 },
      },
    ]);
    expect(content.blocks).toEqual([{ type: 'text', text: '<file name="notes.txt">\nthe rest\n</file>' }]);
  });

  it('refuses an animation of too many frames', async () => {
    const content = await modelContent([{ name: 'flip.gif', bytes: await gifWithFrames(150) }]);
    expect(content.leftOut[0]).toMatchObject({ reason: 'image_refused', problem: { kind: 'frames', frames: 150 } });
  });

  it('sends the 4 most recent images only, leaving the older ones out without a note', async () => {
    const files = await Promise.all(
      Array.from({ length: 6 }, async (_, index) => ({
        name: `image-${index}.png`,
        bytes: await photo(8 + index, 8, 'png'),
      })),
    );
    const content = await modelContent(files);
    expect(content.blocks.filter((block) => block.type === 'text').map((block) => block.text)).toEqual([
      'Image "image-2.png":',
      'Image "image-3.png":',
      'Image "image-4.png":',
      'Image "image-5.png":',
    ]);
    expect(content.leftOut).toEqual([
      { name: 'image-0.png', reason: 'older_image' },
      { name: 'image-1.png', reason: 'older_image' },
    ]);
  });

  it('sends text files (plain, Markdown, CSV, JSON, source code, XML) as text with their names', async () => {
    const files = [
      { name: 'readme.md', bytes: text('# Title\n\n- one') },
      { name: 'data.csv', bytes: text('a,b\n1,2') },
      { name: 'config.json', bytes: text('{"on": true}') },
      { name: 'main.ts', bytes: text('export const answer = 42;') },
      { name: 'feed.xml', bytes: text('<?xml version="1.0"?><feed/>') },
      { name: 'bom.txt', bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...text('héllo')]) },
    ];
    const content = await modelContent(files);
    expect(content.leftOut).toEqual([]);
    expect(content.blocks).toEqual(
      files.map((file) => ({
        type: 'text',
        text: `<file name="${file.name}">\n${file.name === 'bom.txt' ? 'héllo' : new TextDecoder().decode(file.bytes)}\n</file>`,
      })),
    );
  });

  it('leaves out a text file over 200 KB, and binaries and unknown formats, each with a note', async () => {
    const big = text('x'.repeat(200 * 1024 + 1));
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Array(60).fill(0)]);
    const content = await modelContent([
      { name: 'log.txt', bytes: big },
      { name: 'blob.bin', bytes: new Uint8Array([1, 2, 0, 3, 4]) },
      { name: 'latin1.txt', bytes: new Uint8Array([0x63, 0x61, 0x66, 0xe9]) },
      { name: 'archive.zip', bytes: zip },
    ]);
    expect(content.blocks).toEqual([]);
    expect(content.leftOut).toEqual([
      { name: 'log.txt', reason: 'too_large', kind: 'text file', size: big.byteLength, limit: 200 * 1024 },
      { name: 'blob.bin', reason: 'unsupported' },
      { name: 'latin1.txt', reason: 'unsupported' },
      { name: 'archive.zip', reason: 'unsupported' },
    ]);
  });

  it('notes an image that does not decode as damaged', async () => {
    const png = await photo(8, 8, 'png');
    const broken = png.slice(0, 40);
    const content = await modelContent([{ name: 'broken.png', bytes: broken }]);
    expect(content.leftOut).toEqual([{ name: 'broken.png', reason: 'damaged' }]);
  });

  it('sends a PDF as a document named by its file, and leaves out a 25 MB one with a note', async () => {
    const pdf = text('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
    const large = new Uint8Array(25 * 1024 * 1024);
    large.set(pdf);
    const content = await modelContent([
      { name: 'report.pdf', bytes: pdf },
      { name: 'scan.pdf', bytes: large },
    ]);
    expect(content.blocks).toEqual([
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(pdf).toString('base64') },
        title: 'report.pdf',
      },
    ]);
    expect(content.leftOut).toEqual([
      { name: 'scan.pdf', reason: 'too_large', kind: 'PDF', size: 25 * 1024 * 1024, limit: 20 * 1024 * 1024 },
    ]);
  });

  it('keeps the whole request under its size, the newest files first: one that no longer fits is left out with a note', async () => {
    const limits = { ...MODEL_CONTENT_LIMITS, maxRequestBytes: 250 };
    const file = (name: string) => ({ name, bytes: text(name.repeat(10)) });
    const content = await modelContent([file('first.txt'), file('second.txt'), file('third.txt')], limits);
    expect(content.blocks.map((block) => (block.type === 'text' ? block.text.split('\n')[0] : block.type))).toEqual([
      '<file name="first.txt">',
      '<file name="third.txt">',
    ]);
    // third.txt takes 122 bytes of the 250, second.txt would need 133; the smaller first.txt still fits.
    expect(content.leftOut).toEqual([{ name: 'second.txt', reason: 'over_request', limit: 250 }]);
  });

  it('holds the default request at 30 MiB of Base64: one 12 MiB PDF (16 MiB as Base64) goes, not two', async () => {
    const pdf = (): Uint8Array => {
      const bytes = new Uint8Array(12 * 1024 * 1024);
      bytes.set(text('%PDF-1.4\n'));
      return bytes;
    };
    const content = await modelContent([
      { name: 'a.pdf', bytes: pdf() },
      { name: 'b.pdf', bytes: pdf() },
      { name: 'c.pdf', bytes: pdf() },
    ]);
    expect(content.blocks.map((block) => (block.type === 'document' ? block.title : block.type))).toEqual(['c.pdf']);
    expect(content.leftOut.map((left) => [left.name, left.reason])).toEqual([
      ['a.pdf', 'over_request'],
      ['b.pdf', 'over_request'],
    ]);
  });
});
