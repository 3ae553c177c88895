import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { extensionForMimeType } from '../genai/mime.js';
import { loadSourceImage } from './source-image.js';
import { say } from './status-message.js';
import type { AttachmentRef, ChatTarget } from '../surface/surface.js';
import { deliverImages } from './upload-images.js';

export interface RestoreImageInput {
  target: ChatTarget;
  /** The image shown again, as the platform keeps it. */
  source: AttachmentRef;
  /** The result's text (`copy.restoredComment`). */
  comment: string;
  /** The files' stem (`imageFileStem`): the prompt and the version shown again. */
  stem: string;
}

/**
 * Undo: an image the bot posted before is shown again, as a new result (with
 * its own buttons, which the surface adds), downloaded from the platform and
 * uploaded again; no model is called, so nothing waits in line. A source
 * that is gone (deleted on the platform) gets the short answer that says so.
 * Never rejects.
 */
export async function restoreImage(
  input: RestoreImageInput,
  deps: ChatDeps,
  signal?: AbortSignal,
): Promise<ChatOutcome> {
  try {
    const loaded = await loadSourceImage(deps, input.source, signal);
    if (!loaded.ok) {
      await say(deps, input.target, loaded.answer);
      return 'rejected';
    }
    const image = { ...loaded.image, extension: extensionForMimeType(loaded.image.mimeType) };
    const delivered = await deliverImages(deps, input.target, [image], input.stem, { text: input.comment });
    if (delivered.ok) return 'done';
    await say(deps, input.target, delivered.answer);
    return 'failed';
  } catch (error) {
    // Stopped by a restart or a cancellation: the worker leaves it for the next start.
    if (signal?.aborted === true) return 'failed';
    deps.logger.error({ err: error }, 'undo failed');
    await say(deps, input.target, copy.uploadFailed).catch((sayError: unknown) =>
      deps.logger.error({ err: sayError }, 'could not tell that the undo failed'),
    );
    return 'failed';
  }
}
