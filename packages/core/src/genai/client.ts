import { Readable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { BackoffGate } from './backoff-gate.js';
import { capBytes, declaredLength, readCapped, readHead } from './bounded-body.js';
import { releaseBytes } from './owned-bytes.js';
import { Deadline } from './deadline.js';
import {
  BadResponseError,
  NetworkError,
  ResponseTooLargeError,
  SAFETY_FINISH_REASONS,
  SafetyStopError,
  ServiceError,
  type ServiceOperation,
  ServiceTimeoutError,
  StreamCutError,
} from './errors.js';
import { httpError } from './http-error.js';
import { extractImages } from './images.js';
import { parseJsonBody } from './json-body.js';
import { INLINE_IMAGE, requestBody, type StreamedBody } from './request-body.js';
import { AccumulatingMessageStream, type MessageStream } from './message-stream.js';
import { noOutputError } from './no-output.js';
import { systemClock } from '../time/clock.js';
import { processTurns } from '../time/loop-turns.js';
import { isConnectionReset, isPushback, isRetryableStatus, retryDelayMs } from './retry-policy.js';
import { GenerateContentResponseSchema } from './schemas.js';
import { DEFAULT_MAX_EVENT_CHARS, parseMessageEvents } from './sse.js';
import { readReply } from './text.js';
import type {
  AspectRatio,
  GenerateContentRequest,
  GenerateContentResponse,
  GeneratedImage,
  InputImage,
  MessagesRequest,
  MessageStreamEvent,
} from './types.js';
import { generateContentPath, joinPath, MESSAGES_PATH, parseBaseUrl, type ServiceEndpoint } from './url.js';

export interface GenAiClientOptions {
  /** Service base address; a path prefix is kept, with or without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  logger?: Logger;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  imageTimeoutMs?: number;
  /** Text replies; for streams, the wait for the first byte and between content events (pings do not count). */
  textTimeoutMs?: number;
  /** The longest a stream may run, content or not (default 10 minutes). */
  streamTimeoutMs?: number;
  /**
   * The largest answer accepted, in bytes: a generate-content body (its images
   * as Base64 included) or a whole stream (default 32 MiB). Past it the call
   * fails with ResponseTooLargeError.
   */
  maxResponseBytes?: number;
  /** The largest line or event of a stream, in characters (default 1 MiB). */
  maxStreamEventChars?: number;
  /** Keep-alive connections to the service (default 16). */
  connections?: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
export const DEFAULT_STREAM_TIMEOUT_MS = 10 * 60_000;
/** An error answer is read this far: the service's own are a few hundred bytes, a proxy's page may be megabytes. */
const MAX_ERROR_BODY_BYTES = 8 * 1024;

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call (for streams: to first byte and between events). */
  timeoutMs?: number;
}

export type GenerateContentAuth = 'api-key' | 'bearer';

export interface ImageInput {
  prompt: string;
  aspectRatio?: AspectRatio;
  /** The image to edit; the prompt is then the edit instruction. */
  image?: InputImage;
  /** Candidates to ask for (generationConfig.candidateCount). */
  count?: number;
  /** generationConfig.seed: set, a deterministic service (the emulator) answers another picture per seed. */
  seed?: number;
}

interface CallContext {
  operation: ServiceOperation;
  model: string;
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

const ANTHROPIC_VERSION = '2023-06-01';

/** Where an image answer carries its Base64 (`inlineData.data`). */
const IMAGE_DATA_KEYS: ReadonlySet<string> = new Set(['data']);

/** A generate-content answer and the body it was read from (an image's Base64 may be views on it). */
interface Answer {
  response: GenerateContentResponse;
  body: Buffer;
}

export class GenAiClient {
  readonly #endpoint: ServiceEndpoint;
  readonly #pool: Pool;
  readonly #apiKey: string;
  readonly #logger: Logger;
  readonly #maxRetries: number;
  readonly #backoff: { baseDelayMs: number; maxDelayMs: number };
  readonly #imageTimeoutMs: number;
  readonly #textTimeoutMs: number;
  readonly #streamTimeoutMs: number;
  readonly #maxResponseBytes: number;
  readonly #maxStreamEventChars: number;
  /** Held shut while the service pushes back; every attempt of every call passes it first. */
  readonly #gate: BackoffGate;

  constructor(options: GenAiClientOptions) {
    this.#endpoint = parseBaseUrl(options.baseUrl);
    this.#apiKey = options.apiKey;
    this.#logger = (options.logger ?? pino({ level: 'silent' })).child({ component: 'genai' });
    this.#maxRetries = options.maxRetries ?? 3;
    this.#backoff = { baseDelayMs: options.retryBaseDelayMs ?? 500, maxDelayMs: options.retryMaxDelayMs ?? 20_000 };
    this.#imageTimeoutMs = options.imageTimeoutMs ?? 120_000;
    this.#textTimeoutMs = options.textTimeoutMs ?? 60_000;
    this.#streamTimeoutMs = options.streamTimeoutMs ?? DEFAULT_STREAM_TIMEOUT_MS;
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.#maxStreamEventChars = options.maxStreamEventChars ?? DEFAULT_MAX_EVENT_CHARS;
    this.#gate = new BackoffGate({ logger: this.#logger });
    // Our own deadlines govern timeouts (per operation, idle and total for streams), so undici's are off.
    this.#pool = new Pool(this.#endpoint.origin, {
      connections: options.connections ?? 16,
      keepAliveTimeout: 30_000,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  async generateContent(
    model: string,
    request: GenerateContentRequest,
    options: CallOptions & { auth: GenerateContentAuth },
  ): Promise<GenerateContentResponse> {
    return (await this.#generateContent(model, request, options)).response;
  }

  /** With `image`, the request's `INLINE_IMAGE` is that image (`requestBody`). */
  async #generateContent(
    model: string,
    request: GenerateContentRequest,
    options: CallOptions & { auth: GenerateContentAuth },
    image?: Uint8Array,
  ): Promise<Answer> {
    const operation: ServiceOperation = options.auth === 'bearer' ? 'image' : 'text';
    const context: CallContext = {
      operation,
      model,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? (operation === 'image' ? this.#imageTimeoutMs : this.#textTimeoutMs),
    };
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (options.auth === 'bearer') headers.authorization = `Bearer ${this.#apiKey}`;
    else headers['x-goog-api-key'] = this.#apiKey;
    const body = requestBody(request, image);
    const path = joinPath(this.#endpoint, generateContentPath(model));

    return this.#withRetries(context, async (attempt) => {
      const deadline = new Deadline(context.timeoutMs);
      let response: Dispatcher.ResponseData | undefined;
      try {
        response = await this.#send(context, attempt, deadline, { path, headers, body });
        const limit = this.#maxResponseBytes;
        const received = await readCapped(response.body, declaredLength(response.headers), limit, () =>
          tooLarge(`an answer over ${mebibytes(limit)}`, limit, context),
        );
        // Image bodies are megabytes: concurrent ones often end in the same
        // event-loop turn, and parsing them back to back kept timers (chat
        // edits, Slack's 3 s acks) waiting 50-90 ms in pnpm bench. Each waits a turn of its own.
        await processTurns.take();
        return { response: this.#parseGenerateContent(received, context), body: received };
      } catch (error) {
        response?.body.destroy();
        throw this.#classify(error, context, deadline);
      } finally {
        deadline.clear();
      }
    });
  }

  async generateText(
    model: string,
    prompt: string | GenerateContentRequest,
    options: CallOptions = {},
  ): Promise<string> {
    const request: GenerateContentRequest =
      typeof prompt === 'string' ? { contents: [{ role: 'user', parts: [{ text: prompt }] }] } : prompt;
    const response = await this.generateContent(model, request, { ...options, auth: 'api-key' });
    const reply = readReply(response);
    if (reply.text === '') throw noOutputError(response, 'text');
    if (reply.finishReason !== undefined && SAFETY_FINISH_REASONS.has(reply.finishReason)) {
      throw new SafetyStopError({ text: reply.text, reason: reply.finishReason, explanation: reply.finishMessage });
    }
    return reply.text;
  }

  async generateImages(model: string, input: ImageInput, options: CallOptions = {}): Promise<GeneratedImage[]> {
    const parts: GenerateContentRequest['contents'][number]['parts'] = [{ text: input.prompt }];
    if (input.image !== undefined) {
      parts.push({
        inlineData: { mimeType: input.image.mimeType, data: INLINE_IMAGE },
      });
    }
    const request: GenerateContentRequest = {
      contents: [{ role: 'user', parts }],
      generationConfig: {
        responseModalities: ['TEXT', 'IMAGE'],
        ...(input.aspectRatio === undefined ? {} : { imageConfig: { aspectRatio: input.aspectRatio } }),
        ...(input.count === undefined || input.count === 1 ? {} : { candidateCount: input.count }),
        ...(input.seed === undefined ? {} : { seed: input.seed }),
      },
    };
    const answer = await this.#generateContent(model, request, { ...options, auth: 'bearer' }, input.image?.bytes);
    let images: GeneratedImage[] = [];
    try {
      const call = { operation: 'image', model } as const;
      images = await extractImages(answer.response, { logger: this.#logger, call });
      if (images.length === 0) throw noOutputError(answer.response, 'image');
      return images;
    } finally {
      // Images decoded in place are views on the answer, which their job frees once they are uploaded.
      if (!images.some((image) => image.bytes.buffer === answer.body.buffer)) releaseBytes(answer.body);
    }
  }

  /**
   * Starts when first iterated. Failures before the first event are retried
   * like any request; once an event reached the caller, never. The wait for
   * content (pings do not count) is the text timeout; the whole stream has a
   * deadline and a size cap of its own.
   */
  streamMessage(request: MessagesRequest, options: CallOptions = {}): MessageStream {
    return new AccumulatingMessageStream(this.#streamEvents(request, options));
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  async *#streamEvents(
    request: MessagesRequest,
    options: CallOptions,
  ): AsyncGenerator<MessageStreamEvent, void, undefined> {
    const context: CallContext = {
      operation: 'messages',
      model: request.model,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.#textTimeoutMs,
    };
    const headers = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'x-api-key': this.#apiKey,
      'anthropic-version': ANTHROPIC_VERSION,
    };
    const body = JSON.stringify({ ...request, stream: true });
    const path = joinPath(this.#endpoint, MESSAGES_PATH);

    const opened = await this.#withRetries(context, async (attempt) => {
      const deadline = new Deadline(context.timeoutMs, this.#streamTimeoutMs);
      let response: Dispatcher.ResponseData | undefined;
      try {
        response = await this.#send(context, attempt, deadline, { path, headers, body });
        const limit = this.#maxResponseBytes;
        const bytes = capBytes(response.body, limit, () =>
          tooLarge(`a stream over ${mebibytes(limit)}`, limit, context),
        );
        const parsed = parseMessageEvents(bytes, {
          model: context.model,
          scrub: (text) => this.#scrub(text),
          onUnknownEvent: (type) => this.#logger.debug({ type }, 'skipped unknown stream event'),
          maxEventChars: this.#maxStreamEventChars,
        });
        const events = resetOnContent(parsed, deadline);
        const first = await events.next();
        return { first, events, deadline, response };
      } catch (error) {
        response?.body.destroy();
        deadline.clear();
        throw this.#classify(error, context, deadline);
      }
    });

    const { first, events, deadline, response } = opened;
    try {
      if (first.done === true) return;
      yield first.value;
      while (true) {
        let next: IteratorResult<MessageStreamEvent, void>;
        try {
          next = await events.next();
        } catch (error) {
          if (context.signal?.aborted === true) throw context.signal.reason;
          // The connection dropping once the reply has started is a cut stream, not an unreachable service.
          if (deadline.expired === undefined && isConnectionReset(error)) throw cutStream(context, error);
          throw this.#classify(error, context, deadline);
        }
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      deadline.clear();
      response.body.destroy();
      await events.return(undefined).catch(() => undefined);
    }
  }

  /**
   * One HTTP exchange up to the response head; a non-2xx answer becomes a
   * ServiceError, read from the first few KiB of its body.
   */
  async #send(
    context: CallContext,
    attempt: number,
    deadline: Deadline,
    request: { path: string; headers: Record<string, string>; body: string | StreamedBody },
  ): Promise<Dispatcher.ResponseData> {
    const started = performance.now();
    const signal = context.signal === undefined ? deadline.signal : AbortSignal.any([context.signal, deadline.signal]);
    const { body } = request;
    const response = await this.#pool.request({
      method: 'POST',
      path: request.path,
      signal,
      ...(typeof body === 'string'
        ? { headers: request.headers, body }
        : // Each attempt sends the bytes afresh; the length lets the service see the whole size at once.
          {
            headers: { ...request.headers, 'content-length': String(body.length) },
            body: Readable.from(body.chunks()),
          }),
    });
    this.#logger.debug(
      {
        operation: context.operation,
        model: context.model,
        status: response.statusCode,
        attempt,
        durationMs: Math.round(performance.now() - started),
      },
      'service request',
    );
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const head = await readHead(response.body, MAX_ERROR_BODY_BYTES);
      response.body.destroy();
      throw httpError(response.statusCode, response.headers, head.toString('utf8'), {
        operation: context.operation,
        model: context.model,
        scrub: (value) => this.#scrub(value),
      });
    }
    return response;
  }

  async #withRetries<T>(context: CallContext, attempt: (attempt: number) => Promise<T>): Promise<T> {
    for (let number = 1; ; number++) {
      // Outside the deadline: time spent held back by the service is not the service being slow.
      await this.#gate.wait(context.signal);
      try {
        return await attempt(number);
      } catch (thrown) {
        if (context.signal?.aborted === true) throw context.signal.reason;
        if (!(thrown instanceof ServiceError)) throw thrown;
        const error = thrown;
        if (error.status === undefined) {
          // HTTP answers were logged on arrival; this is the line for attempts that got none.
          this.#logger.debug(
            { operation: context.operation, model: context.model, attempt: number, errorType: error.type },
            'service request failed',
          );
        }
        const { status, retryAfterSeconds } = error;
        const delayMs = retryDelayMs(number, this.#backoff, retryAfterSeconds);
        // Even a request that gives up holds the others: the service asked all of us to wait.
        const pushback = isPushback(status, retryAfterSeconds);
        if (pushback) this.#gate.close(delayMs, { operation: context.operation, model: context.model, status });
        if (!worthRetrying(error) || number > this.#maxRetries) throw error;
        this.#logger.warn(
          {
            operation: context.operation,
            model: context.model,
            attempt: number,
            status,
            errorType: error.type,
            delayMs,
          },
          'retrying service request',
        );
        // After a pushback the next turn of the loop waits at the gate with everyone else.
        if (!pushback) await systemClock.sleep(delayMs, context.signal);
      }
    }
  }

  /** Any failure of an attempt, as the error the caller will see. */
  #classify(error: unknown, context: CallContext, deadline: Deadline): ServiceError {
    if (error instanceof ServiceError) return error;
    if (deadline.expired !== undefined) {
      const seconds = Math.round(deadline.expiredAfterMs / 1000);
      const message =
        deadline.expired === 'total'
          ? `The reply took longer than the ${seconds} s a stream may take.`
          : `The service did not answer within ${seconds} s.`;
      return new ServiceTimeoutError(message, { operation: context.operation, model: context.model, cause: error });
    }
    const detail = error instanceof Error ? ((error as { code?: unknown }).code ?? error.message) : 'unknown error';
    return new NetworkError(this.#scrub(`The connection to the service failed: ${String(detail)}`), {
      connectionReset: isConnectionReset(error),
      operation: context.operation,
      model: context.model,
      cause: error,
    });
  }

  #parseGenerateContent(body: Buffer, context: CallContext): GenerateContentResponse {
    let json: unknown;
    try {
      // An image's Base64 stays bytes, decoded from them (extractImages): never a string of megabytes.
      json = parseJsonBody(body, { rawKeys: context.operation === 'image' ? IMAGE_DATA_KEYS : undefined });
    } catch {
      throw badResponse('not JSON', context);
    }
    const parsed = GenerateContentResponseSchema.safeParse(json);
    if (!parsed.success) {
      const where = parsed.error.issues[0]?.path.join('.') ?? '';
      throw badResponse(`unexpected shape${where === '' ? '' : ` at ${where}`}`, context);
    }
    return parsed.data;
  }

  #scrub(text: string): string {
    return this.#apiKey === '' ? text : text.split(this.#apiKey).join('[REDACTED]');
  }
}

function badResponse(what: string, context: CallContext): BadResponseError {
  return new BadResponseError(`The service sent a response we could not read (${what}).`, {
    operation: context.operation,
    model: context.model,
  });
}

function cutStream(context: CallContext, cause: unknown): StreamCutError {
  return new StreamCutError('The stream ended before the reply was complete (connection closed).', {
    operation: context.operation,
    model: context.model,
    cause,
  });
}

function tooLarge(what: string, limitBytes: number, context: CallContext): ResponseTooLargeError {
  return new ResponseTooLargeError(`The service sent ${what}, more than we accept.`, {
    limitBytes,
    operation: context.operation,
    model: context.model,
  });
}

function mebibytes(bytes: number): string {
  return `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`;
}

/**
 * Whether to send the same request again ourselves (as opposed to "the user
 * may try again later"): what the service may answer differently next time.
 */
function worthRetrying(error: ServiceError): boolean {
  if (
    error instanceof ServiceTimeoutError ||
    error instanceof BadResponseError ||
    error instanceof ResponseTooLargeError
  ) {
    return false;
  }
  if (error.status !== undefined) return isRetryableStatus(error.status);
  if (error instanceof NetworkError) return error.connectionReset;
  return error.retryable;
}

/** The events as they come; each one with content (anything but a ping) restarts the idle timer. */
async function* resetOnContent(
  events: AsyncGenerator<MessageStreamEvent, void, undefined>,
  deadline: Deadline,
): AsyncGenerator<MessageStreamEvent, void, undefined> {
  for await (const event of events) {
    if (event.type !== 'ping') deadline.reset();
    yield event;
  }
}
