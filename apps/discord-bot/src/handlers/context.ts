import type { RefusalNotices } from '@genbot/core/chat';
import type { Logger } from '@genbot/core/log';
import type { LoopTurns } from '@genbot/core/time';
import type { JobIntake, ResultPresses, UsageReporter } from '@genbot/core/jobs';

/** What ingress handlers share: the door jobs go through, result buttons, and the `/usage` answer. */
export interface IngressContext {
  intake: JobIntake;
  /** Unset without a store: results then carry no buttons, and a press finds no record. */
  presses?: ResultPresses | undefined;
  /** Unset until a store keeps usage: `/usage` then says so. */
  usage?: UsageReporter | undefined;
  /** Which refusals of plain messages are said in words rather than with a reaction. */
  notices: RefusalNotices;
  /** Each delivery the bot answers waits its turn of the event loop (`BotRuntime.turns`). */
  turns: LoopTurns;
  logger: Logger;
}
