import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copy } from '../copy/copy.js';
import type { MessagesRequest, ToolResultBlockParam } from '../genai/types.js';
import type { AttachmentRef } from '../surface/surface.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { startService, type Service } from '../../testing/service.js';
import { alice, bot, message } from '../../testing/thread.js';
import { converse } from './converse.js';
import type { ToolJob } from './tools/tool-job.js';

let service: Service;
let bluePng: Uint8Array;
beforeAll(async () => {
  service = await startService();
  bluePng = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#1d4ed8' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await service.close();
});

const target = { channelId: 'C1', threadId: '1700000000.000100' };
const fast = { minEditIntervalMs: 20, minPostIntervalMs: 20 };
const photo: AttachmentRef = { id: 'F1', name: 'harbour.png', mimeType: 'image/png' };

function since(from: number): { messages: MessagesRequest[]; images: unknown[] } {
  const later = service.emulator.requests.slice(from);
  return {
    messages: later
      .filter((request) => request.path === '/v1/messages')
      .map((request) => request.body as MessagesRequest),
    images: later.filter((request) => request.path.includes(':generateContent')).map((request) => request.body),
  };
}

function toolResults(request: MessagesRequest | undefined): ToolResultBlockParam[] {
  const last = request?.messages.at(-1)?.content;
  return Array.isArray(last) ? last.filter((block): block is ToolResultBlockParam => block.type === 'tool_result') : [];
}

function surfaceWith(history: ReturnType<typeof message>[]): RecordingSurface {
  return new RecordingSurface({ limits: fast, thread: history, files: { F1: bluePng } });
}

describe('a conversation that sees images and acts through tools', () => {
  it('answers a question about an image from its pixels, drawing nothing', async () => {
    const trigger = message(alice, 'what colours are in this?', [photo]);
    const surface = surfaceWith([trigger]);
    const from = service.emulator.requests.length;
    expect(await converse({ target, trigger }, service.deps(surface))).toBe('done');
    const { messages, images } = since(from);
    expect(images).toEqual([]);
    const content = messages[0]?.messages.at(-1)?.content;
    expect(Array.isArray(content) && content.map((block) => block.type)).toEqual(['text', 'image', 'text']);
    expect(messages[0]?.tools?.map((tool) => tool.name)).toEqual(['generate_image', 'edit_image']);
    expect(surface.texts().join('\n')).toContain('64 × 48 pixels, PNG');
    expect(surface.uploads).toEqual([]);
  });

  it('draws when asked for a picture: the result with its buttons, then the closing words from the tool result', async () => {
    const trigger = message(alice, 'draw a lighthouse at dawn, wide');
    const surface = surfaceWith([trigger]);
    const from = service.emulator.requests.length;
    expect(await converse({ target, trigger }, service.deps(surface))).toBe('done');
    const { messages, images } = since(from);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ generationConfig: { imageConfig: { aspectRatio: '16:9' } } });
    expect(surface.uploads).toHaveLength(1);
    expect(surface.uploads[0]?.comment).toContain('lighthouse');
    expect(messages).toHaveLength(2);
    const [result] = toolResults(messages[1]);
    expect(result?.is_error).toBeUndefined();
    expect(result?.content).toContain('Posted 1 image');
    const reply = surface.texts().join('\n');
    expect(reply).toContain("I'll draw that.");
    expect(reply).toContain('Done: Posted 1 image');
    expect(reply).not.toContain('Drawing');
  });

  it('edits the image the message points at when told to change it, sending its own bytes', async () => {
    const earlier = message(bot, 'Here it is', [{ ...photo, id: 'F0' }]);
    const trigger = message(alice, 'make it black and white', [photo]);
    const surface = new RecordingSurface({
      limits: fast,
      thread: [earlier, trigger],
      files: { F0: bluePng, F1: bluePng },
    });
    const from = service.emulator.requests.length;
    expect(await converse({ target, trigger }, service.deps(surface))).toBe('done');
    const { images } = since(from);
    expect(images).toHaveLength(1);
    const sent = JSON.stringify(images[0]);
    expect(sent).toContain(Buffer.from(bluePng).toString('base64'));
    expect(surface.uploads).toHaveLength(1);
    expect(surface.uploads[0]?.comment).toContain('black and white');
  });

  it('with CHAT_TOOLS off offers no tools and never draws, while images still reach the model', async () => {
    const trigger = message(alice, 'draw a fox', [photo]);
    const surface = surfaceWith([trigger]);
    const from = service.emulator.requests.length;
    const deps = service.deps(surface);
    expect(await converse({ target, trigger }, { ...deps, config: { ...deps.config, tools: false } })).toBe('done');
    const { messages, images } = since(from);
    expect(messages[0]?.tools).toBeUndefined();
    expect(images).toEqual([]);
    expect(surface.uploads).toEqual([]);
    expect(JSON.stringify(messages[0]?.messages)).toContain('"type":"image"');
  });

  it.each([
    ['an unknown tool', '[tool:paint_wall {"colour":"red"}]', [], 'there is no tool named'],
    ['input that is not JSON', '[tool:generate_image {"prompt": "a fox",]', [], 'not a JSON object'],
    ['input that does not fit the schema', '[tool:generate_image {"prompt": ""}]', [], 'does not fit the tool'],
    ['an edit with no image in the conversation', '[tool:edit_image {"instruction":"make it blue"}]', [], 'no image'],
    [
      'an edit naming an image not in it',
      '[tool:edit_image {"instruction":"x","image":"other.png"}]',
      [photo],
      'No image',
    ],
  ])(
    'answers %s with an error result the model explains, sending nothing to generate-content',
    async (_what, text, attached, said) => {
      const trigger = message(alice, text, attached);
      const surface = surfaceWith([trigger]);
      const from = service.emulator.requests.length;
      expect(await converse({ target, trigger }, service.deps(surface))).toBe('done');
      const { messages, images } = since(from);
      expect(images).toEqual([]);
      const [result] = toolResults(messages[1]);
      expect(result?.is_error).toBe(true);
      expect(String(result?.content)).toContain(said);
      expect(surface.texts().join('\n')).toContain("That didn't work");
    },
  );

  it('tells a tool call refused by the quota as /imagine would, and sends nothing to generate-content', async () => {
    const trigger = message(alice, 'draw a cat');
    const surface = surfaceWith([trigger]);
    const refusal = copy.quotaReached('images', 5, 3_600);
    const reserved: number[] = [];
    const toolJob: ToolJob = {
      nextResult: () => undefined,
      versionOf: async () => undefined,
      reserveImages: async (call) => {
        reserved.push(call);
        return refusal;
      },
      releaseImages: async () => undefined,
      postedBefore: () => undefined,
    };
    const from = service.emulator.requests.length;
    expect(await converse({ target, trigger }, { ...service.deps(surface), toolJob })).toBe('done');
    const { messages, images } = since(from);
    expect(reserved).toEqual([0]);
    expect(images).toEqual([]);
    expect(toolResults(messages[1])[0]).toMatchObject({ is_error: true });
    expect(surface.texts().join('\n')).toContain(refusal);
  });

  it('does not draw again a call whose result a run before posted', async () => {
    const trigger = message(alice, 'draw a cat');
    const surface = surfaceWith([trigger]);
    const toolJob: ToolJob = {
      nextResult: () => undefined,
      versionOf: async () => undefined,
      reserveImages: async () => undefined,
      releaseImages: async () => undefined,
      postedBefore: () => ({ messageId: 'M9', fileIds: ['F9'] }),
    };
    const from = service.emulator.requests.length;
    expect(await converse({ target, trigger }, { ...service.deps(surface), toolJob })).toBe('done');
    const { messages, images } = since(from);
    expect(images).toEqual([]);
    expect(surface.uploads).toEqual([]);
    expect(toolResults(messages[1])[0]?.content).toBe(copy.toolResult.postedBefore);
  });
});
