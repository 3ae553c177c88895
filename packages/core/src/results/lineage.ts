import type { AttachmentRef, ChatTarget } from '../surface/surface.js';
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
  /**
   * The images of the message pressed, as the press showed them, and of the
   * version's parent, as an earlier job was shown them, where the bot may not
   * read messages back (a Discord user install): kept with the job, so a
   * worker anywhere, or after a restart, downloads the versions from them.
   */
  shown?: readonly AttachmentRef[] | undefined;
}
