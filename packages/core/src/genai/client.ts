import pino, { type Logger } from 'pino';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { BackoffGate } from './backoff-gate.js';
import { Deadline } from './deadline.js';
import { ServiceError, type ServiceOperation } from './errors.js';
import { httpError } from './http-error.js';
import { extractImages } from './images.js';
import { parseJsonBody } from './json-body.js';
import { AccumulatingMessageStream, type MessageStream } from './message-stream.js';
import { noOutputError } from './no-output.js';
import { isConnectionReset, isPushback, isRetryableStatus, retryDelayMs, sleep } from './retry-policy.js';
import { GenerateContentResponseSchema } from './schemas.js';
import { parseMessageEvents } from './sse.js';
import { extractText } from './text.js';
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
  textTimeoutMs?: number;
  /** Keep-alive connections to the service (default 16). */
  connections?: number;
}

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
}

interface CallContext {
  operation: ServiceOperation;
  model: string;
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

interface Failure {
  error: ServiceError;
  /** Worth trying again by ourselves (as opposed to "the user may try again later"). */
  retry: boolean;
}

const ANTHROPIC_VERSION = '2023-06-01';

export class GenAiClient {
  readonly #endpoint: ServiceEndpoint;
  readonly #pool: Pool;
  readonly #apiKey: string;
  readonly #logger: Logger;
  readonly #maxRetries: number;
  readonly #backoff: { baseDelayMs: number; maxDelayMs: number };
  readonly #imageTimeoutMs: number;
  readonly #textTimeoutMs: number;
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
    this.#gate = new BackoffGate({ logger: this.#logger });
    // Our own deadlines govern timeouts (per operation, idle for streams), so undici's are off.
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
    const operation: ServiceOperation = options.auth === 'bearer' ? 'image' : 'text';
    const context: CallContext = {
      operation,
      model,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? (operation === 'image' ? this.#imageTimeoutMs : this.#textTimeoutMs),
    };
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (options.auth === 'bearer') headers['authorization'] = `Bearer ${this.#apiKey}`;
    else headers['x-goog-api-key'] = this.#apiKey;
    const body = JSON.stringify(request);
    const path = joinPath(this.#endpoint, generateContentPath(model));

    return this.#withRetries(context, async (attempt) => {
      const deadline = new Deadline(context.timeoutMs);
      try {
        const response = await this.#send(context, attempt, deadline, { path, headers, body });
        const received = await readBody(response.body);
        // Image bodies are megabytes: concurrent ones often end in the same
        // event-loop turn, and parsing them back to back kept timers (chat
        // edits, Slack's 3 s acks) waiting 50-90 ms in pnpm bench. Each waits a turn.
        await yieldToEventLoop();
        return this.#parseGenerateContent(received, context);
      } catch (error) {
        throw this.#classify(error, context, deadline);
      } finally {
        deadline.clear();
      }
    });
  }

  async generateText(model: string, prompt: string | GenerateContentRequest, options: CallOptions = {}): Promise<string> {
    const request: GenerateContentRequest =
      typeof prompt === 'string' ? { contents: [{ role: 'user', parts: [{ text: prompt }] }] } : prompt;
    const response = await this.generateContent(model, request, { ...options, auth: 'api-key' });
    const text = extractText(response);
    if (text === '') throw noOutputError(response, 'text');
    return text;
  }

  async generateImages(model: string, input: ImageInput, options: CallOptions = {}): Promise<GeneratedImage[]> {
    const parts: GenerateContentRequest['contents'][number]['parts'] = [{ text: input.prompt }];
    if (input.image !== undefined) {
      parts.push({
        inlineData: { mimeType: input.image.mimeType, data: Buffer.from(input.image.bytes).toString('base64') },
      });
    }
    const request: GenerateContentRequest = {
      contents: [{ role: 'user', parts }],
      generationConfig: {
        responseModalities: ['TEXT', 'IMAGE'],
        ...(input.aspectRatio === undefined ? {} : { imageConfig: { aspectRatio: input.aspectRatio } }),
        ...(input.count === undefined || input.count === 1 ? {} : { candidateCount: input.count }),
      },
    };
    const response = await this.generateContent(model, request, { ...options, auth: 'bearer' });
    const images = await extractImages(response, { logger: this.#logger });
    if (images.length === 0) throw noOutputError(response, 'image');
    return images;
  }

  /**
   * Starts when first iterated. Failures before the first event are retried
   * like any request; once an event reached the caller, never.
   */
  streamMessage(request: MessagesRequest, options: CallOptions = {}): MessageStream {
    return new AccumulatingMessageStream(this.#streamEvents(request, options));
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  async *#streamEvents(request: MessagesRequest, options: CallOptions): AsyncGenerator<MessageStreamEvent, void, undefined> {
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
      const deadline = new Deadline(context.timeoutMs);
      let response: Dispatcher.ResponseData | undefined;
      try {
        response = await this.#send(context, attempt, deadline, { path, headers, body });
        const events = parseMessageEvents(resetOnEachChunk(response.body, deadline), {
          scrub: (text) => this.#scrub(text),
          onUnknownEvent: (type) => this.#logger.debug({ type }, 'skipped unknown stream event'),
        });
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
          if (!deadline.expired && isConnectionReset(error)) throw cutStream(context, error);
          throw this.#classify(error, context, deadline).error;
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

  /** One HTTP exchange up to the response head; a non-2xx answer becomes a ServiceError. */
  async #send(
    context: CallContext,
    attempt: number,
    deadline: Deadline,
    request: { path: string; headers: Record<string, string>; body: string },
  ): Promise<Dispatcher.ResponseData> {
    const started = performance.now();
    const signal = context.signal === undefined ? deadline.signal : AbortSignal.any([context.signal, deadline.signal]);
    const response = await this.#pool.request({ method: 'POST', ...request, signal });
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
      const text = await response.body.text();
      throw httpError(response.statusCode, response.headers, text, {
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
        if (!isFailure(thrown)) throw thrown;
        const failure = thrown;
        if (failure.error.status === undefined) {
          // HTTP answers were logged on arrival; this is the line for attempts that got none.
          this.#logger.debug(
            { operation: context.operation, model: context.model, attempt: number, errorType: failure.error.errorType },
            'service request failed',
          );
        }
        const { status, retryAfterSeconds } = failure.error;
        const delayMs = retryDelayMs(number, this.#backoff, retryAfterSeconds);
        // Even a request that gives up holds the others: the service asked all of us to wait.
        const pushback = isPushback(status, retryAfterSeconds);
        if (pushback) this.#gate.close(delayMs, { operation: context.operation, model: context.model, status });
        if (!failure.retry || number > this.#maxRetries) throw failure.error;
        this.#logger.warn(
          {
            operation: context.operation,
            model: context.model,
            attempt: number,
            status,
            errorType: failure.error.errorType,
            delayMs,
          },
          'retrying service request',
        );
        // After a pushback the next turn of the loop waits at the gate with everyone else.
        if (!pushback) await sleep(delayMs, context.signal);
      }
    }
  }

  /** Any failure of an attempt, as the error the caller will see and whether to retry it ourselves. */
  #classify(error: unknown, context: CallContext, deadline: Deadline): Failure {
    if (isFailure(error)) return error;
    if (deadline.expired) {
      return {
        error: new ServiceError(`The service did not answer within ${Math.round(deadline.ms / 1000)} s.`, {
          errorType: 'timeout',
          retryable: true,
          operation: context.operation,
          model: context.model,
          cause: error,
        }),
        retry: false,
      } satisfies Failure;
    }
    if (error instanceof ServiceError) {
      const retry =
        error.status !== undefined
          ? isRetryableStatus(error.status)
          : error.retryable && error.errorType !== 'bad_response' && error.errorType !== 'timeout';
      return { error: withContext(error, context), retry } satisfies Failure;
    }
    const reset = isConnectionReset(error);
    const detail = error instanceof Error ? ((error as { code?: unknown }).code ?? error.message) : 'unknown error';
    return {
      error: new ServiceError(this.#scrub(`The connection to the service failed: ${String(detail)}`), {
        errorType: 'network_error',
        retryable: true,
        operation: context.operation,
        model: context.model,
        cause: error,
      }),
      retry: reset,
    } satisfies Failure;
  }

  #parseGenerateContent(body: Buffer, context: CallContext): GenerateContentResponse {
    let json: unknown;
    try {
      json = parseJsonBody(body);
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

function badResponse(what: string, context: CallContext): ServiceError {
  return new ServiceError(`The service sent a response we could not read (${what}).`, {
    errorType: 'bad_response',
    retryable: false,
    operation: context.operation,
    model: context.model,
  });
}

function cutStream(context: CallContext, cause: unknown): ServiceError {
  return new ServiceError('The stream ended before the reply was complete (connection closed).', {
    errorType: 'stream_cut',
    retryable: true,
    operation: context.operation,
    model: context.model,
    cause,
  });
}

function isFailure(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && 'error' in value && value.error instanceof ServiceError && 'retry' in value;
}

/** Errors raised below the client (SSE parsing) do not know the model; add it. */
function withContext(error: ServiceError, context: CallContext): ServiceError {
  if (error.model !== undefined) return error;
  return new ServiceError(error.message, {
    status: error.status,
    errorType: error.errorType,
    retryable: error.retryable,
    requestId: error.requestId,
    retryAfterSeconds: error.retryAfterSeconds,
    operation: context.operation,
    model: context.model,
  });
}

async function* resetOnEachChunk(body: AsyncIterable<Uint8Array>, deadline: Deadline): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    deadline.reset();
    yield chunk;
  }
}

/**
 * A whole body as one buffer. undici 7's `body.text()` kept image responses
 * alive far longer: pnpm bench saw 4 MiB images peak at 1.2-1.6x the official
 * SDK's RSS. Collecting the chunks lets each one die young. (Copying them into
 * one buffer sized by content-length as they arrive measured no different.)
 */
async function readBody(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
