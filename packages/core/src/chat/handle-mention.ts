import { isImageAttachment } from '../files/attachments.js';
import type { JobRejectedError } from '../scheduling/job-rejected-error.js';
import { converse } from './converse.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { editImage } from './edit-image.js';
import type { ImageJobPresentation } from './image-job.js';
import { say, tellPrivatelyUnlessShown } from './status-message.js';
import type { AttachmentRef, ChatTarget, ThreadMessage } from '../surface/surface.js';
import { readThreadOrNothing } from './thread-history.js';
import { turnAway } from './turn-away.js';

export interface MentionInput {
  /** The thread the answer goes to (the mention itself when it starts none). */
  target: ChatTarget;
  /** The mention: its author, its text with mention markup stripped, its attachments. */
  trigger: ThreadMessage;
  /** The message the mention replies to (Discord replies), if any. */
  referenced?: ThreadMessage | undefined;
  /**
   * The whole conversation, oldest first, when the platform's ingress saw all of it (a Discord
   * reply chain of the mention and at most the message it replies to): the thread is then not
   * read again, which spares a worker without the gateway's cache a REST call per mention.
   */
  history?: readonly ThreadMessage[] | undefined;
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
 * Admission comes before any work: a mention the scheduler would turn away
 * whether it is a conversation or an edit (which only the thread can tell)
 * costs one short answer and no thread read.
 */
function refusedBeforeReading(deps: ChatDeps, userId: string | undefined): JobRejectedError | undefined {
  if (deps.scheduler === undefined || userId === undefined) return undefined;
  const chat = deps.scheduler.refusal('stream', userId);
  return chat !== undefined && deps.scheduler.refusal('image', userId) !== undefined ? chat : undefined;
}

/**
 * A mention of the bot: with an image at hand (attached, on the replied-to
 * message, or earlier in the thread) its text is an edit instruction;
 * otherwise it is a conversation. A mention carrying only non-image files is
 * refused with a short answer. Never rejects.
 */
export async function handleMention(
  input: MentionInput,
  deps: ChatDeps,
  signal?: AbortSignal,
  /** How an edit's result shows itself (its version lineage); a conversation ignores it. */
  editPresentation: ImageJobPresentation = {},
): Promise<ChatOutcome> {
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
    return editImage(
      { target: input.target, instruction: input.trigger.text, candidates: direct, userId: input.userId },
      deps,
      signal,
      editPresentation,
    );
  }

  const refusal = refusedBeforeReading(deps, input.userId);
  if (refusal !== undefined) {
    deps.logger.info({ reason: refusal.reason, retryAfterSeconds: refusal.retryAfterSeconds }, 'mention refused');
    const answer =
      refusal.reason === 'shutting_down'
        ? copy.interruptedByRestart(input.trigger.text)
        : copy.busy(refusal.reason, refusal.retryAfterSeconds);
    // Behind admitted requests' messages in a busy channel, as every refusal: told privately meanwhile.
    const answered = turnAway(deps, input.target, input.trigger, answer, input.userId);
    tellPrivatelyUnlessShown(deps, input.target, input.userId, () => answer, answered);
    await answered.catch((error: unknown) => deps.logger.error({ err: error }, 'could not answer the mention'));
    return 'rejected';
  }
  const history = input.history ?? (await readThreadOrNothing(deps, input.target, signal));
  const fromThread = threadImages(history, input.trigger);
  if (fromThread.length > 0) {
    return editImage(
      { target: input.target, instruction: input.trigger.text, candidates: fromThread, userId: input.userId },
      deps,
      signal,
      editPresentation,
    );
  }
  return converse({ target: input.target, trigger: input.trigger, history, userId: input.userId }, deps, signal);
}
