import type { CountedFault } from '../transfer-faults.js';

/** A failure of Discord's file transfers: attachment downloads from the CDN, uploads in multipart requests. */
export type TransferFault = CountedFault;

export interface DownloadFault extends TransferFault {
  /** The CDN's answer, e.g. 404 for an expired or deleted attachment, 403 for one no longer shared. */
  readonly status: 403 | 404 | 410 | 500 | 503;
  /** Only downloads of this attachment (whatever its URL's signature); by default every download. */
  readonly attachmentId?: string | undefined;
}

/** Interaction callbacks that reach Discord late (a slow network): each waits `delayMs` before it counts. */
export interface SlowCallback extends CountedFault {
  readonly delayMs: number;
}

export interface TransferFaultSwitch {
  /** Switches this fault off again. */
  off(): void;
}
