import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASPECT_RATIOS } from './images.js';
import { startEmulator } from './server.js';
import type { Emulator } from './server.js';
import { postJson, readUntilCut, rgbPixels } from './http-test-client.js';

const KEY = 'test-key';
const TEXT = { 'x-goog-api-key': KEY };
const IMAGE = { authorization: `Bearer ${KEY}` };

interface InlineData {
  mimeType: string;
  data: string;
}
interface Part {
  text?: string;
  inlineData?: InlineData;
  thought?: boolean;
}
interface Candidate {
  content?: { parts: Part[]; role: string };
  finishReason: string;
  index: number;
  safetyRatings?: { category?: string; probability?: string; blocked?: boolean }[];
}
interface GenerateContentResponse {
  candidates?: Candidate[];
  promptFeedback?: { blockReason: string; safetyRatings: { blocked?: boolean }[] };
  usageMetadata: { promptTokenCount: number; totalTokenCount: number };
  modelVersion: string;
  responseId: string;
}
interface GoogleErrorBody {
  error: { code: number; message: string; status: string };
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ apiKey: KEY });
});
afterAll(() => emulator.close());

function endpoint(model: string): string {
  return `${emulator.url}/v1beta/models/${model}:generateContent`;
}

function textRequest(text: string, extra: object = {}) {
  return { contents: [{ role: 'user', parts: [{ text }] }], ...extra };
}

function imageRequest(text: string, aspectRatio?: string, extra: object = {}) {
  return {
    contents: [{ role: 'user', parts: [{ text }] }],
    generationConfig: {
      responseModalities: ['TEXT', 'IMAGE'],
      ...(aspectRatio ? { imageConfig: { aspectRatio } } : {}),
    },
    ...extra,
  };
}

function editRequest(instruction: string, image: Buffer, mimeType: string, extra: object = {}) {
  return {
    contents: [
      { role: 'user', parts: [{ text: instruction }, { inlineData: { mimeType, data: image.toString('base64') } }] },
    ],
    generationConfig: { responseModalities: ['IMAGE'] },
    ...extra,
  };
}

async function ok(response: Response): Promise<GenerateContentResponse> {
  expect(response.status).toBe(200);
  return (await response.json()) as GenerateContentResponse;
}

async function failure(response: Response, code: number, status: string): Promise<string> {
  expect(response.status).toBe(code);
  const body = (await response.json()) as GoogleErrorBody;
  expect(body.error).toMatchObject({ code, status });
  expect(typeof body.error.message).toBe('string');
  return body.error.message;
}

/** The answer's own parts: what is not marked as the model's thoughts. */
function answerParts(candidate: Candidate | undefined): Part[] {
  return (candidate?.content?.parts ?? []).filter((part) => part.thought !== true);
}

function inlineImages(body: GenerateContentResponse): InlineData[] {
  return (body.candidates ?? []).flatMap((candidate) =>
    answerParts(candidate).flatMap((part) => (part.inlineData ? [part.inlineData] : [])),
  );
}

function firstImage(body: GenerateContentResponse): { mimeType: string; bytes: Buffer } {
  const [image] = inlineImages(body);
  if (!image) throw new Error('no inlineData in the response');
  return { mimeType: image.mimeType, bytes: Buffer.from(image.data, 'base64') };
}

async function sampleImage(format: 'png' | 'jpeg' | 'webp', width = 64, height = 48): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i += 3) {
    const pixel = i / 3;
    raw[i] = (pixel * 7) % 256;
    raw[i + 1] = 40;
    raw[i + 2] = (pixel % width) * 3;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

describe('generate-content wire rules', () => {
  it('answers a text request sent with x-goog-api-key', async () => {
    const body = await ok(await postJson(endpoint('gemini-2.5-flash'), textRequest('tell me about otters'), TEXT));
    expect(body.candidates).toHaveLength(1);
    const [candidate] = body.candidates ?? [];
    expect(candidate?.finishReason).toBe('STOP');
    expect(answerParts(candidate)[0]?.text).toContain('"tell me about otters"');
    expect(answerParts(candidate)[0]?.text).not.toContain('earlier');
    expect(body.usageMetadata.totalTokenCount).toBeGreaterThan(body.usageMetadata.promptTokenCount);
    expect(body.modelVersion).toBe('gemini-2.5-flash');
    expect(body.responseId).toMatch(/\S/);
  });

  it('says how many turns came before the question', async () => {
    const conversation = {
      contents: [
        { role: 'user', parts: [{ text: 'what is a tide?' }] },
        { role: 'model', parts: [{ text: 'the sea rising' }] },
        { role: 'user', parts: [{ text: 'and a wave?' }] },
      ],
    };
    const body = await ok(await postJson(endpoint('gemini-2.5-flash'), conversation, TEXT));
    expect(answerParts(body.candidates?.[0])[0]?.text).toMatch(
      /^You said: "and a wave\?"\. \(2 earlier messages in this conversation\) /,
    );
  });

  it('refuses a request without credentials with 403', async () => {
    await failure(await postJson(endpoint('gemini-2.5-flash'), textRequest('hi'), {}), 403, 'PERMISSION_DENIED');
    await failure(
      await postJson(endpoint('gemini-2.5-flash'), textRequest('hi'), { 'x-goog-api-key': ' ' }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('refuses the wrong credential style for each operation with 401', async () => {
    await failure(await postJson(endpoint('gemini-2.5-flash'), textRequest('hi'), IMAGE), 401, 'UNAUTHENTICATED');
    await failure(
      await postJson(endpoint('gemini-2.5-flash'), textRequest('hi'), { 'x-api-key': KEY }),
      401,
      'UNAUTHENTICATED',
    );
    await failure(await postJson(endpoint('gemini-2.5-flash'), imageRequest('hi'), TEXT), 401, 'UNAUTHENTICATED');
    await failure(
      await postJson(endpoint('gemini-2.5-flash'), imageRequest('hi'), { ...IMAGE, ...TEXT }),
      401,
      'UNAUTHENTICATED',
    );
    await failure(
      await postJson(endpoint('gemini-2.5-flash'), imageRequest('hi'), { authorization: `Basic ${KEY}` }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('refuses a wrong key with 401', async () => {
    await failure(
      await postJson(endpoint('gemini-2.5-flash'), textRequest('hi'), { 'x-goog-api-key': 'nope' }),
      401,
      'UNAUTHENTICATED',
    );
    await failure(
      await postJson(endpoint('gemini-2.5-flash'), imageRequest('hi'), { authorization: 'Bearer nope' }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('treats a request as image generation by model id, modality or imageConfig, needing Bearer', async () => {
    const byModel = textRequest('a lake');
    const byConfig = textRequest('a lake', { generationConfig: { imageConfig: { aspectRatio: '1:1' } } });
    const byModality = textRequest('a lake', { generationConfig: { responseModalities: ['image'] } });
    for (const [model, request] of [
      ['gemini-2.5-flash-image', byModel],
      ['gemini-2.5-flash', byConfig],
      ['gemini-2.5-flash', byModality],
    ] as const) {
      await failure(await postJson(endpoint(model), request, TEXT), 401, 'UNAUTHENTICATED');
      expect(inlineImages(await ok(await postJson(endpoint(model), request, IMAGE)))).toHaveLength(1);
    }
  });

  it.each([
    ['inline_data', { contents: [{ parts: [{ inline_data: { mimeType: 'image/png', data: 'AAAA' } }] }] }],
    ['mime_type', { contents: [{ parts: [{ inlineData: { mime_type: 'image/png', data: 'AAAA' } }] }] }],
    ['generation_config', { contents: [{ parts: [{ text: 'x' }] }], generation_config: {} }],
    [
      'system_instruction',
      { contents: [{ parts: [{ text: 'x' }] }], system_instruction: { parts: [{ text: 'be kind' }] } },
    ],
    ['safety_settings', { contents: [{ parts: [{ text: 'x' }] }], safety_settings: [] }],
    [
      'response_modalities',
      { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { response_modalities: ['IMAGE'] } },
    ],
    ['image_config', { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { image_config: {} } }],
    [
      'aspect_ratio',
      { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { imageConfig: { aspect_ratio: '1:1' } } },
    ],
  ])('refuses snake_case %s with 400 naming it', async (field, request) => {
    const message = await failure(
      await postJson(endpoint('gemini-2.5-flash-image'), request, IMAGE),
      400,
      'INVALID_ARGUMENT',
    );
    expect(message).toContain(`"${field}"`);
  });

  it('accepts snake_case names inside a response schema, which are the caller’s own', async () => {
    const request = textRequest('json please', {
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { first_name: { type: 'STRING' } } },
      },
    });
    await ok(await postJson(endpoint('gemini-2.5-flash'), request, TEXT));
  });

  it('refuses Base64 with a data-URL prefix or that is not Base64', async () => {
    const png = (await sampleImage('png')).toString('base64');
    const withPrefix = {
      contents: [
        {
          parts: [
            { text: 'grayscale' },
            { inlineData: { mimeType: 'image/png', data: `data:image/png;base64,${png}` } },
          ],
        },
      ],
    };
    const notBase64 = {
      contents: [{ parts: [{ text: 'grayscale' }, { inlineData: { mimeType: 'image/png', data: 'not base64!' } }] }],
    };
    expect(
      await failure(await postJson(endpoint('gemini-2.5-flash-image'), withPrefix, IMAGE), 400, 'INVALID_ARGUMENT'),
    ).toMatch(/data URL/);
    await failure(await postJson(endpoint('gemini-2.5-flash-image'), notBase64, IMAGE), 400, 'INVALID_ARGUMENT');
  });

  it('answers 404 for an unknown model, 400 for a bad aspect ratio, bad JSON or a missing field', async () => {
    await failure(await postJson(endpoint('gemini-not-found'), textRequest('hi'), TEXT), 404, 'NOT_FOUND');
    await failure(
      await postJson(endpoint('gemini-2.5-flash-image'), imageRequest('hi', '7:5'), IMAGE),
      400,
      'INVALID_ARGUMENT',
    );
    await failure(await postJson(endpoint('gemini-2.5-flash'), '{"contents": [', TEXT), 400, 'INVALID_ARGUMENT');
    await failure(
      await postJson(endpoint('gemini-2.5-flash'), { generationConfig: {} }, TEXT),
      400,
      'INVALID_ARGUMENT',
    );
  });

  it('is deterministic for text and stops at maxOutputTokens', async () => {
    const first = await ok(await postJson(endpoint('gemini-2.5-flash'), textRequest('same prompt'), TEXT));
    const second = await ok(await postJson(endpoint('gemini-2.5-flash'), textRequest('same prompt'), TEXT));
    expect(second.candidates?.[0]?.content?.parts).toEqual(first.candidates?.[0]?.content?.parts);
    const cut = await ok(
      await postJson(
        endpoint('gemini-2.5-flash'),
        textRequest('same prompt', { generationConfig: { maxOutputTokens: 5 } }),
        TEXT,
      ),
    );
    expect(cut.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
    expect(answerParts(cut.candidates?.[0])[0]?.text).toHaveLength(20);
  });
});

describe('image generation', () => {
  it.each(ASPECT_RATIOS)('makes a decodable PNG at %s', async (ratio) => {
    const { mimeType, bytes } = firstImage(
      await ok(await postJson(endpoint('gemini-2.5-flash-image'), imageRequest('a harbour', ratio), IMAGE)),
    );
    expect(mimeType).toBe('image/png');
    const metadata = await sharp(bytes).metadata();
    expect(metadata.format).toBe('png');
    const [w, h] = ratio.split(':').map(Number) as [number, number];
    expect(Math.abs(metadata.width / metadata.height / (w / h) - 1)).toBeLessThan(0.02);
    expect(metadata.width * metadata.height).toBeGreaterThan(60_000);
    expect(metadata.width * metadata.height).toBeLessThan(72_000);
    if (ratio === '1:1') expect([metadata.width, metadata.height]).toEqual([256, 256]);
  });

  it('puts a text part before the image and sets the format from the prompt or the model id', async () => {
    const cases = [
      ['gemini-2.5-flash-image', 'a fox [format:jpeg]', 'image/jpeg', 'jpeg'],
      ['gemini-2.5-flash-image', 'a fox [format:webp]', 'image/webp', 'webp'],
      ['gemini-2.5-flash-image-jpeg', 'a fox', 'image/jpeg', 'jpeg'],
      ['gemini-2.5-flash-image-webp', 'a fox', 'image/webp', 'webp'],
      ['gemini-2.5-flash-image-webp', 'a fox [format:png]', 'image/png', 'png'],
    ] as const;
    for (const [model, prompt, mimeType, format] of cases) {
      const body = await ok(await postJson(endpoint(model), imageRequest(prompt), IMAGE));
      expect(answerParts(body.candidates?.[0])[0]?.text).toContain('a fox');
      const image = firstImage(body);
      expect(image.mimeType).toBe(mimeType);
      expect((await sharp(image.bytes).metadata()).format).toBe(format);
    }
  });

  it('returns [images:N] parts and candidateCount candidates', async () => {
    const parts = await ok(
      await postJson(endpoint('gemini-2.5-flash-image'), imageRequest('three owls [images:3]'), IMAGE),
    );
    expect(parts.candidates).toHaveLength(1);
    expect(inlineImages(parts)).toHaveLength(3);
    const request = imageRequest('two owls');
    const two = await ok(
      await postJson(
        endpoint('gemini-2.5-flash-image'),
        { ...request, generationConfig: { ...request.generationConfig, candidateCount: 2 } },
        IMAGE,
      ),
    );
    expect(two.candidates?.map((candidate) => candidate.index)).toEqual([0, 1]);
    expect(two.candidates?.map((candidate) => answerParts(candidate).filter((part) => part.inlineData).length)).toEqual(
      [1, 1],
    );
  });

  it('draws the same picture for the same prompt and another for another prompt', async () => {
    const draw = async (prompt: string) =>
      firstImage(await ok(await postJson(endpoint('gemini-2.5-flash-image'), imageRequest(prompt, '4:3'), IMAGE)))
        .bytes;
    const [first, again, other] = [await draw('a red kite'), await draw('a red kite'), await draw('a blue kite')];
    expect(again.equals(first)).toBe(true);
    expect(other.equals(first)).toBe(false);
  });

  it('draws another picture for another seed (a re-roll), the same for the same seed', async () => {
    const draw = async (seed: number) =>
      firstImage(
        await ok(
          await postJson(
            endpoint('gemini-2.5-flash-image'),
            { ...imageRequest('a red kite'), generationConfig: { responseModalities: ['IMAGE'], seed } },
            IMAGE,
          ),
        ),
      ).bytes;
    const [first, again, reroll] = [await draw(1), await draw(1), await draw(2)];
    expect(again.equals(first)).toBe(true);
    expect(reroll.equals(first)).toBe(false);
    const [a, b] = [await rgbPixels(first), await rgbPixels(reroll)];
    let difference = 0;
    for (let i = 0; i < a.data.length; i++) difference += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
    expect(difference / a.data.length).toBeGreaterThan(10);
  });

  it('edits differently for another seed (a second variation)', async () => {
    const input = await sampleImage('png');
    const vary = async (seed: number) =>
      firstImage(
        await ok(
          await postJson(
            endpoint('gemini-2.5-flash-image'),
            editRequest('Make a close variation of this image', input, 'image/png', {
              generationConfig: { responseModalities: ['IMAGE'], seed },
            }),
            IMAGE,
          ),
        ),
      ).bytes;
    expect((await vary(1)).equals(await vary(2))).toBe(false);
  });

  it('makes [mb:N] images of at least N MiB', async () => {
    for (const format of ['png', 'jpeg', 'webp']) {
      const body = await ok(
        await postJson(
          endpoint('gemini-2.5-flash-image'),
          imageRequest(`bench [mb:1] [format:${format}]`, '3:2'),
          IMAGE,
        ),
      );
      const image = firstImage(body);
      expect(image.bytes.length).toBeGreaterThanOrEqual(1024 * 1024);
      expect((await sharp(image.bytes).metadata()).format).toBe(format);
    }
  });
});

describe('image editing', () => {
  it('turns an image grey in the same format', async () => {
    const input = await sampleImage('png');
    const body = await ok(
      await postJson(endpoint('gemini-2.5-flash-image'), editRequest('make it grayscale', input, 'image/png'), IMAGE),
    );
    const output = firstImage(body);
    expect(output.mimeType).toBe('image/png');
    const { data } = await rgbPixels(output.bytes);
    for (let i = 0; i < data.length; i += 3 * 97) {
      expect(data[i]).toBe(data[i + 1]);
      expect(data[i + 1]).toBe(data[i + 2]);
    }
  });

  it('inverts a JPEG and answers JPEG', async () => {
    const input = await sampleImage('jpeg');
    const output = firstImage(
      await ok(
        await postJson(
          endpoint('gemini-2.5-flash-image'),
          editRequest('invert the colours', input, 'image/jpeg'),
          IMAGE,
        ),
      ),
    );
    expect(output.mimeType).toBe('image/jpeg');
    const before = await rgbPixels(input);
    const after = await rgbPixels(output.bytes);
    const [b, a] = [before.data[0] ?? 0, after.data[0] ?? 0];
    expect(Math.abs(b + a - 255)).toBeLessThan(16);
  });

  it('rotates, mirrors and tints a WebP, staying WebP', async () => {
    const input = await sampleImage('webp', 64, 48);
    const rotated = firstImage(
      await ok(
        await postJson(endpoint('gemini-2.5-flash-image'), editRequest('rotate it', input, 'image/webp'), IMAGE),
      ),
    );
    expect(rotated.mimeType).toBe('image/webp');
    expect(await sharp(rotated.bytes).metadata()).toMatchObject({ format: 'webp', width: 48, height: 64 });
    for (const instruction of ['mirror it', 'flip it', 'blur it', 'make it look nicer']) {
      const edited = firstImage(
        await ok(
          await postJson(endpoint('gemini-2.5-flash-image'), editRequest(instruction, input, 'image/webp'), IMAGE),
        ),
      );
      expect(edited.mimeType).toBe('image/webp');
      const [before, after] = [await rgbPixels(input), await rgbPixels(edited.bytes)];
      expect([after.width, after.height]).toEqual([64, 48]);
      let difference = 0;
      for (let i = 0; i < before.data.length; i++) difference += Math.abs((before.data[i] ?? 0) - (after.data[i] ?? 0));
      expect(difference / before.data.length).toBeGreaterThan(5);
    }
  });

  it('follows the aspect ratio asked for an edit', async () => {
    const input = await sampleImage('png', 64, 64);
    const request = editRequest('grayscale', input, 'image/png', {
      generationConfig: { imageConfig: { aspectRatio: '16:9' } },
    });
    const output = firstImage(await ok(await postJson(endpoint('gemini-2.5-flash-image'), request, IMAGE)));
    const metadata = await sharp(output.bytes).metadata();
    expect(Math.abs(metadata.width / metadata.height / (16 / 9) - 1)).toBeLessThan(0.02);
  });

  it('refuses an input it cannot decode with 400', async () => {
    const request = editRequest('grayscale', Buffer.from('definitely not an image'), 'image/png');
    await failure(await postJson(endpoint('gemini-2.5-flash-image'), request, IMAGE), 400, 'INVALID_ARGUMENT');
  });
});

describe('shapes of the real service', () => {
  it('puts the thoughts of a thinking model first, marked as such, and pads the ratings with empty entries', async () => {
    const reply = await ok(await postJson(endpoint('gemini-2.5-flash'), textRequest('why is the sky blue?'), TEXT));
    const [candidate] = reply.candidates ?? [];
    expect(candidate?.content?.parts[0]).toMatchObject({ thought: true, text: expect.stringMatching(/\S/) });
    expect(answerParts(candidate)).toHaveLength(1);
    expect(candidate?.safetyRatings).toContainEqual({});

    const drawn = await ok(await postJson(endpoint('gemini-2.5-flash-image'), imageRequest('a kite'), IMAGE));
    const thoughts = (drawn.candidates?.[0]?.content?.parts ?? []).filter((part) => part.thought === true);
    const draft = thoughts.find((part) => part.inlineData !== undefined)?.inlineData;
    expect((await sharp(Buffer.from(draft?.data ?? '', 'base64')).metadata()).width).toBeLessThan(100);
    expect(inlineImages(drawn)).toHaveLength(1);
    expect(drawn.candidates?.[0]?.safetyRatings).toContainEqual({});
  });
});

describe('generate-content faults', () => {
  const text = (prompt: string, headers: Record<string, string> = {}) =>
    postJson(endpoint('gemini-2.5-flash'), textRequest(prompt), { ...TEXT, ...headers });
  const image = (prompt: string, headers: Record<string, string> = {}) =>
    postJson(endpoint('gemini-2.5-flash-image'), imageRequest(prompt), { ...IMAGE, ...headers });

  it('answers 429 with retry-after, by default 1 s or as set', async () => {
    const response = await text('busy [fault:429]');
    expect(response.headers.get('retry-after')).toBe('1');
    await failure(response, 429, 'RESOURCE_EXHAUSTED');
    const zero = await text('busy [fault:429=0]');
    expect(zero.headers.get('retry-after')).toBe('0');
    await failure(zero, 429, 'RESOURCE_EXHAUSTED');
  });

  it('answers 500, 503, 529 and treats stream-error as 500', async () => {
    await failure(await text('x [fault:500]'), 500, 'INTERNAL');
    await failure(await text('x [fault:503]'), 503, 'UNAVAILABLE');
    expect(await failure(await image('x [fault:529]'), 529, 'UNAVAILABLE')).toMatch(/overloaded/);
    await failure(await text('x [fault:stream-error]'), 500, 'INTERNAL');
  });

  it('fails only the first N identical requests with KIND*N, each attempt failing without it', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await image('retry me [fault:503*2]')).status);
    expect(statuses).toEqual([503, 503, 200]);
    const always: number[] = [];
    for (let i = 0; i < 3; i++) always.push((await text('always [fault:500]')).status);
    expect(always).toEqual([500, 500, 500]);
  });

  it('stops for safety after some text for safety-stop', async () => {
    const body = await ok(await text('tell me [fault:safety-stop] [len:300]'));
    const [candidate] = body.candidates ?? [];
    expect(candidate?.finishReason).toBe('SAFETY');
    expect(answerParts(candidate)[0]?.text?.length).toBeGreaterThan(100);
    const drawn = await ok(await image('draw [fault:safety-stop]'));
    expect(drawn.candidates?.[0]?.finishReason).toBe('SAFETY');
    expect(inlineImages(drawn)).toHaveLength(0);
  });

  it('sends a 500 page of huge-error=MB, and answers without end for endless-line and only-pings', async () => {
    const huge = await image('x [fault:huge-error=1]');
    expect(huge.status).toBe(500);
    expect((await huge.arrayBuffer()).byteLength).toBe(1024 * 1024);

    const endless = await text('x [fault:endless-line]');
    expect(endless.status).toBe(200);
    const reader = endless.body?.getReader();
    let received = 0;
    while (received < 1024 * 1024) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) throw new Error('the endless body ended');
      received += chunk.value.byteLength;
    }
    await reader?.cancel();

    const pings = await text('x [fault:only-pings] [delay:10]');
    const spaces = pings.body?.getReader();
    let body = '';
    while (!/ {3}$/.test(body)) {
      const chunk = await spaces?.read();
      if (chunk === undefined || chunk.done) throw new Error('the idle body ended');
      body += new TextDecoder().decode(chunk.value);
    }
    await spaces?.cancel();
    expect(body).toMatch(/^\{"candidates":\[\{"content":\{"role":"model","parts":\[\{"text":" +$/);
  });

  it('takes the fault from the header over the prompt, and refuses an unknown one', async () => {
    await failure(await text('x [fault:500]', { 'x-emulator-fault': '503' }), 503, 'UNAVAILABLE');
    await failure(await text('x', { 'x-emulator-fault': 'teapot' }), 400, 'INVALID_ARGUMENT');
  });

  it('resets the connection, cuts the body, and answers late but normally when slow', async () => {
    await expect(text('x [fault:reset]')).rejects.toThrow();
    const cut = await text('x [fault:stream-cut]');
    expect(cut.status).toBe(200);
    expect((await readUntilCut(cut)).failed).toBe(true);
    const slow = await ok(await image('x [fault:slow=50]'));
    expect(inlineImages(slow)).toHaveLength(1);
  });

  it('blocks the prompt for safety with promptFeedback and no candidates', async () => {
    const body = await ok(await image('x [fault:safety]'));
    expect(body.candidates).toBeUndefined();
    expect(body.promptFeedback?.blockReason).toBe('SAFETY');
    expect(body.promptFeedback?.safetyRatings.some((rating) => rating.blocked === true)).toBe(true);
  });

  it('answers a candidate without an image for no-image', async () => {
    const plain = await ok(await image('x [fault:no-image]'));
    expect(plain.candidates?.[0]?.finishReason).toBe('NO_IMAGE');
    expect(answerParts(plain.candidates?.[0])[0]?.text).toMatch(/\S/);
    expect(inlineImages(plain)).toHaveLength(0);
    const unsafe = await ok(await image('x', { 'x-emulator-fault': 'no-image=IMAGE_SAFETY' }));
    expect(unsafe.candidates?.[0]?.finishReason).toBe('IMAGE_SAFETY');
    expect(unsafe.candidates?.[0]?.safetyRatings?.[0]?.blocked).toBe(true);
    expect(inlineImages(unsafe)).toHaveLength(0);
  });

  it('sends the image only as a Markdown data URL for data-url', async () => {
    const body = await ok(await image('a moth [fault:data-url] [format:webp]'));
    expect(inlineImages(body)).toHaveLength(0);
    const parts = answerParts(body.candidates?.[0]);
    const match = /!\[image\]\(data:(image\/\w+);base64,([A-Za-z0-9+/=]+)\)/.exec(
      parts.map((part) => part.text ?? '').join(''),
    );
    expect(match?.[1]).toBe('image/webp');
    expect((await sharp(Buffer.from(match?.[2] ?? '', 'base64')).metadata()).format).toBe('webp');
  });

  it('sends inlineData that is not valid Base64 for bad-base64', async () => {
    const [data] = inlineImages(await ok(await image('a moth [fault:bad-base64]')));
    expect(data?.mimeType).toBe('image/png');
    expect(data?.data).not.toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
    await expect(sharp(Buffer.from(data?.data ?? '', 'base64')).metadata()).rejects.toThrow();
  });
});
