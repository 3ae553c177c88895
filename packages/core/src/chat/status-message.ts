import { systemClock } from '../time/clock.js';
import { type CallPriority, paceKeyOf } from '../rendering/channel-budget.js';
import type { ChatDeps } from './deps.js';
import { type PacedDeps, pacedCall } from '../rendering/paced-call.js';
import type { ChatTarget, MessageRef } from '../surface/surface.js';

/** Posts standard Markdown (cut to the surface's limit) when the channel's budget allows, retrying hiccups. */
export function say(
  deps: PacedDeps,
  target: ChatTarget,
  markdown: string,
  priority: CallPriority = 'reply',
): Promise<MessageRef> {
  const text = fitted(deps, markdown);
  const key = paceKeyOf(deps.surface, 'post', target);
  return pacedCall(deps, key, 'post', () => deps.surface.post(target, text), { priority });
}

/**
 * Tells `userId` alone (Slack ephemeral), in its turn among the channel's
 * private messages (`CallKind` 'private'), so a flood of notes keeps the
 * platform's pace too. False when the surface has no private messages.
 */
export async function sayPrivately(
  deps: PacedDeps,
  target: ChatTarget,
  userId: string,
  markdown: string,
  priority: CallPriority = 'status',
): Promise<boolean> {
  const { surface } = deps;
  const postPrivate = surface.postPrivate?.bind(surface);
  if (postPrivate === undefined) return false;
  const text = fitted(deps, markdown);
  await pacedCall(deps, target.channelId, 'private', () => postPrivate(target, userId, text), { priority });
  return true;
}

/** Never over the surface's message limit (bot copy quotes user text). */
export function fitted(deps: Pick<ChatDeps, 'surface'>, markdown: string): string {
  const max = deps.surface.limits.maxMessageChars;
  return markdown.length <= max ? markdown : `${markdown.slice(0, max - 1)}…`;
}

/**
 * How long a public word about where a request stands (its place in line, a
 * refusal, a reply on its way) may wait for the channel's turn before its user
 * is also told privately: in a flood, one post a second would leave most
 * people hearing nothing for minutes.
 */
export const PRIVATE_NOTE_AFTER_MS = 3_000;

/**
 * Unless `shown` settles within `PRIVATE_NOTE_AFTER_MS` (the public message
 * is on screen, or never will be), tells `userId` what `markdown()` says then,
 * in a message only they see, when the surface has one; the public message
 * still follows in its turn. A private note is only a courtesy: one that fails
 * is logged. Never waits or throws.
 */
export function tellPrivatelyUnlessShown(
  deps: ChatDeps,
  target: ChatTarget,
  userId: string | undefined,
  markdown: () => string,
  shown: Promise<unknown>,
): void {
  const { surface, logger } = deps;
  if (userId === undefined || surface.postPrivate === undefined) return;
  const clock = deps.clock ?? systemClock;
  const settled = new AbortController();
  shown.then(
    () => settled.abort(),
    () => settled.abort(),
  );
  clock
    .sleep(PRIVATE_NOTE_AFTER_MS, settled.signal)
    .then(
      () => sayPrivately(deps, target, userId, markdown()),
      () => undefined,
    )
    .catch((error: unknown) => logger.warn({ err: error }, 'could not tell the user privately'));
}
