/**
 * What the real services send, replayed over real HTTP through the client:
 * each payload in ../shared/real-payloads/ beside the repository must end as
 * the contract says (a reply, images, or the error of the right kind).
 */
import { startReplay, type RealPayload } from '@genbot/emulator';
import { realPayloadsForTests } from '@genbot/emulator/testing';
import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, it } from 'vitest';
import { GenAiClient } from './client.js';
import { describeError } from './describe-error.js';
import {
  ModelNotFoundError,
  NoOutputError,
  SafetyStopError,
  ServiceAuthError,
  ServiceOverloadedError,
} from './errors.js';
import type { GeneratedImage, ToolUse } from './types.js';

const KEY = 'replay-key-41b9';

type Call = 'chat' | 'text' | 'images';

/** What the call must end in. */
type Outcome =
  | { reply: string; usage?: Record<string, number>; stopReason?: string; toolUses?: ToolUse[] }
  | { images: Array<{ mimeType: string; width: number }> }
  | { fails: (error: unknown) => void };

interface Case {
  payload: string;
  call: Call;
  outcome: Outcome;
}

function noOutput(wanted: 'text' | 'image', safety: boolean) {
  return (error: unknown): void => {
    expect(error).toBeInstanceOf(NoOutputError);
    expect(error).toMatchObject({ wanted, safetyBlocked: safety });
  };
}

const FLORENCE =
  "The current weather in Florence, Italy is 40°C (104°F). That's quite hot! If you're planning to visit or are currently there, make sure to stay hydrated and seek shade or air conditioning when possible.";

const CASES: Case[] = [
  {
    payload: 'anthropic-basic.sse',
    call: 'chat',
    outcome: { reply: 'Hello there!', usage: { input_tokens: 11, output_tokens: 6 } },
  },
  {
    payload: 'anthropic-delta-usage-nulls.composite.sse',
    call: 'chat',
    outcome: { reply: 'Hello there!', usage: { input_tokens: 11, output_tokens: 6 } },
  },
  { payload: 'anthropic-message-delta-fields.sse', call: 'chat', outcome: { reply: 'Hello there!' } },
  { payload: 'anthropic-padded-text.sse', call: 'chat', outcome: { reply: FLORENCE } },
  {
    payload: 'anthropic-thinking-then-text.sse',
    call: 'chat',
    outcome: {
      reply:
        "To multiply 27 × 453, I'll work through this step by step:\n\n    453\n  × 27\n  -----\n   3171  (7 × 453)\n   9060  (20 × 453)\n  -----\n  12231\n\nTherefore, 27 × 453 = 12,231",
    },
  },
  // No text at all (the CLI reports that as such), and one tool call whose input came in pieces.
  {
    payload: 'anthropic-thinking-tool-use.sse',
    call: 'chat',
    outcome: {
      reply: '',
      stopReason: 'tool_use',
      toolUses: [
        { kind: 'call', id: 'toolu_01Js4AMfx5qpTLhwTusnvT68', name: 'weather', input: { location: 'Florence, Italy' } },
      ],
      usage: { input_tokens: 424, output_tokens: 119 },
    },
  },
  {
    payload: 'anthropic-usage-omitted.sse',
    call: 'chat',
    outcome: { reply: 'Hello', usage: { input_tokens: 12, output_tokens: 6 } },
  },
  {
    payload: 'anthropic-refusal.sse',
    call: 'chat',
    outcome: {
      fails: (error) => {
        noOutput('text', true)(error);
        expect((error as Error).message).toContain('This request was refused due to policy.');
      },
    },
  },
  {
    payload: 'anthropic-error-event.json',
    call: 'chat',
    outcome: {
      fails: (error) => {
        expect(error).toBeInstanceOf(ServiceOverloadedError);
        expect(error).toMatchObject({ type: 'overloaded_error', retryable: true });
      },
    },
  },
  {
    payload: 'anthropic-http-404.json',
    call: 'chat',
    outcome: {
      fails: (error) => {
        expect(error).toBeInstanceOf(ModelNotFoundError);
        expect(describeError(error).summary).toBe(
          "The chat service does not know the model 'claude-replay': check CHAT_MODEL.",
        );
      },
    },
  },
  {
    payload: 'gemini-2.5-flash-image-text-only.json',
    call: 'text',
    outcome: {
      reply:
        'In a hidden cave, a shy axolotl named Pip spent its days dreaming of the world beyond its murky pond. One evening, a glimmering portal appeared, offering Pip a chance to explore the vibrant, unknown depths of the ocean.',
    },
  },
  { payload: 'gemini-2.5-flash-image-text-only.json', call: 'images', outcome: { fails: noOutput('image', false) } },
  {
    payload: 'gemini-3-image-with-thought-image.composite.json',
    call: 'images',
    outcome: { images: [{ mimeType: 'image/png', width: 1024 }] },
  },
  {
    payload: 'gemini-3-pro-image-preview.json',
    call: 'images',
    outcome: { images: [{ mimeType: 'image/jpeg', width: 1408 }] },
  },
  {
    payload: 'gemini-3-pro-text.json',
    call: 'text',
    outcome: {
      reply:
        '**Oi** (pronounced like "oy") is the most common way to say hi in Portuguese! \n\nYou can also use **Olá**, which means "Hello".',
    },
  },
  { payload: 'gemini-thought-summary-text.json', call: 'text', outcome: { reply: 'Mountain View' } },
  {
    payload: 'gemini-400-api-key.json',
    call: 'text',
    outcome: {
      fails: (error) => {
        expect(error).toBeInstanceOf(ServiceAuthError);
        expect(error).toMatchObject({ status: 400, type: 'INVALID_ARGUMENT' });
        expect(describeError(error).summary).toContain('GENAI_API_KEY');
      },
    },
  },
  {
    payload: 'gemini-404-unknown-model.json',
    call: 'text',
    outcome: {
      fails: (error) => {
        expect(error).toBeInstanceOf(ModelNotFoundError);
        expect(describeError(error).summary).toContain('TEXT_MODEL');
      },
    },
  },
  {
    payload: 'gemini-404-unknown-model.json',
    call: 'images',
    outcome: { fails: (error) => expect(describeError(error).summary).toContain('IMAGE_MODEL') },
  },
  { payload: 'gemini-empty-content.json', call: 'text', outcome: { fails: noOutput('text', false) } },
  { payload: 'gemini-empty-text-part.json', call: 'text', outcome: { fails: noOutput('text', false) } },
  {
    payload: 'gemini-finish-reason-safety.json',
    call: 'text',
    outcome: {
      fails: (error) => {
        expect(error).toBeInstanceOf(SafetyStopError);
        expect(error).toMatchObject({ text: 'Safety error incoming in 5, 4, 3, 2...', reason: 'SAFETY' });
      },
    },
  },
  {
    payload: 'gemini-image-empty-part.json',
    call: 'images',
    outcome: { images: [{ mimeType: 'image/png', width: 1 }] },
  },
  {
    payload: 'gemini-image-empty-safety-ratings.json',
    call: 'images',
    outcome: { images: [{ mimeType: 'image/png', width: 1024 }] },
  },
  { payload: 'gemini-prompt-blocked-safety.json', call: 'text', outcome: { fails: noOutput('text', true) } },
  { payload: 'gemini-prompt-blocked-safety.json', call: 'images', outcome: { fails: noOutput('image', true) } },
];

/** The width a PNG or JPEG header declares, read here on its own. */
function widthOf(image: GeneratedImage): number {
  const bytes = Buffer.from(image.bytes);
  if (image.mimeType === 'image/png') return bytes.readUInt32BE(16);
  for (let at = 2; at < bytes.length; at += 2 + bytes.readUInt16BE(at + 2)) {
    const marker = bytes.readUInt16BE(at);
    // Start of frame (baseline or progressive): precision, height, width.
    if (marker === 0xffc0 || marker === 0xffc2) return bytes.readUInt16BE(at + 7);
  }
  throw new Error('no JPEG frame header');
}

async function replay(payload: RealPayload, call: Call): Promise<unknown> {
  const server = await startReplay(payload.answer);
  const client = new GenAiClient({ baseUrl: server.url, apiKey: KEY, retryBaseDelayMs: 1, retryMaxDelayMs: 5 });
  try {
    switch (call) {
      case 'chat': {
        const stream = client.streamMessage({
          model: 'claude-replay',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'Hello' }],
        });
        let streamed = '';
        for await (const delta of stream.textDeltas()) streamed += delta;
        const final = await stream.finalMessage();
        expect(final.text).toBe(streamed);
        return final;
      }
      case 'text':
        return { text: await client.generateText('gemini-replay', 'Hello') };
      case 'images':
        return { images: await client.generateImages('gemini-image-replay', { prompt: 'an axolotl' }) };
    }
  } finally {
    await client.close();
    await server.close();
  }
}

const real = realPayloadsForTests();

if (real !== undefined) {
  const payloads = new Map(real.map((payload) => [payload.name, payload]));

  describe('GenAiClient replaying the real services', () => {
    it('has a case for every payload of the two services', () => {
      const covered = new Set(CASES.map((c) => c.payload));
      expect([...payloads.keys()].filter((name) => !covered.has(name))).toEqual([]);
    });

    it.each(CASES.map((c) => ({ ...c, title: `${c.call}: ${c.payload}` })))(
      '$title',
      async ({ payload: name, call, outcome }) => {
        const payload = payloads.get(name);
        if (payload === undefined) throw new Error(`${name} is not among the real payloads`);
        const result = await replay(payload, call).then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        if ('fails' in outcome) {
          expect(result.ok, 'the call fails').toBe(false);
          if (!result.ok) outcome.fails(result.error);
          return;
        }
        if (!result.ok) throw result.error;
        if ('reply' in outcome) {
          const value = result.value as { text: string; usage?: object; stopReason?: string; toolUses?: ToolUse[] };
          expect(value.text).toBe(outcome.reply);
          if (outcome.usage !== undefined) expect(value.usage).toMatchObject(outcome.usage);
          if (outcome.stopReason !== undefined) expect(value.stopReason).toBe(outcome.stopReason);
          // Every reply of the messages operation says which tool calls it made, none included.
          if (call === 'chat') expect(value.toolUses).toEqual(outcome.toolUses ?? []);
          return;
        }
        const { images } = result.value as { images: GeneratedImage[] };
        const seen = await Promise.all(
          images.map(async (image) => {
            expect((await fileTypeFromBuffer(image.bytes))?.mime).toBe(image.mimeType);
            return { mimeType: image.mimeType, width: widthOf(image) };
          }),
        );
        expect(seen).toEqual(outcome.images);
      },
    );
  });
}
