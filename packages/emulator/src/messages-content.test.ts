import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from './server.js';
import type { Emulator } from './server.js';
import { parseSse, postJson } from './http-test-client.js';
import type { SseFrame } from './http-test-client.js';

const KEY = 'anthropic-content-key';
const HEADERS = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };

const TOOLS = [
  {
    name: 'generate_image',
    description: 'Draw a new image.',
    input_schema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
  },
  {
    name: 'edit_image',
    description: 'Edit an image of the conversation.',
    input_schema: { type: 'object', properties: { instruction: { type: 'string' } }, required: ['instruction'] },
  },
];

interface Block {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
}
interface Message {
  content: Block[];
  stop_reason: string;
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ apiKey: KEY, streamDelayMs: 1 });
});
afterAll(() => emulator.close());

function send(body: object): Promise<Response> {
  return postJson(`${emulator.url}/v1/messages`, { model: 'claude-sonnet-4-5', max_tokens: 1024, ...body }, HEADERS);
}

async function reply(body: object): Promise<Message> {
  const response = await send(body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Message;
}

async function refusal(body: object): Promise<string> {
  const response = await send(body);
  expect(response.status).toBe(400);
  const error = (await response.json()) as { error: { type: string; message: string } };
  expect(error.error.type).toBe('invalid_request_error');
  return error.error.message;
}

const user = (...content: object[]) => ({ role: 'user', content });
const text = (value: string) => ({ type: 'text', text: value });

async function imageBlock(format: 'png' | 'jpeg' | 'webp' | 'gif', background: string, width = 64, height = 32) {
  const bytes = await sharp({ create: { width, height, channels: 3, background } })
    [format]()
    .toBuffer();
  return { type: 'image', source: { type: 'base64', media_type: `image/${format}`, data: bytes.toString('base64') } };
}

function pdfBlock(pages: number, title?: string) {
  const objects = Array.from(
    { length: pages },
    (_, page) => `${page + 3} 0 obj << /Type /Page /Parent 2 0 R >> endobj`,
  );
  const pdf = `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Count ${pages} >> endobj\n${objects.join('\n')}\n%%EOF\n`;
  return {
    type: 'document',
    source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(pdf).toString('base64') },
    ...(title === undefined ? {} : { title }),
  };
}

async function streamed(body: object): Promise<SseFrame[]> {
  const response = await send({ ...body, stream: true });
  expect(response.status).toBe(200);
  return parseSse(await response.text());
}

interface Streamed {
  text: string;
  tool: { id: string; name: string; pieces: string[] } | undefined;
  stopReason: string | undefined;
}

/** What a stream adds up to, read from its frames as a client would. */
function readStream(frames: SseFrame[]): Streamed {
  const result: Streamed = { text: '', tool: undefined, stopReason: undefined };
  for (const { data } of frames) {
    const event = data as {
      type: string;
      content_block?: Block;
      delta?: { type: string; text?: string; partial_json?: string; stop_reason?: string };
    };
    if (event.type === 'content_block_start' && event.content_block?.type === 'tool_use') {
      expect(event.content_block.input).toEqual({});
      result.tool = { id: event.content_block.id ?? '', name: event.content_block.name ?? '', pieces: [] };
    }
    if (event.type === 'content_block_delta' && event.delta?.type === 'text_delta') result.text += event.delta.text;
    if (event.type === 'content_block_delta' && event.delta?.type === 'input_json_delta') {
      result.tool?.pieces.push(event.delta.partial_json ?? '');
    }
    if (event.type === 'message_delta') result.stopReason = event.delta?.stop_reason;
  }
  return result;
}

describe('messages: images and documents', () => {
  it('answers about an image from its real pixels: size, format and dominant colour', async () => {
    const answer = await reply({
      messages: [user(text('Image "flag.png":'), await imageBlock('png', '#d01818'), text('what colour is this?'))],
    });
    expect(answer.stop_reason).toBe('end_turn');
    // sharp reads the dominant colour in bins: near the colour drawn, not exactly it.
    expect(answer.content[0]?.text).toMatch(
      /^Image 1 is 64 × 32 pixels, PNG, mostly red \(#[c-d][0-9a-f]1[0-9a-f]1[0-9a-f]\)\.$/,
    );
    const two = await reply({
      messages: [
        user(
          await imageBlock('jpeg', '#1830d0', 20, 40),
          await imageBlock('webp', '#ffffff', 16, 16),
          text('and these?'),
        ),
      ],
    });
    expect(two.content[0]?.text).toMatch(
      /^Image 1 is 20 × 40 pixels, JPEG, mostly blue \(#[0-9a-f]{6}\)\. Image 2 is 16 × 16 pixels, WEBP, mostly white/,
    );
  });

  it('answers about a PDF with its page count', async () => {
    const answer = await reply({ messages: [user(pdfBlock(3, 'report.pdf'), text('summarise'))] });
    expect(answer.content[0]?.text).toMatch(/^Document "report.pdf" has 3 pages \(\d+ bytes\)\.$/);
  });

  it.each([
    [
      'a data-URL prefix',
      async () => {
        const block = await imageBlock('png', '#000000');
        return { ...block, source: { ...block.source, data: `data:image/png;base64,${block.source.data}` } };
      },
      'data URL prefix',
    ],
    [
      'a media type the service does not take',
      async () => {
        const block = await imageBlock('png', '#000000');
        return { ...block, source: { ...block.source, media_type: 'image/bmp' } };
      },
      "Input should be 'image/jpeg'",
    ],
    [
      'bytes that are not the declared type',
      async () => {
        const block = await imageBlock('jpeg', '#000000');
        return { ...block, source: { ...block.source, media_type: 'image/png' } };
      },
      'Image does not match the provided media type image/png',
    ],
    [
      'Base64 that does not decode',
      async () => {
        const block = await imageBlock('png', '#000000');
        return { ...block, source: { ...block.source, data: 'not base64!' } };
      },
      'Invalid base64 data',
    ],
    [
      'bytes that are no image',
      async () => {
        const block = await imageBlock('png', '#000000');
        return { ...block, source: { ...block.source, data: Buffer.from('hello there!').toString('base64') } };
      },
      'Could not process image',
    ],
  ])('refuses an image block with %s, naming where it is', async (_, make, words) => {
    const message = await refusal({ messages: [user(text('look'), await make())] });
    expect(message).toContain('messages.0.content.1');
    expect(message).toContain(words);
  });

  it('refuses a document that is not a PDF', async () => {
    const block = {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from('hello!').toString('base64') },
    };
    expect(await refusal({ messages: [user(block)] })).toBe('The PDF specified was not valid.');
  });
});

describe('messages: tool use', () => {
  it('calls generate_image for a request for a picture, streamed as a tool_use block in pieces', async () => {
    const frames = await streamed({ tools: TOOLS, messages: [user(text('draw a lighthouse at dawn, wide'))] });
    const result = readStream(frames);
    expect(result.text).toBe("I'll draw that.");
    expect(result.stopReason).toBe('tool_use');
    expect(result.tool?.name).toBe('generate_image');
    expect(result.tool?.id).toMatch(/^toolu_/);
    expect(result.tool?.pieces.length).toBeGreaterThanOrEqual(4);
    expect(JSON.parse(result.tool?.pieces.join('') ?? '')).toEqual({
      prompt: 'draw a lighthouse at dawn, wide',
      aspect_ratio: '16:9',
    });
    // The thinking block, the text block, then the tool_use block, by index.
    const starts = frames.filter((frame) => frame.event === 'content_block_start');
    expect(starts.map((frame) => (frame.data as { index: number }).index)).toEqual([0, 1, 2]);
  });

  it('answers a whole message with the call when not streamed, the same id for the same request', async () => {
    const body = { tools: TOOLS, messages: [user(text('picture of a fox in the snow, 3:2'))] };
    const first = await reply(body);
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([
      { type: 'text', text: "I'll draw that." },
      {
        type: 'tool_use',
        id: expect.stringMatching(/^toolu_/),
        name: 'generate_image',
        input: { prompt: 'picture of a fox in the snow, 3:2', aspect_ratio: '3:2' },
      },
    ]);
    expect((await reply(body)).content).toEqual(first.content);
  });

  it('calls edit_image for an instruction about an image in the conversation, and only then', async () => {
    const image = await imageBlock('png', '#808080');
    const withImage = await reply({ tools: TOOLS, messages: [user(image, text('make it black and white'))] });
    expect(withImage.content.at(-1)).toMatchObject({
      type: 'tool_use',
      name: 'edit_image',
      input: { instruction: 'make it black and white' },
    });
    const without = await reply({ tools: TOOLS, messages: [user(text('make it black and white'))] });
    expect(without.stop_reason).toBe('end_turn');
    expect(without.content.map((block) => block.type)).toEqual(['text']);
  });

  it("takes a tool call's words from the last speaker's message, without the files before it or the name", async () => {
    const image = await imageBlock('png', '#1830d0');
    for (const words of ['Alice: make it black and white', 'Alice: here it is\n\nAlice: make it black and white']) {
      const answer = await reply({
        tools: TOOLS,
        messages: [user(text('Image "poster.png":'), image, text(`${words} [len:40]`))],
      });
      expect(answer.content.at(-1)).toMatchObject({
        type: 'tool_use',
        name: 'edit_image',
        input: { instruction: 'make it black and white' },
      });
    }
  });

  it('calls no tool when the request offers none', async () => {
    const answer = await reply({ messages: [user(text('draw a lighthouse'))] });
    expect(answer.stop_reason).toBe('end_turn');
    expect(answer.content.map((block) => block.type)).toEqual(['text']);
  });

  it('forces a call with [tool:NAME {json}], broken JSON and unknown names included, tools offered or not', async () => {
    const broken = readStream(
      await streamed({ tools: TOOLS, messages: [user(text('[tool:generate_image {"prompt": "a cat"]'))] }),
    );
    expect(broken).toMatchObject({ text: '', stopReason: 'tool_use', tool: { name: 'generate_image' } });
    expect(broken.tool?.pieces.join('')).toBe('{"prompt": "a cat"');
    const unknown = readStream(await streamed({ messages: [user(text('hello [tool:launch_rockets {"count": 3}]'))] }));
    expect(unknown.tool?.name).toBe('launch_rockets');
    expect(JSON.parse(unknown.tool?.pieces.join('') ?? '')).toEqual({ count: 3 });
    const bare = await reply({ messages: [user(text('[tool:edit_image]'))] });
    expect(bare.content).toEqual([{ type: 'tool_use', id: expect.any(String), name: 'edit_image', input: {} }]);
  });

  it('closes after a tool_result with words that mention the result, or the error', async () => {
    const call = { type: 'tool_use', id: 'toolu_1', name: 'generate_image', input: { prompt: 'a fox' } };
    const turns = (result: object) => [user(text('draw a fox')), { role: 'assistant', content: [call] }, user(result)];
    const done = readStream(
      await streamed({
        tools: TOOLS,
        messages: turns({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Posted 2 images of a fox.' }),
      }),
    );
    expect(done).toMatchObject({ text: 'Done: Posted 2 images of a fox.', stopReason: 'end_turn', tool: undefined });
    const failed = await reply({
      tools: TOOLS,
      messages: turns({
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [text('The daily image quota is used up.')],
        is_error: true,
      }),
    });
    expect(failed.content).toEqual([{ type: 'text', text: "That didn't work: The daily image quota is used up." }]);
  });

  it('keeps calling with [tool-loop:NAME {json}], after every tool_result, until the user says something else', async () => {
    const ask = user(text('Ada: draw on [tool-loop:generate_image {"prompt": "a kite"}]'));
    const first = await reply({ tools: TOOLS, messages: [ask] });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content[0];
    expect(call).toEqual({
      type: 'tool_use',
      id: expect.any(String),
      name: 'generate_image',
      input: { prompt: 'a kite' },
    });
    const rounds = [
      ask,
      { role: 'assistant', content: [call] },
      user({ type: 'tool_result', tool_use_id: call?.id, content: 'Posted 1 image.' }),
    ];
    const again = readStream(await streamed({ tools: TOOLS, messages: rounds }));
    // The closing words of the round before, then the same call again under a new id.
    expect(again).toMatchObject({
      text: 'Done: Posted 1 image.',
      stopReason: 'tool_use',
      tool: { name: 'generate_image' },
    });
    expect(again.tool?.id).not.toBe(call?.id);
    expect(JSON.parse(again.tool?.pieces.join('') ?? '')).toEqual({ prompt: 'a kite' });
    // A new message of the user's without the directive is answered as any other.
    const after = await reply({
      tools: TOOLS,
      messages: [...rounds, { role: 'assistant', content: [text('Done: Posted 1 image.')] }, user(text('thanks'))],
    });
    expect(after.stop_reason).toBe('end_turn');
    expect(after.content.map((block) => block.type)).toEqual(['text']);
  });

  it('refuses tool turns that do not pair up, as the service does', async () => {
    const call = { type: 'tool_use', id: 'toolu_1', name: 'generate_image', input: {} };
    expect(
      await refusal({ messages: [user({ type: 'tool_result', tool_use_id: 'toolu_9', content: 'ok' })] }),
    ).toContain('unexpected `tool_use_id` found in `tool_result` blocks: toolu_9');
    expect(
      await refusal({ messages: [user(text('draw')), { role: 'assistant', content: [call] }, user(text('well?'))] }),
    ).toContain('`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1');
  });

  it('refuses a tool without an object input_schema', async () => {
    const tools = [{ name: 'generate_image', description: 'Draw.', input_schema: { type: 'string' } }];
    expect(await refusal({ tools, messages: [user(text('draw a cat'))] })).toContain('tools.0.input_schema');
  });
});
