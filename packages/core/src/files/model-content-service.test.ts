/**
 * A conversation's files and tools over real HTTP against the emulator: the
 * content blocks modelContent makes are taken by a service that checks them
 * as the real one does, and a tool call comes back as a ToolUse, answered by
 * a tool_result in a second request.
 */
import { startEmulator, type Emulator } from '@genbot/emulator';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelContent } from './model-content.js';
import { GenAiClient } from '../genai/client.js';
import type { MessageParam, ToolDefinition } from '../genai/types.js';

const KEY = 'tools-key-6c1d';
const TOOLS: ToolDefinition[] = [
  {
    name: 'generate_image',
    description: 'Draw a new image.',
    input_schema: {
      type: 'object',
      properties: { prompt: { type: 'string' }, aspect_ratio: { type: 'string' } },
      required: ['prompt'],
    },
  },
  {
    name: 'edit_image',
    description: 'Edit an image of the conversation.',
    input_schema: { type: 'object', properties: { instruction: { type: 'string' } }, required: ['instruction'] },
  },
];

let emulator: Emulator;
let client: GenAiClient;

beforeAll(async () => {
  emulator = await startEmulator({ apiKey: KEY, streamDelayMs: 1 });
  client = new GenAiClient({ baseUrl: emulator.url, apiKey: KEY });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe('GenAiClient: files and tools in a conversation', () => {
  it('sends prepared images and documents that the service takes, and reads its answer about them', async () => {
    const photo = await sharp({ create: { width: 1800, height: 900, channels: 3, background: '#20a040' } })
      .jpeg()
      .toBuffer();
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n');
    const content = await modelContent([
      { name: 'field.jpg', bytes: photo },
      { name: 'report.pdf', bytes: pdf },
    ]);
    const stream = client.streamMessage({
      model: 'claude-test',
      max_tokens: 200,
      metadata: { user_id: 'a1b2c3' },
      messages: [{ role: 'user', content: [...content.blocks, { type: 'text', text: 'what is this?' }] }],
    });
    const final = await stream.finalMessage();
    expect(final.text).toMatch(/^Image 1 is 1568 × 784 pixels, JPEG, mostly green \(#[0-9a-f]{6}\)\. /);
    expect(final.text).toMatch(/Document "report\.pdf" has 1 page \(\d+ bytes\)\.$/);
    expect(final.toolUses).toEqual([]);
  });

  it('gets a tool call back, then closes the reply after its tool_result', async () => {
    const ask: MessageParam = { role: 'user', content: 'draw a lighthouse at dawn, wide' };
    const first = await client
      .streamMessage({ model: 'claude-test', max_tokens: 200, tools: TOOLS, messages: [ask] })
      .finalMessage();
    expect(first.stopReason).toBe('tool_use');
    const [call] = first.toolUses;
    expect(call).toMatchObject({
      kind: 'call',
      name: 'generate_image',
      input: { prompt: 'draw a lighthouse at dawn, wide', aspect_ratio: '16:9' },
    });
    const second = await client
      .streamMessage({
        model: 'claude-test',
        max_tokens: 200,
        tools: TOOLS,
        messages: [
          ask,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: call?.id ?? '', content: 'Posted 1 image: lighthouse-1.png.' },
            ],
          },
        ],
      })
      .finalMessage();
    expect(second).toMatchObject({
      stopReason: 'end_turn',
      text: 'Done: Posted 1 image: lighthouse-1.png.',
      toolUses: [],
    });
  });

  it('reads a call with broken JSON as invalid, and an is_error result closes with the error', async () => {
    const ask: MessageParam = { role: 'user', content: '[tool:edit_image {"instruction": "make it blue"]' };
    const first = await client
      .streamMessage({ model: 'claude-test', max_tokens: 200, tools: TOOLS, messages: [ask] })
      .finalMessage();
    const [call] = first.toolUses;
    expect(call).toMatchObject({ kind: 'invalid', name: 'edit_image', rawInput: '{"instruction": "make it blue"' });
    const second = await client
      .streamMessage({
        model: 'claude-test',
        max_tokens: 200,
        tools: TOOLS,
        messages: [
          ask,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: call?.id ?? '',
                content: 'The input was not valid JSON.',
                is_error: true,
              },
            ],
          },
        ],
      })
      .finalMessage();
    expect(second.text).toBe("That didn't work: The input was not valid JSON.");
  });
});
