import { copy } from '../copy/copy.js';
import { closeOpenFence } from './fences.js';
import type { ReplySink, ReplyState, SinkCall } from './reply-sink.js';
import { RateLimitedError } from '../surface/rate-limited-error.js';
import type { ReplyStream, StreamTaskUpdate } from '../surface/surface.js';
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
 *
 * A stream cannot take text back, so what the bot does while a tool works
 * (`ReplyState.activity`) never goes into its text: before the start it is
 * the stream's status, after it a task the stream shows beside the text
 * (`ReplyStream.task`), marked complete once the activity is cleared. A
 * stream without tasks shows nothing for it once started: its status is
 * gone with the start, and anything appended would stay in the message.
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
  /** The task the stream shows in progress, for the activity it stands for. */
  #task: { id: string; title: string } | undefined;
  /** Tasks opened so far, so each activity has an id of its own. */
  #tasks = 0;
  /** The platform refused a task: the reply goes on without them, its text matters more. */
  #tasksRefused = false;

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
    if (!reply.final && reply.text.length === this.#sent && this.#taskDue(reply) === undefined) return undefined;
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
    // The work was cut off: its task says so, but the stop must go out whatever becomes of that, or the
    // message would stay a stream that cannot be edited.
    let refused: { error: unknown } | undefined;
    if (this.#task !== undefined) {
      try {
        await this.#settle(this.#task, 'error');
      } catch (error) {
        refused = { error };
      }
    }
    // What was streamed stays; the note follows it, outside any open code block.
    const shown = reply.text.slice(0, this.#sent);
    await this.#stream.stop(`${closeOpenFence(shown).slice(shown.length)}\n\n${note}`);
    if (refused !== undefined) throw refused.error;
  }

  /**
   * The activity the stream should show as a task now: none when the stream
   * has no tasks or the reply is final.
   */
  #wanted(reply: ReplyState): string | undefined {
    return this.#stream.task === undefined || this.#tasksRefused || reply.final ? undefined : reply.activity;
  }

  /** The task call due, if any: the open task to complete, or a task to open for the activity. */
  #taskDue(reply: ReplyState): 'complete' | 'open' | undefined {
    const wanted = this.#wanted(reply);
    if (this.#task !== undefined) return this.#task.title === wanted ? undefined : 'complete';
    return wanted === undefined ? undefined : 'open';
  }

  async #settle(task: { id: string; title: string }, status: 'complete' | 'error'): Promise<void> {
    await this.#taskCall({ ...task, status });
    this.#task = undefined;
  }

  /**
   * A task update. A refusal other than a rate limit ends tasks for this
   * reply and is thrown, so the pump logs it and carries on with the text.
   */
  async #taskCall(update: StreamTaskUpdate): Promise<void> {
    try {
      await this.#stream.task?.(update);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) {
        this.#tasksRefused = true;
        this.#task = undefined;
      }
      throw error;
    }
  }

  async #start(reply: ReplyState): Promise<void> {
    if (this.#started) return;
    const chunk = chunkAt(reply.text, 0, this.#stream.maxChunkChars);
    await this.#stream.start(chunk);
    this.#started = true;
    this.#startedAt = this.#clock.now();
    this.#sent = chunk.length;
  }

  /**
   * One call: a task ending goes before text that came meanwhile (the words
   * after a tool follow its task), a task starting after it (the words before
   * a tool come first), as the stream shows them in that order.
   */
  async #continue(reply: ReplyState): Promise<void> {
    if (this.#stopped) return;
    const due = this.#taskDue(reply);
    if (due === 'complete' && this.#task !== undefined) return this.#settle(this.#task, 'complete');
    const chunk = chunkAt(reply.text, this.#sent, this.#stream.maxChunkChars);
    if (reply.final && this.#sent + chunk.length === reply.text.length) {
      await this.#stream.stop(chunk === '' ? undefined : chunk, { complete: true });
      this.#stopped = true;
      this.#sent += chunk.length;
      return;
    }
    if (chunk !== '') {
      await this.#stream.append(chunk);
      this.#sent += chunk.length;
      return;
    }
    const title = this.#wanted(reply);
    if (due === 'open' && title !== undefined) {
      this.#tasks += 1;
      const task = { id: `activity-${this.#tasks}`, title };
      await this.#taskCall({ ...task, status: 'in_progress' });
      this.#task = task;
    }
  }
}
