import type { VersionLineage } from '../version-lineage.js';
import type { ImageVersionKey } from '../../store/index.js';
import type { UploadReceipt } from '../../surface/surface.js';

/** An image of the conversation, by where it is shown: which message, and which of its images. */
export interface ShownImage {
  messageId: string;
  position: number;
}

/**
 * What a conversation's tools need from the job they run in (a job's worker
 * gives it; a conversation outside a job runs its tools without versions,
 * quotas or resumption): a job run again after a crash does not draw twice.
 */
export interface ToolJob {
  /** What the job's next result is in the version tree: its lineage, records and buttons. */
  nextResult(lineage: VersionLineage): void;
  /** The version an image of the conversation is, when the bot made it. */
  versionOf(image: ShownImage): Promise<{ key: ImageVersionKey; number: number } | undefined>;
  /**
   * Reserves `images` for the job's tool call number `call` against the
   * daily quotas before anything is asked of the service, as a recorded
   * step; the refusal's words when it cannot. Each run reserves afresh: the
   * usage a run records when it ends replaces what it reserved, so after a
   * crash the quota counts the call twice until the run that resumes it ends,
   * which errs on the side of the quota.
   */
  reserveImages(call: number, images: number): Promise<string | undefined>;
  /** Gives back what call `call` reserved and did not make. */
  releaseImages(call: number, images: number): Promise<void>;
  /**
   * The job's next upload when a run before already made it: taken (the
   * job's uploads go on after it), so that tool call is not run again.
   */
  postedBefore(): UploadReceipt | undefined;
}
