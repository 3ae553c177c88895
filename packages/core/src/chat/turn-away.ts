import type { ChatDeps } from './deps.js';
import { say } from './status-message.js';
import type { ChatTarget, ThreadMessage } from '../surface/surface.js';

/**
 * Says in `target` why a message is turned away; or, where the platform
 * cannot say it privately (`markTurnedAway`) and its author was just told the
 * same in this channel (`deps.notices`), only marks their message: a burst of
 * mentions gets one refusal, not one each.
 */
export async function turnAway(
  deps: ChatDeps,
  target: ChatTarget,
  trigger: ThreadMessage,
  answer: string,
  userId: string = trigger.author.id,
): Promise<void> {
  const mark = deps.surface.markTurnedAway?.bind(deps.surface);
  if (mark !== undefined && deps.notices?.shouldSay(userId, target.channelId, answer) === false) {
    await mark({ ...target, messageId: trigger.id });
    return;
  }
  await say(deps, target, answer, 'refusal');
}
