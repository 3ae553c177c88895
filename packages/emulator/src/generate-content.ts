import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { readDirectives } from './directives.js';
import type { Directives, ImageFormat } from './directives.js';
import { googleError, googleFaultError } from './errors.js';
import type { GoogleError } from './errors.js';
import type { EmulatorContext, Exchange } from './exchange.js';
import { applyConnectionFault } from './faults.js';
import type { Fault } from './faults.js';
import { sendEndlessJson, sendHugeErrorPage, sendJson, sendTruncatedJson } from './http-io.js';
import { UndecodableImageError, editImage } from './image-edits.js';
import { ASPECT_RATIOS, generateDraft, generateImage, isAspectRatio } from './images.js';
import type { AspectRatio, EncodedImage } from './images.js';
import { sha256Hex } from './seed.js';
import { estimateTokens, replyText } from './text.js';
import { base64Problem, checkCredentials, findSnakeCaseField } from './wire-checks.js';

/** The service's request size limit for inline data. */
const MAX_REQUEST_BYTES = 20 * 1024 * 1024;
const MAX_IMAGES = 8;
/** Roughly what the real service counts for one generated image. */
const IMAGE_TOKENS = 1290;

const Part = z.looseObject({
  text: z.string().optional(),
  inlineData: z.object({ mimeType: z.string().min(1), data: z.string() }).optional(),
});
const Content = z.looseObject({ role: z.string().optional(), parts: z.array(Part).min(1) });
const GenerateContentRequest = z.looseObject({
  contents: z.array(Content).min(1),
  generationConfig: z
    .looseObject({
      responseModalities: z.array(z.string()).optional(),
      candidateCount: z.number().int().min(1).max(MAX_IMAGES).optional(),
      maxOutputTokens: z.number().int().min(1).optional(),
      imageConfig: z.looseObject({ aspectRatio: z.string().optional() }).optional(),
      seed: z.number().int().optional(),
    })
    .optional(),
});
type GenerateContentRequest = z.infer<typeof GenerateContentRequest>;

const NEGLIGIBLE_RATINGS = [
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
].map((category) => ({ category, probability: 'NEGLIGIBLE' }));
/** The real service pads a candidate's ratings with empty entries. */
const CANDIDATE_RATINGS = [...NEGLIGIBLE_RATINGS, {}, {}];
/** Pauses of `[fault:only-pings]`' whitespace, at least. */
const MIN_PING_INTERVAL_MS = 10;

/** What a thinking model says before its answer, in a part marked as a thought: never a result. */
function thought(prompt: string) {
  return { text: `**Considering the request**\n\nWorking out how to answer "${prompt.trim()}".`, thought: true };
}

/** The opaque token thinking models attach to the parts of their answer (here derived from the prompt). */
function thoughtSignature(seed: string): string {
  return Buffer.from(sha256Hex(`signature:${seed}`), 'hex').toString('base64');
}

function sendError(exchange: Exchange, error: GoogleError): void {
  sendJson(exchange.res, error.httpStatus, error.body, error.headers);
}

function isImageRequest(model: string, request: GenerateContentRequest): boolean {
  const config = request.generationConfig;
  return (
    model.includes('image') ||
    (config?.responseModalities ?? []).some((modality) => modality.toUpperCase() === 'IMAGE') ||
    config?.imageConfig !== undefined
  );
}

function textParts(contents: GenerateContentRequest['contents']): string[] {
  return contents.flatMap((content) => content.parts.flatMap((part) => (part.text === undefined ? [] : [part.text])));
}

/** The prompt a reply answers: the text of the last user turn. */
function lastUserIndex(contents: GenerateContentRequest['contents']): number {
  return contents.findLastIndex((content) => content.role === undefined || content.role === 'user');
}

function lastUserText(contents: GenerateContentRequest['contents']): string {
  const turn = contents[lastUserIndex(contents)];
  return textParts(turn ? [turn] : []).join('\n');
}

function lastInlineImage(contents: GenerateContentRequest['contents']): Buffer | undefined {
  const part = contents.flatMap((content) => content.parts).findLast((candidate) => candidate.inlineData !== undefined);
  return part?.inlineData ? Buffer.from(part.inlineData.data, 'base64') : undefined;
}

function modelFormat(model: string): ImageFormat | undefined {
  const suffix = /-(png|jpeg|webp)$/.exec(model)?.[1];
  return suffix as ImageFormat | undefined;
}

function envelope(model: string, promptTokens: number, outputTokens: number) {
  return {
    usageMetadata: {
      promptTokenCount: promptTokens,
      candidatesTokenCount: outputTokens,
      totalTokenCount: promptTokens + outputTokens,
    },
    modelVersion: model,
    responseId: randomBytes(12).toString('base64url'),
  };
}

/** Invalid on purpose: characters outside the alphabet, and a shifted payload for lenient decoders. */
function corruptBase64(data: string): string {
  return `!Q${data}`;
}

/** The parts of an image answer: the model's thoughts and draft (marked as such), then its text and images. */
function imageParts(
  prompt: string,
  intro: string,
  draft: EncodedImage,
  images: EncodedImage[],
  fault: Fault | undefined,
) {
  const thoughts = [
    thought(prompt),
    { inlineData: { mimeType: draft.mimeType, data: draft.data.toString('base64') }, thought: true },
  ];
  const encoded = images.map((image) => ({ mimeType: image.mimeType, data: image.data.toString('base64') }));
  if (fault?.kind === 'data-url') {
    const markdown = encoded.map((image) => `![image](data:${image.mimeType};base64,${image.data})`);
    return [...thoughts, { text: [intro, ...markdown].join('\n\n') }];
  }
  return [
    ...thoughts,
    { text: intro },
    ...encoded.map((image, index) => ({
      inlineData: {
        mimeType: image.mimeType,
        data: fault?.kind === 'bad-base64' ? corruptBase64(image.data) : image.data,
      },
      thoughtSignature: thoughtSignature(`${prompt}#${index}`),
    })),
  ];
}

interface Validated {
  request: GenerateContentRequest;
  image: boolean;
  ratio: AspectRatio | undefined;
}

function validate(context: EmulatorContext, exchange: Exchange, model: string): Validated | GoogleError {
  const { headers, json } = exchange;
  if (!headers['x-goog-api-key'] && !headers.authorization && !headers['x-api-key']) {
    return googleError(
      403,
      'PERMISSION_DENIED',
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    );
  }
  if (exchange.rawBody.length > MAX_REQUEST_BYTES) {
    return googleError(400, 'INVALID_ARGUMENT', `Request payload size exceeds the limit: ${MAX_REQUEST_BYTES} bytes.`);
  }
  if (!json.ok) return googleError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. ${json.error}`);
  const snake = findSnakeCaseField(json.value);
  if (snake) {
    return googleError(
      400,
      'INVALID_ARGUMENT',
      `Invalid JSON payload received. Unknown name "${snake.name}" at '${snake.at}': Cannot find field. Field names are camelCase.`,
    );
  }
  const parsed = GenerateContentRequest.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return googleError(
      400,
      'INVALID_ARGUMENT',
      `Invalid value at '${issue?.path.map(String).join('.') ?? ''}': ${issue?.message ?? 'invalid request'}`,
    );
  }
  const request = parsed.data;
  const image = isImageRequest(model, request);
  const credentials = checkCredentials(headers, image ? 'bearer' : 'x-goog-api-key', {
    apiKey: context.apiKey,
    relax: context.relaxCredentials,
  });
  if (!credentials.ok) {
    return credentials.reason === 'missing'
      ? googleError(403, 'PERMISSION_DENIED', credentials.message)
      : googleError(401, 'UNAUTHENTICATED', credentials.message);
  }
  for (const part of request.contents.flatMap((content) => content.parts)) {
    const problem = part.inlineData && base64Problem(part.inlineData.data);
    if (problem) return googleError(400, 'INVALID_ARGUMENT', problem);
  }
  if (model.includes('not-found')) {
    return googleError(
      404,
      'NOT_FOUND',
      `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
    );
  }
  const ratio = request.generationConfig?.imageConfig?.aspectRatio;
  if (ratio !== undefined && !isAspectRatio(ratio)) {
    return googleError(
      400,
      'INVALID_ARGUMENT',
      `Unsupported aspect ratio "${ratio}"; use one of ${ASPECT_RATIOS.join(', ')}.`,
    );
  }
  return { request, image, ratio };
}

/** One list of images per candidate: edits of `source` when there is one, otherwise new pictures. */
async function images(
  validated: Validated,
  model: string,
  allText: string,
  directives: Directives,
  source: Buffer | undefined,
): Promise<EncodedImage[][] | GoogleError> {
  const { request, ratio } = validated;
  const candidates = request.generationConfig?.candidateCount ?? 1;
  // The caller's seed (a re-roll sends a fresh one) picks another picture for the same prompt.
  const seed = request.generationConfig?.seed;
  const seedText = seed === undefined ? '' : `~${seed}`;
  const perCandidate = Math.min(Math.max(directives.images ?? 1, 1), MAX_IMAGES);
  if (source) {
    try {
      const edited = await editImage(source, lastUserText(request.contents), { ratio, seed });
      return Array.from({ length: candidates }, () => Array.from({ length: perCandidate }, () => edited));
    } catch (error) {
      if (error instanceof UndecodableImageError) {
        return googleError(
          400,
          'INVALID_ARGUMENT',
          'Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
        );
      }
      throw error;
    }
  }
  const format = directives.format ?? modelFormat(model) ?? 'png';
  const minBytes = (directives.mb ?? 0) * 1024 * 1024;
  return Promise.all(
    Array.from({ length: candidates }, (_, candidate) =>
      Promise.all(
        Array.from({ length: perCandidate }, (_, index) =>
          generateImage({
            seed: `${allText}#${candidate}.${index}${seedText}`,
            ratio: ratio ?? '1:1',
            format,
            minBytes,
          }),
        ),
      ),
    ),
  );
}

export async function handleGenerateContent(
  context: EmulatorContext,
  exchange: Exchange,
  model: string,
): Promise<void> {
  const validated = validate(context, exchange, model);
  if ('httpStatus' in validated) return sendError(exchange, validated);
  const { request } = validated;
  const allText = textParts(request.contents).join('\n');
  const prompt = lastUserText(request.contents);
  const directives = readDirectives(allText);
  const choice = context.faults.choose(
    exchange.headers['x-emulator-fault'],
    directives.fault,
    exchange.path,
    exchange.rawBody,
  );
  if (!choice.ok) return sendError(exchange, googleError(400, 'INVALID_ARGUMENT', choice.message));
  const fault = choice.fault;
  if (!(await applyConnectionFault(fault, exchange.req, exchange.res, exchange.signal))) return;
  if (fault?.kind === 'huge-error') {
    return sendHugeErrorPage(exchange.res, fault.megabytes * 1024 * 1024, exchange.signal);
  }
  if (fault?.kind === 'endless-line' || fault?.kind === 'only-pings') {
    const intervalMs = Math.max(directives.delay ?? context.streamDelayMs, MIN_PING_INTERVAL_MS);
    const start = '{"candidates":[{"content":{"role":"model","parts":[{"text":"';
    return sendEndlessJson(exchange.res, fault.kind, start, intervalMs, exchange.signal);
  }
  if (fault?.kind === 'status') return sendError(exchange, googleFaultError(fault.status, fault.retryAfterSeconds));
  if (fault?.kind === 'stream-error') return sendError(exchange, googleFaultError(500, 0));

  const promptTokens = estimateTokens(allText);
  if (fault?.kind === 'safety') {
    const safetyRatings = NEGLIGIBLE_RATINGS.map((rating) =>
      rating.category === 'HARM_CATEGORY_DANGEROUS_CONTENT'
        ? { ...rating, probability: 'HIGH', blocked: true }
        : rating,
    );
    return sendJson(exchange.res, 200, {
      promptFeedback: { blockReason: 'SAFETY', safetyRatings },
      ...envelope(model, promptTokens, 0),
    });
  }
  if (fault?.kind === 'no-image') {
    const candidate = {
      content: { parts: [{ text: 'I was unable to generate an image for this request.' }], role: 'model' },
      finishReason: fault.finishReason,
      index: 0,
      ...(fault.finishReason === 'NO_IMAGE'
        ? {}
        : { safetyRatings: [{ category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'HIGH', blocked: true }] }),
    };
    return sendJson(exchange.res, 200, { candidates: [candidate], ...envelope(model, promptTokens, 12) });
  }
  if (fault?.kind === 'safety-stop') {
    // Some text, then a stop for safety (an image request gets no image).
    const full = validated.image
      ? `Here is the start of "${prompt.trim()}".`
      : replyText(prompt, directives.len, Math.max(0, lastUserIndex(request.contents)));
    const candidate = {
      content: { parts: [thought(prompt), { text: full.slice(0, Math.ceil(full.length / 2)) }], role: 'model' },
      finishReason: 'SAFETY',
      index: 0,
      safetyRatings: NEGLIGIBLE_RATINGS.map((rating) =>
        rating.category === 'HARM_CATEGORY_DANGEROUS_CONTENT' ? { ...rating, probability: 'MEDIUM' } : rating,
      ),
    };
    return sendJson(exchange.res, 200, { candidates: [candidate], ...envelope(model, promptTokens, 12) });
  }

  let body: object;
  if (validated.image) {
    const source = lastInlineImage(request.contents);
    const produced = await images(validated, model, allText, directives, source);
    if ('httpStatus' in produced) return sendError(exchange, produced);
    const intro = source
      ? `Here is the edited image ("${prompt.trim()}").`
      : `Here is the image for "${prompt.trim()}".`;
    const draft = await generateDraft(allText, validated.ratio ?? '1:1');
    const candidates = produced.map((candidateImages, index) => ({
      content: { parts: imageParts(prompt, intro, draft, candidateImages, fault), role: 'model' },
      finishReason: 'STOP',
      index,
      safetyRatings: CANDIDATE_RATINGS,
    }));
    body = { candidates, ...envelope(model, promptTokens, produced.flat().length * IMAGE_TOKENS) };
  } else {
    const maxChars = (request.generationConfig?.maxOutputTokens ?? Number.POSITIVE_INFINITY) * 4;
    const full = replyText(prompt, directives.len, Math.max(0, lastUserIndex(request.contents)));
    const text = full.slice(0, maxChars);
    const candidates = Array.from({ length: request.generationConfig?.candidateCount ?? 1 }, (_, index) => ({
      content: { parts: [thought(prompt), { text, thoughtSignature: thoughtSignature(text) }], role: 'model' },
      finishReason: text.length < full.length ? 'MAX_TOKENS' : 'STOP',
      index,
      safetyRatings: CANDIDATE_RATINGS,
    }));
    body = { candidates, ...envelope(model, promptTokens, estimateTokens(text) * candidates.length) };
  }
  if (fault?.kind === 'stream-cut') return sendTruncatedJson(exchange.res, body);
  sendJson(exchange.res, 200, body);
}
