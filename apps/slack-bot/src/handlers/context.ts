import type { PlaceSettings } from '@genbot/core/settings';
import type { ThreadCache } from '@genbot/core/chat';
import type { Logger } from '@genbot/core/log';
import type { BotRuntime } from '@genbot/core/runtime';
import type { webApi } from '@slack/bolt';
import type { JobIntake, ResultPresses, UsageReporter } from '@genbot/core/jobs';
import type { SeenKeys } from '@genbot/core/scheduling';
import type { BotIdentity } from '../parse-thread.js';
import type { SlackSurface } from '../surface.js';

/** What the listeners share: the jobs' door, the work in flight, and what was already answered. */
export interface HandlerContext {
  surface: SlackSurface;
  /** The Web API client with the bot token. */
  client: webApi.WebClient;
  /** Runs the jobs' work, keyed by the message that started it (`triggerKey`), so deleting that message stops it. */
  runtime: BotRuntime;
  identity: BotIdentity;
  logger: Logger;
  /**
   * `event:ID` and `message:CHANNEL:TS` handled, by this process or, with
   * REDIS_URL, by any replica: Slack's retries of an event (which may reach
   * another replica) and a mention carried by another event are dropped.
   */
  seen: SeenKeys;
  /** What the bot's events taught it of its threads. */
  threads: ThreadCache;
  /** Every request is recorded and queued through the intake: a worker runs it, and it survives a restart. */
  jobs: SlackJobs;
}

/** The jobs floor as the Slack app sees it: the intake's one door, `/usage`, and the presses of result buttons. */
export interface SlackJobs {
  intake: JobIntake;
  usage: UsageReporter;
  presses: ResultPresses;
  /** Each place's settings (`/genbot`, and what a request is accepted under). */
  settings: PlaceSettings;
  /** ADMIN_USER_IDS: who may change settings everywhere, besides the platform's admins. */
  adminUserIds: readonly string[];
}
