import { closeOpenFence, RateLimitedError, systemClock, withRetries, type ChatLogger, type Clock, type ReplyWriter } from '@genbot/core';

/** The Slack calls native streaming makes; the surface binds them to the Web API. */
export interface StreamApi {
  setStatus(channel: string, threadTs: string, status: string): Promise<void>;
  start(input: { channel: string; threadTs: string; markdown: string; recipientUserId: string; recipientTeamId: string }): Promise<string>;
  append(channel: string, ts: string, markdown: string): Promise<void>;
  stop(channel: string, ts: string, markdown: string | undefined): Promise<void>;
}

export interface NativeStreamWriterOptions {
  api: StreamApi;
  channel: string;
  threadTs: string;
  recipientUserId: string;
  recipientTeamId: string;
  logger: ChatLogger;
  clock?: Clock;
  /** Shortest gap between two calls on one stream (Slack allows about one a second). */
  minIntervalMs?: number;
  /** Longest `markdown_text` one call may carry (Slack: 12,000). */
  maxChunkChars?: number;
  /**
   * The writer to continue with when the stream cannot start for a reason
   * other than a rate limit (streaming not offered in that conversation, say).
   * Without it, that failure fails the reply.
   */
  fallback?: () => ReplyWriter;
}

export const THINKING_STATUS = 'is thinking…';

/** Never cut between the halves of a surrogate pair. */
function chunkOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * Slack's own streaming (`SLACK_STREAMING=native`): the assistant status says
 * "is thinking…" until the first text, which starts the stream
 * (`chat.startStream`); later text is buffered and appended at most once per
 * `minIntervalMs`; `finish` stops the stream with whatever is left, so the
 * message ends with exactly the text appended. The text is standard Markdown
 * (`markdown_text`), so it is not converted to mrkdwn. Rate limits are waited
 * out and other failures retried a few times (core's policy) with the same
 * chunk, so nothing is lost or sent twice by the writer itself. When the
 * stream cannot start at all for another reason, the reply goes on in the
 * `fallback` writer, which gets everything appended so far.
 */
export class NativeStreamWriter implements ReplyWriter {
  readonly #o: Required<Omit<NativeStreamWriterOptions, 'clock' | 'fallback'>> & Pick<NativeStreamWriterOptions, 'fallback'> & { clock: Clock };
  /** Everything to show (appended text, and the error line once failed): closes code blocks, feeds a fallback. */
  #all = '';
  /** Appended but not yet sent. */
  #pending = '';
  #ts: string | undefined;
  /** Set once the stream could not start: from then on everything goes to it. */
  #fallback: ReplyWriter | undefined;
  #lastCallAt = Number.NEGATIVE_INFINITY;
  #closed = false;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;
  readonly #pump: Promise<void>;

  constructor(options: NativeStreamWriterOptions) {
    this.#o = { minIntervalMs: 1000, maxChunkChars: 12_000, clock: systemClock, ...options };
    const { api, channel, threadTs, logger } = this.#o;
    api.setStatus(channel, threadTs, THINKING_STATUS).catch((error: unknown) => {
      logger.debug({ err: error }, 'assistant status not shown');
    });
    this.#pump = this.#run().catch((error: unknown) => {
      this.#failure = { error };
    });
  }

  append(delta: string): void {
    if (this.#fallback !== undefined) {
      this.#fallback.append(delta);
      return;
    }
    if (this.#closed || delta === '') return;
    this.#all += delta;
    this.#pending += delta;
    this.#poke();
  }

  async finish(): Promise<void> {
    this.#closed = true;
    this.#poke();
    await this.#pump;
    if (this.#failure !== undefined) throw this.#failure.error;
    await this.#fallback?.finish();
  }

  fail(userMessage: string): Promise<void> {
    if (this.#fallback !== undefined && !this.#closed) {
      this.#closed = true;
      return this.#fallback.fail(userMessage);
    }
    if (!this.#closed) {
      if (this.#all.trim() === '') {
        this.#all = userMessage;
        this.#pending = userMessage;
      } else {
        // What was delivered stays; the error line follows it, outside any open code block.
        const addition = `${closeOpenFence(this.#all).slice(this.#all.length)}\n\n${userMessage}`;
        this.#all += addition;
        this.#pending += addition;
      }
    }
    return this.finish();
  }

  /** Hands everything so far to the fallback writer; `finish` (or the caller's next calls) completes it there. */
  #fallBack(create: () => ReplyWriter, error: unknown): void {
    this.#o.logger.warn({ err: error }, 'Slack native streaming could not start here; replying with in-place edits instead');
    const fallback = create();
    fallback.append(this.#all);
    this.#pending = '';
    this.#fallback = fallback;
  }

  #poke(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async #idle(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }

  async #call(step: () => Promise<void>): Promise<void> {
    await withRetries(step, this.#o.clock);
    this.#lastCallAt = this.#o.clock.now();
  }

  async #run(): Promise<void> {
    const { api, channel, threadTs, maxChunkChars, minIntervalMs, clock } = this.#o;
    for (;;) {
      const ts = this.#ts;
      if (ts === undefined) {
        if (this.#pending.trim() === '') {
          if (this.#closed) return;
          await this.#idle();
          continue;
        }
        // The first text goes out at once.
        const chunk = chunkOf(this.#pending, maxChunkChars);
        try {
          await this.#call(async () => {
            this.#ts = await api.start({
              channel,
              threadTs,
              markdown: chunk,
              recipientUserId: this.#o.recipientUserId,
              recipientTeamId: this.#o.recipientTeamId,
            });
          });
        } catch (error) {
          if (error instanceof RateLimitedError || this.#o.fallback === undefined) throw error;
          this.#fallBack(this.#o.fallback, error);
          return;
        }
        this.#pending = this.#pending.slice(chunk.length);
        continue;
      }
      if (this.#pending === '' && !this.#closed) {
        await this.#idle();
        continue;
      }
      const wait = this.#lastCallAt + minIntervalMs - clock.now();
      if (wait > 0) {
        await clock.sleep(wait);
        continue;
      }
      const chunk = chunkOf(this.#pending, maxChunkChars);
      if (this.#closed && chunk.length === this.#pending.length) {
        await this.#call(() => api.stop(channel, ts, chunk === '' ? undefined : chunk));
        this.#pending = '';
        return;
      }
      await this.#call(() => api.append(channel, ts, chunk));
      this.#pending = this.#pending.slice(chunk.length);
    }
  }
}
