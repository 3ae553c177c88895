import type { CancellationRegistry, ChatDeps, InFlightWork, Logger } from '@genbot/core';
import type { RecentKeys } from '../event-dedupe.js';
import type { BotIdentity } from '../parse-thread.js';
import type { SlackSurface } from '../surface.js';

/** What the listeners share: the use cases' deps, the work in flight, and what was already answered. */
export interface HandlerContext {
  deps: ChatDeps;
  surface: SlackSurface;
  work: InFlightWork;
  /** Work keyed by the message that started it (`triggerKey`), so deleting that message stops it. */
  cancellations: CancellationRegistry;
  identity: BotIdentity;
  logger: Logger;
  /** `event_id`s handled: Slack's retries of the same event are dropped. */
  seenEvents: RecentKeys;
  /** `channel:ts` of mentions answered, whatever event carried them. */
  seenMessages: RecentKeys;
}

export const SHUTTING_DOWN = 'I’m restarting right now. Please try again in a minute.';
