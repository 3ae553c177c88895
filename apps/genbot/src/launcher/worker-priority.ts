import { getPriority, setPriority } from 'node:os';
import type { Logger } from '@genbot/core/log';

/**
 * The CPU priority (Unix niceness) a worker gives itself. Workers do the
 * heavy, patient work (images decoded, uploaded); a bot process answers
 * Slack within 3 s and streams replies. On one machine, both at the same
 * priority, the workers' image work kept the bot off the CPU: on 2 cores with
 * 4 workers, its event-loop delay p99 was 20-25 ms, and 4-5 ms with the
 * workers at this niceness, at the same throughput. A worker alone on its
 * machine (or in its own container) is not slowed by it.
 */
const WORKER_NICENESS = 10;

/** Lowers this process's CPU priority to WORKER_NICENESS, never raises it; the niceness it runs at. */
export function giveWayToBots(logger: Logger): number | undefined {
  try {
    if (getPriority() < WORKER_NICENESS) setPriority(WORKER_NICENESS);
    return getPriority();
  } catch (error) {
    // Only a platform without priorities refuses to lower one: the worker runs on as it is.
    logger.warn({ err: error }, 'could not lower the worker CPU priority');
    return undefined;
  }
}
