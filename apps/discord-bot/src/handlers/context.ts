import type { PlaceSettings } from '@genbot/core/settings';
import type { RefusalNotices } from '@genbot/core/chat';
import type { Logger } from '@genbot/core/log';
import type { LoopTurns } from '@genbot/core/time';
import type { JobIntake, ResultPresses, UsageReporter } from '@genbot/core/jobs';
import type { EditTargets } from './edit-targets.js';

/** The jobs floor as the Discord bot sees it: the intake's one door, `/usage`, and the presses of result buttons. */
export interface DiscordJobs {
  intake: JobIntake;
  usage: UsageReporter;
  presses: ResultPresses;
  /** Each place's settings (`/genbot`, and what a request is accepted under). */
  settings: PlaceSettings;
  /** ADMIN_USER_IDS: who may change settings everywhere, besides the platform's admins. */
  adminUserIds: readonly string[];
}

/** What ingress handlers share: the door jobs go through, result buttons, and the `/usage` answer. */
export interface IngressContext extends DiscordJobs {
  /** Which refusals of plain messages are said in words rather than with a reaction. */
  notices: RefusalNotices;
  /** Each delivery the bot answers waits its turn of the event loop (`BotRuntime.turns`). */
  turns: LoopTurns;
  /** Edit image's messages where the bot cannot fetch them (user installs), until their form comes back. */
  editTargets: EditTargets;
  logger: Logger;
}
