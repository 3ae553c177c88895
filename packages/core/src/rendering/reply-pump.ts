import type { Clock } from '../time/clock.js';
import { wakeUp } from '../time/wake-up.js';
import { type CallKind, type CallPriority, callBurst, callIntervalMs, type ChannelBudget } from './channel-budget.js';
import { stoppedEarly } from '../scheduling/stopped-early.js';
import { RateLimitedError } from '../surface/rate-limited-error.js';
import { closeOpenFence } from './fences.js';
import type { ChatLogger } from '../surface/ports.js';
import { RetryBudget } from './retry.js';
import type { ReplySink, ReplyState, ReplyStatus, SinkCall } from './reply-sink.js';
import type { ChatTarget, SurfaceLimits } from '../surface/surface.js';

/**
 * One streamed reply. `append` never blocks; `finish` resolves once the
 * complete text is on the platform; `fail` keeps what was delivered and adds
 * `userMessage` (standard Markdown), or shows it alone when no text came (so a
 * reply without text ends in `fail`, never `finish`). Either may reject when
 * the platform keeps refusing. From the moment it is opened until its first
 * text, a writer shows where the reply stands: its place in line (`queued`),
 * then that the model works (`started`). While the model's tools work, it
 * also says what the bot does (`activity`).
 */
export interface ReplyWriter {
  append(delta: string): void;
  /** The reply waits in line, at this 1-based place. */
  queued(position: number): void;
  /** The model call began: the reply no longer waits. */
  started(): void;
  /**
   * What the bot does meanwhile (standard Markdown, worded by the caller:
   * "Drawing …"), shown until cleared with undefined or until the reply ends;
   * never part of the reply's text.
   */
  activity(line: string | undefined): void;
  finish(): Promise<void>;
  fail(userMessage: string): Promise<void>;
  /**
   * Resolves once no new message of the reply waits to be posted: its
   * message is on the platform (a placeholder counts), or its sink has none
   * to post yet (a platform stream starts with its first words), or the
   * reply ended. What the bot posts next in the channel (a tool's result)
   * then lands after the reply, while the reply's edits go on.
   */
  posted(): Promise<void>;
  /**
   * Resolves once something of the reply is on screen (its first message, or
   * its marker), or it ended without anything to show.
   */
  readonly shown: Promise<void>;
}

export interface ReplyPumpOptions {
  sink: ReplySink;
  target: ChatTarget;
  limits: SurfaceLimits;
  /** The process's per-channel budget: every call of the reply waits its turn there. */
  channels: ChannelBudget;
  /** The budget key a call of `kind` waits under (`paceKeyOf`); the target's channel by default. */
  paceKey?: ((kind: CallKind) => string) | undefined;
  clock: Clock;
  logger: ChatLogger;
  /**
   * Ends the reply early (the trigger deleted, shutdown): nothing more is
   * sent but one last call with the line `fail` gives, after what is shown.
   */
  signal?: AbortSignal | undefined;
  /**
   * The line a reply ends with when a stop cuts off text the caller had
   * already finished: why it stopped (the trigger deleted, or a restart).
   */
  stopped?: ((stop: 'cancelled' | 'restart') => string) | undefined;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * The coalescing pump every streamed reply runs on, whatever the sink: it
 * holds the text, asks the sink for the next call, waits for the channel's
 * turn (so deltas that arrive meanwhile go out together, in one call with the
 * latest text), and makes it. A rate limit holds the channel back for as long
 * as the platform asked; other failures are retried a few times. Until the
 * model call starts, changes to where it stands and refusals wait behind
 * running replies' text in a busy channel (`#priorityOf`). An abort stops it at once, but for the closing line.
 */
export class ReplyPump implements ReplyWriter {
  readonly #o: ReplyPumpOptions;
  readonly #retries = new RetryBudget();
  #sink: ReplySink;
  /** Calls the current sink made successfully. */
  #sinkCalls = 0;
  #text = '';
  #status: ReplyStatus = 'working';
  #activity: string | undefined;
  /** Counts status and activity changes, so the marker never misses one that came while it was being shown. */
  #statusVersion = 0;
  #running = false;
  #closed = false;
  /** After an abort: the line to end with, as `fail` gave it. */
  #note: string | undefined;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;
  /** Callers of `posted`, told once the sink has no new message to post. */
  #postedWaiters: (() => void)[] = [];
  #ended = false;
  /**
   * The wait for a call's time or the channel's turn, cut short when the call
   * would now go at another priority, or sooner (a placeholder's first words).
   */
  #waiting: { priority: CallPriority; notBefore: number; replan: AbortController } | undefined;
  readonly #markerDone = new AbortController();
  #markerWake = new AbortController();
  /** Aborted when the model call starts: a place in line still waiting to be shown gives way to that. */
  readonly #markerWorking = new AbortController();
  /** Aborted before each call of the reply, so a slow marker does not hold it back (`ReplySink['marker']`). */
  #markerCut = new AbortController();
  #markerCall: Promise<void> = Promise.resolve();
  #onScreen: () => void = () => undefined;
  readonly #shown = new Promise<void>((resolve) => {
    this.#onScreen = resolve;
  });
  readonly #pump: Promise<void>;

  constructor(options: ReplyPumpOptions) {
    this.#o = options;
    this.#sink = options.sink;
    const { signal } = options;
    const onAbort = (): void => this.#poke();
    signal?.addEventListener('abort', onAbort, { once: true });
    const marker = this.#sink.marker;
    if (marker !== undefined) void this.#keepMarker(marker);
    this.#pump = this.#run()
      .catch((error: unknown) => {
        this.#failure = { error };
      })
      .finally(() => {
        this.#ended = true;
        for (const done of this.#postedWaiters.splice(0)) done();
        wakeUp(this.#markerDone);
        this.#onScreen();
        signal?.removeEventListener('abort', onAbort);
      });
  }

  get shown(): Promise<void> {
    return this.#shown;
  }

  append(delta: string): void {
    if (this.#closed || delta === '') return;
    this.#text += delta;
    this.#replanIfNeeded();
    this.#poke();
  }

  queued(position: number): void {
    if (this.#closed || this.#running) return;
    this.#status = { queued: position };
    this.#statusVersion += 1;
    wakeUp(this.#markerWake);
    this.#replanIfNeeded();
    this.#poke();
  }

  started(): void {
    if (this.#running) return;
    this.#running = true;
    this.#status = 'working';
    this.#statusVersion += 1;
    wakeUp(this.#markerWake);
    wakeUp(this.#markerWorking);
    this.#replanIfNeeded();
    this.#poke();
  }

  activity(line: string | undefined): void {
    const next = line?.trim() === '' ? undefined : line;
    if (this.#closed || next === this.#activity) return;
    this.#activity = next;
    this.#statusVersion += 1;
    wakeUp(this.#markerWake);
    this.#replanIfNeeded();
    this.#poke();
  }

  async finish(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      // The reply is complete: what the bot was doing is over, and the last message never shows it.
      this.#activity = undefined;
      this.#replanIfNeeded();
    }
    this.#poke();
    await this.#pump;
    if (this.#failure !== undefined) throw this.#failure.error;
  }

  fail(userMessage: string): Promise<void> {
    if (!this.#closed) {
      if (this.#aborted()) {
        this.#note = userMessage;
      } else if (this.#text.trim() === '') {
        this.#text = userMessage;
      } else {
        // What was delivered stays; the line follows it, outside any open code block.
        this.#text = `${closeOpenFence(this.#text)}\n\n${userMessage}`;
      }
      this.#replanIfNeeded();
    }
    return this.finish();
  }

  #aborted(): boolean {
    return this.#o.signal?.aborted === true;
  }

  posted(): Promise<void> {
    if (this.#ended || !this.#postDue()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#postedWaiters.push(resolve);
    });
  }

  /** The sink's next call would post a new message. */
  #postDue(): boolean {
    return this.#sink.next(this.#state())?.kind === 'post';
  }

  #tellPosted(): void {
    if (this.#postedWaiters.length > 0 && !this.#postDue()) {
      for (const done of this.#postedWaiters.splice(0)) done();
    }
  }

  #state(): ReplyState {
    return { text: this.#text, final: this.#closed, status: this.#status, activity: this.#activity };
  }

  #poke(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #idle(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }

  async #run(): Promise<void> {
    for (;;) {
      if (this.#aborted()) return this.#endAborted();
      const call = this.#sink.next(this.#state());
      if (call === undefined) {
        this.#tellPosted();
        if (this.#closed) return;
        await this.#idle();
        continue;
      }
      const priority = this.#priorityOf(call);
      const notBefore = call.notBefore ?? Number.NEGATIVE_INFINITY;
      if (notBefore > this.#o.clock.now()) {
        // Text arriving meanwhile joins the call; an abort or a call due sooner cuts the wait short.
        await this.#until(notBefore, priority);
        continue;
      }
      const done = await this.#turn(call.kind, priority);
      if (done === undefined) continue;
      await this.#markerSettled();
      try {
        await call.run(this.#state());
      } catch (error) {
        done();
        if (!this.#aborted()) await this.#failed(error, call.kind);
        continue;
      }
      done();
      this.#onScreen();
      this.#sinkCalls += 1;
      this.#tellPosted();
      this.#retries.succeeded();
      if (!call.statusOnly) wakeUp(this.#markerDone);
    }
  }

  /**
   * A running reply's messages take their turn with the replies (its answer
   * will edit a placeholder), and once all its text is there they complete it
   * ahead of replies still streaming, whose next edit would be stale a second
   * later anyway; a place in line, posted or changed, waits behind running
   * replies' text; text before the job ever ran ends a request that will not
   * run: a refusal.
   */
  #priorityOf(call: SinkCall): CallPriority {
    if (call.statusOnly) return call.kind === 'post' && this.#running ? 'reply' : 'status';
    if (!this.#running) return 'refusal';
    return this.#closed ? 'closing' : 'reply';
  }

  /**
   * A wait whose call would now go at another priority (text came, or a
   * refusal), or is due sooner (the first words came while a placeholder
   * waited to be needed), plans again.
   */
  #replanIfNeeded(): void {
    const waiting = this.#waiting;
    if (waiting === undefined) return;
    const call = this.#sink.next(this.#state());
    if (
      call === undefined ||
      this.#priorityOf(call) !== waiting.priority ||
      (call.notBefore ?? Number.NEGATIVE_INFINITY) < waiting.notBefore
    ) {
      wakeUp(waiting.replan);
    }
  }

  /** The signal that cuts a wait short: an abort, or a change of plan (`#replanIfNeeded`). */
  #cutWhenReplanned(priority: CallPriority, notBefore: number): AbortSignal {
    const { signal } = this.#o;
    const replan = new AbortController();
    this.#waiting = { priority, notBefore, replan };
    return signal === undefined ? replan.signal : AbortSignal.any([signal, replan.signal]);
  }

  /** Waits until `notBefore`, or less when cut short. */
  async #until(notBefore: number, priority: CallPriority): Promise<void> {
    const { clock } = this.#o;
    const cut = this.#cutWhenReplanned(priority, notBefore);
    try {
      await clock.sleep(notBefore - clock.now(), cut).catch(() => undefined);
    } finally {
      this.#waiting = undefined;
    }
  }

  /** Waits for the channel's turn; undefined when the wait was cut short (an abort, or a new plan). */
  async #turn(kind: CallKind, priority: CallPriority): Promise<(() => void) | undefined> {
    const { channels, limits } = this.#o;
    const cut = this.#cutWhenReplanned(priority, Number.NEGATIVE_INFINITY);
    try {
      return await channels.turn(this.#keyOf(kind), kind, callIntervalMs(limits, kind), {
        priority,
        signal: cut,
        burst: callBurst(limits, kind),
      });
    } catch (error) {
      if (cut.aborted) return undefined;
      throw error;
    } finally {
      this.#waiting = undefined;
    }
  }

  #keyOf(kind: CallKind): string {
    return this.#o.paceKey?.(kind) ?? this.#o.target.channelId;
  }

  async #failed(error: unknown, kind: CallKind): Promise<void> {
    const { logger, channels, clock, signal } = this.#o;
    const fallback = this.#sink.fallback;
    if (this.#sinkCalls === 0 && fallback !== undefined && !(error instanceof RateLimitedError)) {
      logger.warn({ err: error }, 'the reply could not start this way; carrying on with in-place edits');
      this.#sink = fallback();
      return;
    }
    const delay = this.#retries.delayAfter(error);
    if (delay === undefined) throw error;
    logger.warn({ err: error, retryInMs: delay }, 'chat surface call failed; retrying with the latest text');
    if (error instanceof RateLimitedError) channels.holdOff(this.#keyOf(kind), kind, delay);
    else await clock.sleep(delay, signal).catch(() => undefined);
  }

  /**
   * Stopped: nothing more goes out but one call leaving a closing line after
   * what is shown: the caller's (`fail`), or, when the stop cut off text the
   * caller had finished, what stopped it.
   */
  async #endAborted(): Promise<void> {
    while (!this.#closed) await this.#idle();
    const { signal, stopped } = this.#o;
    const cutOff = this.#sink.next(this.#state()) !== undefined;
    const stop = stoppedEarly(undefined, signal);
    // Another worker took the job over and answers: a closing line from here would be a second one.
    if (stop === 'handedOver') return;
    const note = this.#note ?? (cutOff && stop !== undefined ? stopped?.(stop) : undefined);
    if (note === undefined) return;
    await this.#markerSettled();
    try {
      await this.#sink.end(note, this.#state());
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'could not leave the closing line of a stopped reply');
    }
  }

  /**
   * A marker call in flight is cut short and settled first: one that must
   * land before the reply it announces does, one that may land late (typing)
   * lets the reply go at once.
   */
  async #markerSettled(): Promise<void> {
    wakeUp(this.#markerCut);
    await this.#markerCall;
  }

  async #keepMarker(marker: NonNullable<ReplySink['marker']>): Promise<void> {
    // A place in line given as soon as the reply is made is its first status, not "working" before it. The
    // reply's first call cannot start within this microtask, so the marker is still under way before it.
    await Promise.resolve();
    const done = this.#markerDone.signal;
    const { signal, clock, logger } = this.#o;
    let shownOnce = false;
    while (!done.aborted && signal?.aborted !== true) {
      let version = this.#statusVersion;
      const paced = marker.showsPlace === true && shownOnce && this.#status !== 'working';
      this.#markerWake = new AbortController();
      this.#markerCut = new AbortController();
      const cut = this.#markerCut.signal;
      this.#markerCall = (async () => {
        const turnDone = paced ? await this.#placeTurn(cut) : undefined;
        if (paced && turnDone === undefined) return;
        // The latest place: those that came while this one waited its turn are shown with it.
        version = this.#statusVersion;
        try {
          await marker.show({ status: this.#status, activity: this.#activity }, cut);
        } finally {
          turnDone?.();
        }
        shownOnce = true;
        this.#onScreen();
      })().catch((error: unknown) => logger.debug({ err: error }, 'progress marker failed'));
      await this.#markerCall;
      if (version !== this.#statusVersion) continue;
      const wake = AbortSignal.any([done, this.#markerWake.signal, ...(signal === undefined ? [] : [signal])]);
      if (marker.refreshMs === undefined) await untilAborted(wake);
      else await clock.sleep(marker.refreshMs, wake).catch(() => undefined);
    }
  }

  /**
   * The channel's turn to show a new place in line as the marker, one per
   * edit interval among the channel's waiting replies: a long line moving up
   * would otherwise cost a call per waiting reply at every step. Markers are
   * no messages, so their turns are apart from the text's. Undefined when cut
   * short: by the reply's own first call, its end, an abort, or its work
   * starting (which shows at once).
   */
  async #placeTurn(cut: AbortSignal): Promise<(() => void) | undefined> {
    const { channels, limits, signal } = this.#o;
    const stops = [cut, this.#markerDone.signal, this.#markerWorking.signal];
    try {
      return await channels.turn(this.#keyOf('edit'), 'marker', callIntervalMs(limits, 'marker'), {
        priority: 'status',
        signal: AbortSignal.any(signal === undefined ? stops : [...stops, signal]),
      });
    } catch {
      return undefined;
    }
  }
}
