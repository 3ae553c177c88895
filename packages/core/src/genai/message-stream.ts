import { NoOutputError, REFUSAL_STOP_REASON, SafetyStopError } from './errors.js';
import { ReplyBlocks } from './reply-blocks.js';
import type { FinalMessage, MessageStreamEvent, StopReason, Usage } from './types.js';

export interface MessageStream extends AsyncIterable<MessageStreamEvent> {
  /**
   * Consumes the stream, yielding only reply text (thinking, JSON and signature
   * deltas are skipped): tool calls are in `finalMessage()`.
   */
  textDeltas(): AsyncIterable<string>;
  /**
   * Consumes what is left and resolves with the whole reply; rejects with the
   * stream's error. A reply refused for safety rejects too, the stream itself
   * as well: with SafetyStopError after some text, NoOutputError before any.
   */
  finalMessage(): Promise<FinalMessage>;
}

/** Counts the service sent as null (or not at all) are left out, so they never hide a count sent earlier. */
function reportedUsage(usage: Record<string, unknown> | undefined): Usage {
  return Object.fromEntries(Object.entries(usage ?? {}).filter(([, value]) => value !== null && value !== undefined));
}

/**
 * A single-pass stream that keeps a running total of what went through it,
 * whoever consumed it (the raw events, textDeltas() or finalMessage()).
 * Breaking out of an iteration ends the stream and releases the connection.
 */
export class AccumulatingMessageStream implements MessageStream {
  readonly #source: AsyncIterable<MessageStreamEvent>;
  #iterator: AsyncGenerator<MessageStreamEvent, void, undefined> | undefined;
  #failure: { error: unknown } | undefined;
  #id = '';
  #model = '';
  #text = '';
  #stopReason: StopReason | null = null;
  #stopExplanation: string | undefined;
  #usage: Usage = {};
  readonly #blocks = new ReplyBlocks();

  constructor(source: AsyncIterable<MessageStreamEvent>) {
    this.#source = source;
  }

  [Symbol.asyncIterator](): AsyncGenerator<MessageStreamEvent, void, undefined> {
    this.#iterator ??= this.#run();
    return this.#iterator;
  }

  async *textDeltas(): AsyncGenerator<string, void, undefined> {
    for await (const event of this) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta' && 'text' in event.delta) {
        const text = event.delta.text;
        if (typeof text === 'string' && text !== '') yield text;
      }
    }
  }

  async finalMessage(): Promise<FinalMessage> {
    for await (const event of this) void event;
    if (this.#failure !== undefined) throw this.#failure.error;
    return {
      id: this.#id,
      model: this.#model,
      text: this.#text,
      stopReason: this.#stopReason,
      usage: this.#usage,
      toolUses: this.#blocks.toolUses(),
      content: this.#blocks.content(),
    };
  }

  async *#run(): AsyncGenerator<MessageStreamEvent, void, undefined> {
    try {
      for await (const event of this.#source) {
        this.#accumulate(event);
        yield event;
      }
      if (this.#stopReason === REFUSAL_STOP_REASON) throw this.#refusal();
    } catch (error) {
      this.#failure = { error };
      throw error;
    }
  }

  #accumulate(event: MessageStreamEvent): void {
    this.#blocks.add(event);
    switch (event.type) {
      case 'message_start':
        this.#id = event.message.id;
        this.#model = event.message.model;
        this.#usage = reportedUsage(event.message.usage);
        break;
      case 'content_block_start':
        if (event.content_block.type === 'text' && typeof event.content_block.text === 'string') {
          this.#text += event.content_block.text;
        }
        break;
      case 'content_block_delta':
        if (event.delta.type === 'text_delta' && 'text' in event.delta && typeof event.delta.text === 'string') {
          this.#text += event.delta.text;
        }
        break;
      case 'message_delta':
        this.#stopReason = event.delta.stop_reason;
        this.#stopExplanation = event.delta.stop_details?.explanation;
        this.#usage = { ...this.#usage, ...reportedUsage(event.usage) };
        break;
      default:
        break;
    }
  }

  #refusal(): Error {
    const explanation = this.#stopExplanation;
    if (this.#text !== '') return new SafetyStopError({ text: this.#text, reason: REFUSAL_STOP_REASON, explanation });
    return new NoOutputError(
      `The service returned no text: the model refused to answer${explanation === undefined ? '' : ` (${explanation})`}.`,
      { wanted: 'text', stopReason: REFUSAL_STOP_REASON },
    );
  }
}
