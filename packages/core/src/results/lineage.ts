import type { ChatTarget } from '../surface/surface.js';
import type { ImageVersionKey } from '../store/index.js';

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
