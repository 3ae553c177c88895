import { copy } from '@genbot/core/copy';
import { closeOpenFence } from '@genbot/core/rendering';
import { describeError, GenAiClient, type MessagesRequest } from '@genbot/core/genai';
import { NoOutputError, SafetyStopError } from '@genbot/core/errors';
import { startEmulator, type Emulator, type RecordedRequest } from '@genbot/emulator';
import { SERVICE_LIMITS } from './service-limits.js';

/**
 * What the bot should show, worked out by asking a second emulator the same
 * thing (its answers and faults follow from the request alone) and passing
 * the outcome through core's own copy. A second emulator keeps these calls
 * out of the bot's emulator, whose requests the rows count, and gives
 * `KIND*N` faults a fresh count.
 */
export class Oracle {
  readonly #emulator: Emulator;
  readonly #client: GenAiClient;

  private constructor(emulator: Emulator) {
    this.#emulator = emulator;
    // One retry: a transient `*1` fault clears, a persistent one still fails, and a 429's wait is paid once.
    this.#client = new GenAiClient({
      baseUrl: emulator.url,
      apiKey: 'oracle-key',
      retryBaseDelayMs: 5,
      maxRetries: 1,
      ...SERVICE_LIMITS,
    });
  }

  static async start(): Promise<Oracle> {
    return new Oracle(await startEmulator({ apiKey: 'oracle-key' }));
  }

  /** The reply's final text for this conversation request, as core's converse ends it. */
  async reply(request: MessagesRequest): Promise<string> {
    const stream = this.#stream(request);
    let text = '';
    try {
      for await (const delta of stream.textDeltas()) text += delta;
    } catch (error) {
      if (error instanceof NoOutputError && error.safetyBlocked) return copy.replyRefused;
      const line =
        error instanceof SafetyStopError ? copy.replySafetyStop : copy.replyFailed(describeError(error), text !== '');
      return text.trim() === '' ? line : `${closeOpenFence(text)}\n\n${line}`;
    }
    return text === '' ? copy.noReplyText : text;
  }

  /**
   * What the model says in answer to this request, before any tool call it
   * makes: '' when it only calls one. The service must answer.
   */
  async words(request: MessagesRequest): Promise<string> {
    let text = '';
    for await (const delta of this.#stream(request).textDeltas()) text += delta;
    return text;
  }

  /** The request again: the tools it offers decide what the model calls. */
  #stream(request: MessagesRequest) {
    const { model, messages, max_tokens, system, tools } = request;
    return this.#client.streamMessage({
      model,
      messages,
      max_tokens,
      ...(system === undefined ? {} : { system }),
      ...(tools === undefined ? {} : { tools }),
    });
  }

  /** How /imagine ends for this prompt: the images' count, or the progress message's failure line. */
  async imagine(model: string, prompt: string): Promise<{ images: number } | { failure: string }> {
    try {
      return { images: (await this.#client.generateImages(model, { prompt })).length };
    } catch (error) {
      return { failure: copy.imagineFailed(prompt, describeError(error)) };
    }
  }

  async close(): Promise<void> {
    await this.#client.close();
    await this.#emulator.close();
  }
}

function isMessagesRequest(body: unknown): body is MessagesRequest {
  return (
    typeof body === 'object' && body !== null && 'model' in body && 'messages' in body && Array.isArray(body.messages)
  );
}

/** The conversation requests among `requests`, oldest first. */
export function messagesRequests(requests: readonly RecordedRequest[]): MessagesRequest[] {
  return requests
    .filter((r) => r.method === 'POST' && r.path.endsWith('/v1/messages'))
    .map((r) => r.body)
    .filter(isMessagesRequest);
}

export function generateContentRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.method === 'POST' && r.path.includes(':generateContent'));
}
