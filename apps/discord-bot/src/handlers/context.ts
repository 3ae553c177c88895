import type { CancellationRegistry, ChatDeps, ChatSurface, InFlightWork, Logger } from '@genbot/core';

/** What event handlers share: the running work, and use-case deps around a surface. */
export interface HandlerContext {
  work: InFlightWork;
  /** Work keyed by the message that started it (`triggerKey`), so deleting that message stops it. */
  cancellations: CancellationRegistry;
  logger: Logger;
  depsFor(surface: ChatSurface, logger: Logger): ChatDeps;
}

/** Said when an event arrives while the bot is shutting down. */
export const RESTARTING = "I'm restarting right now: try again in a minute.";
