/**
 * Switchable failures of file transfers (uploads, downloads), shared by both
 * fakes: platform rate limits do not cover these, and a bot must cope with
 * them failing on their own. Off by default, so tests opt in.
 */
export interface CountedFault {
  /** Fail only the next N transfers; by default every one until switched off. */
  readonly times?: number;
}

interface ActiveFault<F> {
  readonly fault: F;
  remaining: number;
}

export class TransferFaults<F extends CountedFault> {
  #active: ActiveFault<F>[] = [];

  /** Switches a fault on; the returned function switches it off again. */
  add(fault: F): () => void {
    const active: ActiveFault<F> = { fault, remaining: fault.times ?? Number.POSITIVE_INFINITY };
    this.#active.push(active);
    return () => {
      this.#active = this.#active.filter((f) => f !== active);
    };
  }

  /** Counts a transfer against the oldest fault still active and answers it; undefined when it may proceed. */
  take(): F | undefined {
    const active = this.#active.find((f) => f.remaining > 0);
    if (active === undefined) return undefined;
    active.remaining -= 1;
    return active.fault;
  }
}

/** A file host answering with a redirect instead of the file (a proxy gone wrong, or a hostile host). */
export interface RedirectFault extends CountedFault {
  /** The `Location` to answer with. */
  readonly location: string;
}
