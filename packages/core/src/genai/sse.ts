import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { BadResponseError, ResponseTooLargeError, StreamCutError } from './errors.js';
import { serviceFailure } from './http-error.js';
import { EventTypeSchema, isKnownStreamEventType, StreamEventSchemas } from './schemas.js';
import type { MessageStreamEvent } from './types.js';

/** A line or an event (its data lines together) larger than this ends the stream (1 MiB of text). */
export const DEFAULT_MAX_EVENT_CHARS = 1024 * 1024;

export interface SseContext {
  /** The model asked, for the errors raised here. */
  model?: string | undefined;
  /** Removes what must never be shown (the API key) from text taken from the wire. */
  scrub: (text: string) => string;
  /** Unknown event kinds are skipped (the service may add some); this hears about them. */
  onUnknownEvent?: (type: string) => void;
  /** Largest line or event accepted, in characters (default 1 MiB). */
  maxEventChars?: number;
}

function badEvent(what: string, context: SseContext): BadResponseError {
  return new BadResponseError(`The service sent a stream event we could not read (${what}).`, {
    operation: 'messages',
    model: context.model,
  });
}

function cut(context: SseContext): StreamCutError {
  return new StreamCutError('The stream ended before the reply was complete.', {
    operation: 'messages',
    model: context.model,
  });
}

/**
 * One SSE message to a typed event; undefined for kinds we skip. Throws the
 * stream's `error` event. `atEnd`: the message was completed by the body's
 * end rather than a blank line, so unreadable data means a cut, not a bad event.
 */
function toStreamEvent(
  message: EventSourceMessage,
  context: SseContext,
  atEnd: boolean,
): MessageStreamEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch {
    if (atEnd) throw cut(context);
    throw badEvent(`${message.event ?? 'message'}: not JSON`, context);
  }
  const head = EventTypeSchema.safeParse(json);
  if (!head.success) throw badEvent(`${message.event ?? 'message'}: no type`, context);
  const type = head.data.type;
  if (!isKnownStreamEventType(type)) {
    context.onUnknownEvent?.(type);
    return undefined;
  }
  const parsed = StreamEventSchemas[type].safeParse(json);
  if (!parsed.success) throw badEvent(type, context);
  const event = parsed.data;
  if (event.type === 'error') {
    const serviceType = event.error.type;
    throw serviceFailure(context.scrub(`Stream error ${serviceType}: ${event.error.message ?? 'no message'}`), {
      serviceType,
      operation: 'messages',
      model: context.model,
    });
  }
  return event;
}

/**
 * Typed messages-stream events from the raw body bytes. Ends after
 * `message_stop`, which may lack its closing blank line; a body that ends
 * before it is a cut stream. A line or event over the size cap ends the
 * stream with ResponseTooLargeError (the whole stream is capped by the caller).
 */
export async function* parseMessageEvents(
  chunks: AsyncIterable<Uint8Array | string>,
  context: SseContext,
): AsyncGenerator<MessageStreamEvent, void, undefined> {
  const maxEventChars = context.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
  const pending: EventSourceMessage[] = [];
  let overflow = false;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent: (message) => pending.push(message),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
    },
  });
  const decoder = new TextDecoder();
  const drain = function* (atEnd: boolean): Generator<MessageStreamEvent, boolean> {
    if (overflow) {
      throw new ResponseTooLargeError(
        `The service sent a stream line or event over ${Math.round(maxEventChars / 1024)} KiB.`,
        { operation: 'messages', model: context.model, limitBytes: maxEventChars },
      );
    }
    for (let message = pending.shift(); message !== undefined; message = pending.shift()) {
      const event = toStreamEvent(message, context, atEnd);
      if (event === undefined) continue;
      yield event;
      if (event.type === 'message_stop') return true;
    }
    return false;
  };
  for await (const chunk of chunks) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (yield* drain(false)) return;
  }
  // The body ended: whatever event is still open ends with it (real streams may omit the last blank line).
  parser.feed(`${decoder.decode()}\n\n`);
  if (yield* drain(true)) return;
  throw cut(context);
}
