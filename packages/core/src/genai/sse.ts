import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ServiceError } from './errors.js';
import { EventTypeSchema, isKnownStreamEventType, StreamEventSchemas } from './schemas.js';
import type { MessageStreamEvent } from './types.js';

// Anthropic marks these mid-stream errors as transient; the rest are the request's fault.
const RETRYABLE_STREAM_ERRORS = new Set(['overloaded_error', 'api_error', 'rate_limit_error']);

export interface SseContext {
  /** Removes what must never be shown (the API key) from text taken from the wire. */
  scrub: (text: string) => string;
  /** Unknown event kinds are skipped (the service may add some); this hears about them. */
  onUnknownEvent?: (type: string) => void;
}

function badEvent(what: string): ServiceError {
  return new ServiceError(`The service sent a stream event we could not read (${what}).`, {
    errorType: 'bad_response',
    retryable: false,
    operation: 'messages',
  });
}

/** One SSE message to a typed event; undefined for kinds we skip. Throws the stream's `error` event. */
function toStreamEvent(message: EventSourceMessage, context: SseContext): MessageStreamEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch {
    throw badEvent(`${message.event ?? 'message'}: not JSON`);
  }
  const head = EventTypeSchema.safeParse(json);
  if (!head.success) throw badEvent(`${message.event ?? 'message'}: no type`);
  const type = head.data.type;
  if (!isKnownStreamEventType(type)) {
    context.onUnknownEvent?.(type);
    return undefined;
  }
  const parsed = StreamEventSchemas[type].safeParse(json);
  if (!parsed.success) throw badEvent(type);
  const event = parsed.data;
  if (event.type === 'error') {
    const errorType = event.error.type;
    throw new ServiceError(context.scrub(`Stream error ${errorType}: ${event.error.message ?? 'no message'}`), {
      errorType,
      retryable: RETRYABLE_STREAM_ERRORS.has(errorType),
      operation: 'messages',
    });
  }
  return event;
}

/**
 * Typed messages-stream events from the raw body bytes. Ends after
 * `message_stop`; a body that ends before it is a cut stream.
 */
export async function* parseMessageEvents(
  chunks: AsyncIterable<Uint8Array | string>,
  context: SseContext,
): AsyncGenerator<MessageStreamEvent, void, undefined> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => pending.push(message) });
  const decoder = new TextDecoder();
  const drain = function* (): Generator<MessageStreamEvent, boolean> {
    for (let message = pending.shift(); message !== undefined; message = pending.shift()) {
      const event = toStreamEvent(message, context);
      if (event === undefined) continue;
      yield event;
      if (event.type === 'message_stop') return true;
    }
    return false;
  };
  for await (const chunk of chunks) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (yield* drain()) return;
  }
  parser.feed(decoder.decode());
  if (yield* drain()) return;
  throw new ServiceError('The stream ended before the reply was complete.', {
    errorType: 'stream_cut',
    retryable: true,
    operation: 'messages',
  });
}
