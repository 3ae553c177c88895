import type { JobRejectedError } from '../scheduling/job-rejected-error.js';
import { converse } from './converse.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { tellPrivatelyUnlessShown } from './status-message.js';
import type { ChatTarget, ThreadMessage } from '../surface/surface.js';
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

/** Admission comes before any work: a mention the scheduler would turn away costs one short answer and no thread read. */
function refusedBeforeReading(deps: ChatDeps, userId: string | undefined): JobRejectedError | undefined {
  if (deps.scheduler === undefined || userId === undefined) return undefined;
  return deps.scheduler.refusal('stream', userId);
}

/**
 * A mention of the bot is a conversation: the thread (or reply chain), its
 * images and files, go to the model, which answers, and draws or edits
 * through its tools when asked to. Never rejects.
 */
export async function handleMention(input: MentionInput, deps: ChatDeps, signal?: AbortSignal): Promise<ChatOutcome> {
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
  return converse(
    { target: input.target, trigger: input.trigger, referenced: input.referenced, history, userId: input.userId },
    deps,
    signal,
  );
}
