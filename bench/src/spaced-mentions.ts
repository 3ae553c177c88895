import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Sends `count` mentions `spacingMs` apart on a fixed schedule: mention i goes
 * at i × spacing from the first, however long the answerer took to take the
 * one before. Spacing them from each hand-off instead would let a bot that
 * acknowledges faster receive its mentions sooner, and so move them relative
 * to its own earlier replies (Slack's one new message a second per channel
 * turns such a shift into a wait).
 */
export async function sendSpacedMentions(
  count: number,
  spacingMs: number,
  mention: (index: number) => Promise<void>,
): Promise<void> {
  const start = performance.now();
  for (let index = 0; index < count; index++) {
    await mention(index);
    const next = start + (index + 1) * spacingMs;
    await sleep(Math.max(0, next - performance.now()));
  }
}
