import { copy } from '../copy/copy.js';
import { closeOpenFence } from './fences.js';
import type { ReplySink, ReplyState, SinkCall } from './reply-sink.js';
import type { ReplyStream } from '../surface/surface.js';
import type { Clock } from '../time/clock.js';

/** At most `max` characters of `text` from `from`, never ending between the halves of a surrogate pair. */
function chunkAt(text: string, from: number, max: number): string {
  const chunk = text.slice(from, from + max);
  if (chunk.length < max) return chunk;
  const code = chunk.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? chunk.slice(0, max - 1) : chunk;
}

/**
 * Replies through a platform's own streaming (Slack's chat.startStream /
 * appendStream / stopStream), which the surface supplies as `ReplyStream`:
 * the status shows as the stream's marker until the first text starts the
 * stream; later text is appended in chunks of at most `maxChunkChars`; the
 * last call stops the stream with whatever is left, so the message ends with
 * exactly the reply. When the stream cannot start, `fallback` carries on.
 */
export class StreamSink implements ReplySink {
  readonly #stream: ReplyStream;
  readonly #clock: Clock;
  /** Shortest gap after the start before the first append, so the first appends coalesce too. */
  readonly #gapMs: number;
  readonly marker: ReplySink['marker'];
  readonly fallback: () => ReplySink;
  #startedAt = Number.NEGATIVE_INFINITY;
  #started = false;
  #stopped = false;
  /** Characters of the reply the stream has. */
  #sent = 0;

  constructor(stream: ReplyStream, options: { clock: Clock; gapMs: number; fallback: () => ReplySink }) {
    this.#stream = stream;
    this.#clock = options.clock;
    this.#gapMs = options.gapMs;
    this.fallback = options.fallback;
    // The status goes first, whatever the signal says: landing after the stream's start, it would stay up.
    this.marker = {
      show: ({ status, activity }) =>
        stream.showStatus(status !== 'working' ? copy.queuedStatus(status.queued) : (activity ?? copy.thinkingStatus)),
      showsPlace: true,
    };
  }

  next(reply: ReplyState): SinkCall | undefined {
    if (this.#stopped) return undefined;
    const max = this.#stream.maxChunkChars;
    if (!this.#started) {
      if (chunkAt(reply.text, 0, max).trim() === '') return undefined;
      return { kind: 'post', statusOnly: false, run: (latest) => this.#start(latest) };
    }
    if (!reply.final && reply.text.length === this.#sent) return undefined;
    return {
      kind: 'edit',
      statusOnly: false,
      notBefore: this.#startedAt + this.#gapMs,
      run: (latest) => this.#continue(latest),
    };
  }

  async end(note: string, reply: ReplyState): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (!this.#started) {
      await this.#stream.start(note);
      await this.#stream.stop(undefined);
      return;
    }
    // What was streamed stays; the note follows it, outside any open code block.
    const shown = reply.text.slice(0, this.#sent);
    await this.#stream.stop(`${closeOpenFence(shown).slice(shown.length)}\n\n${note}`);
  }

  async #start(reply: ReplyState): Promise<void> {
    if (this.#started) return;
    const chunk = chunkAt(reply.text, 0, this.#stream.maxChunkChars);
    await this.#stream.start(chunk);
    this.#started = true;
    this.#startedAt = this.#clock.now();
    this.#sent = chunk.length;
  }

  async #continue(reply: ReplyState): Promise<void> {
    if (this.#stopped) return;
    const chunk = chunkAt(reply.text, this.#sent, this.#stream.maxChunkChars);
    if (reply.final && this.#sent + chunk.length === reply.text.length) {
      await this.#stream.stop(chunk === '' ? undefined : chunk);
      this.#stopped = true;
      this.#sent += chunk.length;
      return;
    }
    if (chunk === '') return;
    await this.#stream.append(chunk);
    this.#sent += chunk.length;
  }
}
