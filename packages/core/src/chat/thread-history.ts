import { systemClock } from '../time/clock.js';
import type { ChatDeps } from './deps.js';
import { withRetries } from '../rendering/retry.js';
import type { ChatTarget, ThreadMessage } from '../surface/surface.js';

/** The thread's messages, or none when the platform will not give them: answering the mention alone beats not answering. */
export async function readThreadOrNothing(
  deps: ChatDeps,
  target: ChatTarget,
  signal: AbortSignal | undefined,
): Promise<readonly ThreadMessage[]> {
  try {
    const options = signal === undefined ? {} : { signal };
    return await withRetries(() => deps.surface.readThread(target, options), deps.clock ?? systemClock, signal);
  } catch (error) {
    deps.logger.warn({ err: error }, 'could not read the thread; answering the mention alone');
    return [];
  }
}
