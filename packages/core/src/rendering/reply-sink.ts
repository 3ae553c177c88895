import type { CallKind } from './channel-budget.js';

/** Before its first text a reply is waiting in line (its 1-based place) or working (the model call runs). */
export type ReplyStatus = { queued: number } | 'working';

/** A streamed reply as the pump hands it to a sink. */
export interface ReplyState {
  /** Everything to show, standard Markdown; it only ever grows. */
  readonly text: string;
  /** No more text will come: the platform should end up showing all of `text`. */
  readonly final: boolean;
  readonly status: ReplyStatus;
  /**
   * What the bot does right now, while a tool of the model works (standard
   * Markdown, `ReplyWriter.activity`): shown for as long as it lasts, never
   * part of `text`, and gone once the reply is final.
   */
  readonly activity?: string | undefined;
}

/** What a marker shows: where the reply stands, and what the bot does meanwhile. */
export type ReplyStanding = Pick<ReplyState, 'status' | 'activity'>;

/** One platform call a sink wants to make. */
export interface SinkCall {
  kind: CallKind;
  /** The call shows only the status (a placeholder), none of the reply's text. */
  statusOnly: boolean;
  /**
   * Not before this time (the pump's clock): a message just posted with text
   * is first edited an interval later, so its first edits coalesce too.
   */
  notBefore?: number | undefined;
  /**
   * Makes the call, building its text from the reply as it is now (it may
   * have grown while the call waited for its turn), or nothing when there is
   * nothing left of that kind to do.
   */
  run(reply: ReplyState): Promise<void>;
}

/**
 * How a reply reaches the platform, one call at a time: the edit sink (posts
 * and edits messages in place, splitting over the length limit) or the
 * stream sink (a platform's own streaming: start, append, stop). The pump
 * decides when calls go out (the channel's budget, retries, aborts); a sink
 * decides what they are.
 */
export interface ReplySink {
  /** The next call towards showing `reply`, or undefined when the platform shows all of it. */
  next(reply: ReplyState): SinkCall | undefined;
  /**
   * After an abort: one call that leaves `note` after what the platform shows
   * (a stream first marks a task it shows as failed); text not yet shown is
   * dropped.
   */
  end(note: string, reply: ReplyState): Promise<void>;
  /**
   * A marker shown until the first text (typing, an assistant status),
   * shown again when where the reply stands or its activity changes, and
   * renewed every `refreshMs` when set. The pump aborts `signal` before each
   * call of the reply and waits until `show` settles, so a marker that must
   * land first ignores it and one that may land late settles at once. A
   * marker that `showsPlace` shows where a waiting reply stands: each new
   * place after the first waits its turn among the channel's markers, at the
   * pace of its edits (`ReplyPump`).
   */
  readonly marker?:
    | {
        show(standing: ReplyStanding, signal: AbortSignal): Promise<void>;
        refreshMs?: number | undefined;
        showsPlace?: boolean | undefined;
      }
    | undefined;
  /** The sink to carry on with when this one's first call fails for a reason other than a rate limit. */
  readonly fallback?: (() => ReplySink) | undefined;
}
