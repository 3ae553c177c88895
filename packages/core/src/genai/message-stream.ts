import type { FinalMessage, MessageStreamEvent, StopReason, Usage } from './types.js';

export interface MessageStream extends AsyncIterable<MessageStreamEvent> {
  /** Consumes the stream, yielding only reply text (thinking, JSON and signature deltas are skipped). */
  textDeltas(): AsyncIterable<string>;
  /** Consumes what is left and resolves with the whole reply; rejects with the stream's error. */
  finalMessage(): Promise<FinalMessage>;
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
  #usage: Usage = {};

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
    return { id: this.#id, model: this.#model, text: this.#text, stopReason: this.#stopReason, usage: this.#usage };
  }

  async *#run(): AsyncGenerator<MessageStreamEvent, void, undefined> {
    try {
      for await (const event of this.#source) {
        this.#accumulate(event);
        yield event;
      }
    } catch (error) {
      this.#failure = { error };
      throw error;
    }
  }

  #accumulate(event: MessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.#id = event.message.id;
        this.#model = event.message.model;
        this.#usage = { ...event.message.usage };
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
        this.#usage = { ...this.#usage, ...event.usage };
        break;
      default:
        break;
    }
  }
}
