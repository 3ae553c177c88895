import type { ChannelPace } from '../scheduling/channel-pace.js';
import { systemClock, type Clock } from '../time/clock.js';
import { wakeUp } from '../time/wake-up.js';
import type { ChatSurface, ChatTarget, PacedCall, SurfaceLimits } from '../surface/surface.js';

/**
 * The kinds of call a channel limits separately: new messages (posts,
 * uploads, a native stream's start), changes to them (edits, appends), and
 * messages only one person sees (Slack ephemerals), which the platform
 * counts apart from the channel's public posts.
 */
export type CallKind = 'post' | 'edit' | 'private';

/**
 * What a channel's budget paces apart: each kind of call, and the progress
 * markers that say where a waiting reply stands (Slack's assistant status),
 * which are no messages of the channel and go at the pace of its edits.
 */
export type LaneKind = CallKind | 'marker';

/**
 * Who goes first when a channel is busy: the calls that complete a reply
 * whose text is all there (its stream ended: the person is only waiting for
 * the platform); then the messages and text of running jobs, first come first
 * served; then where waiting requests stand (a place in line, posted or
 * moving up); then refusals, which end a request that will not run. When a
 * channel cannot keep up, finished work shows first, running work next, and a
 * flood of waiting or refused requests holds up nothing (their users are told
 * privately meanwhile, where the platform allows: `tellPrivatelyUnlessShown`).
 */
export type CallPriority = 'closing' | 'reply' | 'status' | 'refusal';

const PRIORITIES: readonly CallPriority[] = ['closing', 'reply', 'status', 'refusal'];

/** The surface's shortest gap between two calls of `kind` in one channel. */
export function callIntervalMs(limits: SurfaceLimits, kind: LaneKind): number {
  if (kind === 'private') return limits.minPrivateIntervalMs ?? limits.minPostIntervalMs;
  return kind === 'post' ? limits.minPostIntervalMs : limits.minEditIntervalMs;
}

/** The budget key a call to `where` waits its turn under: the surface's own, or the channel. */
export function paceKeyOf(surface: Pick<ChatSurface, 'paceKey'>, call: PacedCall, where: ChatTarget): string {
  return surface.paceKey?.(call, where) ?? where.channelId;
}

/** Calls of `kind` a channel of the surface takes in a row before its interval applies: a burst is for posts. */
export function callBurst(limits: SurfaceLimits, kind: LaneKind): number {
  return kind === 'post' ? (limits.channelBurst ?? 1) : 1;
}

/** How many recent calls a lane remembers: enough for any surface's burst. */
const MAX_BURST = 16;

interface Waiter {
  intervalMs: number;
  burst: number;
  grant(done: () => void): void;
}

interface Lane {
  channelId: string;
  kind: LaneKind;
  /** No call before this (the platform asked to hold off). */
  heldUntil: number;
  /** When the latest calls went out, oldest first; a call's time moves to when it was done. */
  recent: number[];
  /** After this, nothing of the lane's past holds a call back: an idle lane is then forgotten. */
  quietAt: number;
  /** Cuts the lane's wait short when a call asks for a turn (it may not have to wait as long). */
  wake: AbortController;
  queues: Record<CallPriority, Waiter[]>;
}

/**
 * The one per-channel budget of a bot process (pass the same instance to
 * every use case): every post and every edit in a channel waits for its turn,
 * at most `burst` calls of a kind in any `burst` intervals (one per interval
 * by default), first come first served within a priority. A burst lets a few
 * replies that start together in a channel show at once, as the platform
 * allows (Discord: five messages in five seconds), rather than a second
 * apart. A 429 from the platform holds the whole channel back for as long
 * as it asked, not only the caller that met it. Callers build their call once
 * their turn comes, so a reply that waited sends its latest text, and say when
 * it is done: the gap runs from then too, so calls reach the platform at least
 * an interval apart however long each took on the way. With a `ChannelPace`
 * shared by several processes, each turn also takes a slot there, so the
 * processes posting into one channel keep its pace together.
 */
export class ChannelBudget {
  readonly #clock: Clock;
  readonly #pace: ChannelPace | undefined;
  readonly #lanes = new Map<string, Lane>();

  constructor(options: { clock?: Clock; pace?: ChannelPace } = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#pace = options.pace;
  }

  /** Channels with calls waiting or a gap still running (for tests: idle channels are forgotten). */
  get activeChannels(): number {
    return this.#lanes.size;
  }

  /**
   * Resolves when one call of `kind` may go out in `channelId`, with the
   * function to call once it is done; rejects with the signal's reason when
   * it aborts first (the turn is then given up).
   */
  turn(
    channelId: string,
    kind: LaneKind,
    intervalMs: number,
    options: { priority?: CallPriority; signal?: AbortSignal | undefined; burst?: number } = {},
  ): Promise<() => void> {
    const { signal } = options;
    const burst = Math.min(MAX_BURST, Math.max(1, Math.floor(options.burst ?? 1)));
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const lane = this.#lane(channelId, kind);
    const queue = lane.queues[options.priority ?? 'reply'];
    return new Promise<() => void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = queue.indexOf(waiter);
        if (index !== -1) queue.splice(index, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        intervalMs,
        burst,
        grant: (done) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(done);
        },
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      wakeUp(lane.wake);
    });
  }

  /** The platform refused a call in the channel for its rate limit: no call of `kind` there for `ms`. */
  holdOff(channelId: string, kind: LaneKind, ms: number): void {
    const lane = this.#lane(channelId, kind);
    lane.heldUntil = Math.max(lane.heldUntil, this.#clock.now() + ms);
    lane.quietAt = Math.max(lane.quietAt, lane.heldUntil);
    wakeUp(lane.wake);
    // The other processes hold back too; if the shared pace cannot be reached, this one still does.
    this.#pace?.holdOff(channelId, kind, ms).catch(() => undefined);
  }

  #lane(channelId: string, kind: LaneKind): Lane {
    const key = `${kind} ${channelId}`;
    let lane = this.#lanes.get(key);
    if (lane === undefined) {
      lane = {
        channelId,
        kind,
        heldUntil: Number.NEGATIVE_INFINITY,
        recent: [],
        quietAt: Number.NEGATIVE_INFINITY,
        wake: new AbortController(),
        queues: { closing: [], reply: [], status: [], refusal: [] },
      };
      this.#lanes.set(key, lane);
      void this.#serve(key, lane);
    }
    return lane;
  }

  /** Hands out a lane's turns, within its interval and burst, until no one waits and its past has run out. */
  async #serve(key: string, lane: Lane): Promise<void> {
    // Turns are handed out a microtask after they are asked for, never inside `turn` itself.
    await Promise.resolve();
    for (;;) {
      const queue = PRIORITIES.map((priority) => lane.queues[priority]).find((waiting) => waiting.length > 0);
      const head = queue?.[0];
      const now = this.#clock.now();
      const dueAt = head === undefined ? lane.quietAt : Math.max(lane.heldUntil, this.#freeAt(lane, head));
      if (dueAt > now) {
        lane.wake = new AbortController();
        await this.#clock.sleep(dueAt - now, lane.wake.signal).catch(() => undefined);
        continue;
      }
      if (queue === undefined || head === undefined) {
        // Nothing asked for while the lane's past still counted: it is as good as new, so forget it.
        this.#lanes.delete(key);
        return;
      }
      queue.shift();
      await this.#sharedSlot(lane, head.intervalMs);
      const call = { at: this.#clock.now() };
      this.#remember(lane, head, call.at);
      head.grant(() => {
        const index = lane.recent.lastIndexOf(call.at);
        call.at = Math.max(call.at, this.#clock.now());
        if (index !== -1) lane.recent[index] = call.at;
        lane.recent.sort((a, b) => a - b);
        lane.quietAt = Math.max(lane.quietAt, call.at + head.burst * head.intervalMs);
      });
    }
  }

  /** When `waiter` may go by the lane's recent calls: fewer than its burst within its burst of intervals. */
  #freeAt(lane: Lane, waiter: Waiter): number {
    const { recent } = lane;
    if (recent.length < waiter.burst) return Number.NEGATIVE_INFINITY;
    return (recent[recent.length - waiter.burst] ?? Number.NEGATIVE_INFINITY) + waiter.burst * waiter.intervalMs;
  }

  #remember(lane: Lane, waiter: Waiter, at: number): void {
    lane.recent.push(at);
    if (lane.recent.length > MAX_BURST) lane.recent.shift();
    lane.quietAt = Math.max(lane.quietAt, at + waiter.burst * waiter.intervalMs);
  }

  /** Waits for the channel's slot among all processes, when they share a pace; unreachable, it is skipped. */
  async #sharedSlot(lane: Lane, intervalMs: number): Promise<void> {
    if (this.#pace === undefined) return;
    const waitMs = await this.#pace.reserve(lane.channelId, lane.kind, intervalMs).catch(() => 0);
    if (waitMs > 0) await this.#clock.sleep(waitMs);
  }
}
