import type { ChatLogger } from '../surface/ports.js';
import type { Store } from '../store/index.js';

const HOUR_MS = 60 * 60 * 1000;

export interface RetentionSweep {
  stop(): void;
}

/**
 * Deletes what is older than the retention period now and then every hour
 * (by default). The timer is unref'd: it never keeps the process alive. A
 * sweep that fails is logged and tried again at the next tick.
 */
export function startRetentionSweep(options: {
  store: Store;
  retentionDays: number;
  logger: ChatLogger;
  intervalMs?: number;
}): RetentionSweep {
  const { store, retentionDays, logger } = options;
  let sweeping = false;
  const sweep = (): void => {
    // A slow sweep is not started twice over.
    if (sweeping) return;
    sweeping = true;
    store
      .sweep({ olderThanDays: retentionDays })
      .then(
        (result) => logger.info({ ...result, retentionDays }, 'retention sweep'),
        (error: unknown) => logger.error({ err: error }, 'retention sweep failed'),
      )
      .finally(() => {
        sweeping = false;
      });
  };
  sweep();
  const timer = setInterval(sweep, options.intervalMs ?? HOUR_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
