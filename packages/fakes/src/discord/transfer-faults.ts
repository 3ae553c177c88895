/**
 * Switchable failures of file transfers: attachment downloads from the CDN and uploads in
 * multipart requests. Off by default, so tests opt in to see how a bot copes.
 */
export interface TransferFault {
  /** Fail only the next N transfers; by default every one until switched off. */
  readonly times?: number;
}

export interface DownloadFault extends TransferFault {
  /** The CDN's answer, e.g. 404 for an expired or deleted attachment, 403 for one no longer shared. */
  readonly status: 403 | 404 | 410 | 500 | 503;
}

export interface TransferFaultSwitch {
  /** Switches this fault off again. */
  off(): void;
}

interface ActiveFault<F> {
  readonly fault: F;
  remaining: number;
}

export class TransferFaults<F extends TransferFault> {
  #active: ActiveFault<F>[] = [];

  add(fault: F): TransferFaultSwitch {
    const active: ActiveFault<F> = { fault, remaining: fault.times ?? Number.POSITIVE_INFINITY };
    this.#active.push(active);
    return {
      off: () => {
        this.#active = this.#active.filter((f) => f !== active);
      },
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
