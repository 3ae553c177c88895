import type { CountedFault } from '../transfer-faults.js';

/** A failure of Slack's file host (upload URLs, `url_private` downloads). */
export interface TransferFault extends CountedFault {
  /** The HTTP status to answer with, e.g. 500 for an upload, 403 or 404 for a download. */
  status: number;
}
