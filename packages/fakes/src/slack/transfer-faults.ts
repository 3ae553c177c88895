/**
 * Switchable failures of the file host (upload URLs, `url_private` downloads). The Web API's rate
 * limits do not cover these URLs, and a bot must cope with them failing on their own: off by
 * default, so tests opt in.
 */
export interface TransferFault {
  /** The HTTP status to answer with, e.g. 500 for an upload, 403 or 404 for a download. */
  status: number;
  /** Fail only the next N transfers; by default every one until switched off. */
  times?: number;
}

interface ActiveFault {
  status: number;
  remaining: number;
}

export class TransferFaults {
  #active: ActiveFault[] = [];

  /** Switches a fault on; the returned function switches it off again. */
  add(fault: TransferFault): () => void {
    const active: ActiveFault = { status: fault.status, remaining: fault.times ?? Number.POSITIVE_INFINITY };
    this.#active.push(active);
    return () => {
      this.#active = this.#active.filter((f) => f !== active);
    };
  }

  /** Counts a transfer against the oldest fault still active: the status to fail it with, or undefined. */
  take(): number | undefined {
    const fault = this.#active.find((f) => f.remaining > 0);
    if (fault === undefined) return undefined;
    fault.remaining -= 1;
    return fault.status;
  }
}
