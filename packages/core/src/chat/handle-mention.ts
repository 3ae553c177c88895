import { isImageAttachment } from './attachments.js';
import { converse } from './converse.js';
import { copy } from './copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { editImage } from './edit-image.js';
import { say } from './status-message.js';
import type { AttachmentRef, ChatTarget, ThreadMessage } from './surface.js';
import { readThreadOrNothing } from './thread-history.js';

export interface MentionInput {
  /** The thread the answer goes to (the mention itself when it starts none). */
  target: ChatTarget;
  /** The mention: its author, its text with mention markup stripped, its attachments. */
  trigger: ThreadMessage;
  /** The message the mention replies to (Discord replies), if any. */
  referenced?: ThreadMessage | undefined;
  /** The platform user asking; with `deps.scheduler`, the model call waits its turn under their share. */
  userId?: string | undefined;
}

/** The thread's images before the trigger, latest message first. */
function threadImages(thread: readonly ThreadMessage[], trigger: ThreadMessage): AttachmentRef[] {
  const end = thread.findIndex((message) => message.id === trigger.id);
  const before = end === -1 ? thread : thread.slice(0, end);
  return [...before].reverse().flatMap((message) => message.attachments.filter(isImageAttachment));
}

/**
 * A mention of the bot: with an image at hand (attached, on the replied-to
 * message, or earlier in the thread) its text is an edit instruction;
 * otherwise it is a conversation. A mention carrying only non-image files is
 * refused with a short answer. Never rejects.
 */
export async function handleMention(input: MentionInput, deps: ChatDeps, signal?: AbortSignal): Promise<ChatOutcome> {
  const own = input.trigger.attachments;
  const firstOwn = own[0];
  if (firstOwn !== undefined && !own.some(isImageAttachment)) {
    try {
      await say(deps, input.target, copy.notAnImage(firstOwn.name));
    } catch (error) {
      deps.logger.error({ err: error }, 'could not answer the mention');
    }
    return 'rejected';
  }
  const direct = [...own, ...(input.referenced?.attachments ?? [])].filter(isImageAttachment);
  if (direct.length > 0) {
    return editImage({ target: input.target, instruction: input.trigger.text, candidates: direct, userId: input.userId }, deps, signal);
  }

  const history = await readThreadOrNothing(deps, input.target, signal);
  const fromThread = threadImages(history, input.trigger);
  if (fromThread.length > 0) {
    return editImage({ target: input.target, instruction: input.trigger.text, candidates: fromThread, userId: input.userId }, deps, signal);
  }
  return converse({ target: input.target, trigger: input.trigger, history, userId: input.userId }, deps, signal);
}
