import { z } from 'zod';
import { isLimitWords } from './limits.js';
import { PlatformAnswer } from './platform-answers.js';

/** Input the page should not have sent, or that a real client would refuse: answered 400 with the reason. */
export class BadRequest extends Error {
  override readonly name = 'BadRequest';
}

/** The fake has no bot to deliver to: answered 502, since retrying once the bot is up may help. */
export class BotUnreachable extends Error {
  override readonly name = 'BotUnreachable';
}

export interface ErrorAnswer {
  status: 400 | 502 | 500;
  /** Words for the person using the page. */
  message: string;
  /** Set when the platform itself answers (Slackbot, Discord): the page shows it as their notice. */
  from?: PlatformAnswer['from'];
}

/** The answer to a failed request, by the kind of failure: anything not expected here is ours (500). */
export function errorAnswer(err: unknown): ErrorAnswer {
  if (err instanceof z.ZodError) {
    const issue = err.issues[0];
    if (issue !== undefined && isLimitWords(issue.message)) return { status: 400, message: issue.message };
    const field = issue?.path.join('.') || 'body';
    return { status: 400, message: `The page sent something the playground cannot read (${field}): reload the page.` };
  }
  if (err instanceof PlatformAnswer) return { status: 400, message: err.message, from: err.from };
  if (err instanceof BadRequest) return { status: 400, message: err.message };
  if (err instanceof BotUnreachable)
    return { status: 502, message: 'genbot is not connected yet: try again in a moment.' };
  return { status: 500, message: 'Something went wrong in the playground (the terminal has the details): try again.' };
}

/**
 * Acts as a person through the Discord fake's driver. It throws (plain Errors) exactly where Discord's
 * own client refuses the input: an unregistered command, a missing option, a value outside the choices.
 */
export function asDiscordUser<T>(act: () => T): T {
  try {
    return act();
  } catch (err) {
    if (err instanceof Error) throw new BadRequest(err.message, { cause: err });
    throw err;
  }
}

/**
 * Acts as a person through the Slack fake's driver. It throws (plain Errors) only before it changes
 * anything, when no bot is connected to deliver to; a bot that does not answer is a delivery outcome.
 */
export async function asSlackUser<T>(act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    if (err instanceof Error) throw new BotUnreachable(err.message, { cause: err });
    throw err;
  }
}
