import { describeError } from '../genai/describe-error.js';
import { cancelledByTrigger } from '../jobs/cancellation-registry.js';
import { JobRejectedError } from '../jobs/job-rejected-error.js';
import { runModelCall } from '../jobs/run-model-call.js';
import { systemClock } from './clock.js';
import { buildConversation } from './conversation.js';
import { copy } from './copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { createEditReplyWriter } from './edit-reply-writer.js';
import type { ChatTarget, ReplyWriter, ThreadMessage } from './surface.js';
import { readThreadOrNothing } from './thread-history.js';

export const DEFAULT_MAX_TOKENS = 2_048;

export interface ConverseInput {
  /** The thread the reply goes to (the mention itself when it starts none). */
  target: ChatTarget;
  /** The mention: its author, its text with mention markup stripped. */
  trigger: ThreadMessage;
  /** The thread's messages when the caller has read them already; read here otherwise. */
  history?: readonly ThreadMessage[] | undefined;
  /** The platform user asking; with `deps.scheduler`, the stream waits its turn under their share. */
  userId?: string | undefined;
}

async function close(deps: ChatDeps, writer: ReplyWriter, failure: string | undefined): Promise<boolean> {
  try {
    await (failure === undefined ? writer.finish() : writer.fail(failure));
    return true;
  } catch (error) {
    deps.logger.error({ err: error }, 'could not deliver the reply');
    return false;
  }
}

/**
 * A mention answered in its thread: the thread becomes the conversation, the
 * reply streams through the surface's writer (or edits in place), and a
 * failure ends in a short human line; so do a scheduler refusal (when to try
 * again) and an abort (cancelled or stopped). Never rejects.
 */
export async function converse(input: ConverseInput, deps: ChatDeps, signal?: AbortSignal): Promise<ChatOutcome> {
  const { surface, config } = deps;
  const writer =
    surface.openReplyWriter?.(input.target, { recipientUserId: input.trigger.author.id }) ??
    createEditReplyWriter(surface, input.target, { clock: deps.clock ?? systemClock, logger: deps.logger });
  const history = input.history ?? (await readThreadOrNothing(deps, input.target, signal));
  const messages = buildConversation(history, input.trigger, {
    ...(config.historyTokenBudget === undefined ? {} : { tokenBudget: config.historyTokenBudget }),
  });

  let hadText = false;
  let refused = false;
  try {
    await runModelCall(deps, { lane: 'stream', userId: input.userId, signal }, async (jobSignal) => {
      const stream = deps.chat.streamMessage(
        {
          model: config.chatModel,
          messages,
          max_tokens: config.maxTokens ?? DEFAULT_MAX_TOKENS,
          ...(config.system === undefined ? {} : { system: config.system }),
        },
        jobSignal === undefined ? {} : { signal: jobSignal },
      );
      for await (const delta of stream.textDeltas()) {
        hadText = true;
        writer.append(delta);
      }
      refused = !hadText && (await stream.finalMessage()).stopReason === 'refusal';
    });
  } catch (error) {
    if (error instanceof JobRejectedError) {
      deps.logger.info({ reason: error.reason, retryAfterSeconds: error.retryAfterSeconds }, 'conversation refused by the scheduler');
      await close(deps, writer, copy.busy(error.reason, error.retryAfterSeconds));
      return 'rejected';
    }
    if (signal?.aborted === true) {
      deps.logger.info({ reason: String(signal.reason), hadText }, 'conversation stopped');
      await close(deps, writer, cancelledByTrigger(signal) ? copy.cancelled : copy.stopped);
      return 'failed';
    }
    deps.logger.error({ err: error, hadText }, 'conversation stream failed');
    await close(deps, writer, copy.replyFailed(describeError(error), hadText));
    return 'failed';
  }
  if (!hadText) {
    await close(deps, writer, refused ? copy.replyRefused : copy.noReplyText);
    return 'failed';
  }
  return (await close(deps, writer, undefined)) ? 'done' : 'failed';
}
