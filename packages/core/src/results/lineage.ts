import type { ChatTarget } from '../surface/surface.js';
import type { ImageVersionKey, VersionOrigin } from '../store/index.js';

/**
 * What a job's images are in the version tree, known before they are made:
 * recorded with each image, and deciding the result's buttons (the result's
 * text is the use case's, given its presentation).
 */
export interface VersionLineage {
  origin: VersionOrigin;
  /** The version the images were made from (an edit, a variation), or the one an undo shows again. */
  parent?: ImageVersionKey | undefined;
  /** The prompt or instruction recorded with the images. */
  prompt: string;
  aspectRatio?: string | undefined;
  /** Whether the result gets Re-roll (not for an edit of an image the bot did not make). */
  reroll: boolean;
  /** Whether the result gets Undo (its images were made from a version). */
  undo: boolean;
}

/** A press of a result's button (or its form's submission): which version, and for an edit, how to change it. */
export interface ResultActionInput {
  /** Where the new result and its progress go (Slack: the result's thread; Discord: the interaction's answer). */
  target: ChatTarget;
  /** The version the button points at. */
  version: ImageVersionKey;
  /** Edit only: the form's instruction. */
  instruction?: string | undefined;
  /** Who pressed: the job counts for them. */
  userId: string;
}
