import { taggedPrompt } from './chat-proxy.js';
import { settledOutcomes } from './chat-replies.js';
import type { ChatRig } from './chat-rig.js';

/** Far above any row's mention count, so its tag and user are its own. */
const WARM_UP_INDEX = 9_999;
const TIMEOUT_MS = 10_000;

/**
 * One mention answered in full, in a channel no measured mention uses, before
 * a latency row starts. A process's first job pays for compiling and
 * connecting: mention to first text took 80-150 ms against ~20 ms warm. On
 * Slack that late first reply also made the next mention in its channel wait
 * on the one-new-message-a-second pace, so a p99 of 50 measured one start-up
 * and its knock-on rather than the bot's tail.
 */
export async function warmUp(rig: ChatRig): Promise<void> {
  await rig.mentionAside(WARM_UP_INDEX, taggedPrompt(WARM_UP_INDEX, '[len:100]'));
  const [outcome] = await settledOutcomes(rig, [WARM_UP_INDEX], TIMEOUT_MS);
  if (outcome?.exact !== true) throw new Error(`the warm-up mention had no whole reply in ${TIMEOUT_MS} ms`);
}
