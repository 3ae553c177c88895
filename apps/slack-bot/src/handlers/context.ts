import type { PlaceSettings } from '@genbot/core/settings';
import type { ThreadCache } from '@genbot/core/chat';
import type { Logger } from '@genbot/core/log';
import type { BotRuntime } from '@genbot/core/runtime';
import type { webApi } from '@slack/bolt';
import type { JobIntake, ResultPresses, UsageReporter } from '@genbot/core/jobs';
import type { SeenKeys } from '@genbot/core/scheduling';
import type { BotIdentity } from '../parse-thread.js';
import type { SlackSurface } from '../surface.js';

/** What the listeners share, whichever workspace a delivery came from. */
export interface SharedContext {
  /** Runs the jobs' work, keyed by the message that started it (`triggerKey`), so deleting that message stops it. */
  runtime: BotRuntime;
  logger: Logger;
  /**
   * `event:ID` and `message:CHANNEL:TS` handled, by this process or, with
   * REDIS_URL, by any replica: Slack's retries of an event (which may reach
   * another replica) and a mention carried by another event are dropped.
   */
  seen: SeenKeys;
  /** Every request is recorded and queued through the intake: a worker runs it, and it survives a restart. */
  jobs: SlackJobs;
}

/** A listener's context once it knows the workspace of the delivery: the shared parts and that workspace's. */
export interface HandlerContext extends SharedContext {
  surface: SlackSurface;
  /** The Web API client with the workspace's bot token. */
  client: webApi.WebClient;
  identity: BotIdentity;
  /** What the bot's events taught it of the workspace's threads. */
  threads: ThreadCache;
}

/** Where a delivery came from, as Bolt's context says (its team; its enterprise for an org-wide install). */
export interface DeliveryOrigin {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall?: boolean | undefined;
}

/** What the listeners are registered with: the shared parts, and each delivery's workspace when asked. */
export interface ListenerContext extends SharedContext {
  at(origin: DeliveryOrigin): Promise<HandlerContext>;
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
