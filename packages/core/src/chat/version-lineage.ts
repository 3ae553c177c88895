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
