import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { asDiscordUser, asSlackUser, BadRequest, BotUnreachable, errorAnswer } from './errors.js';
import { LIMIT_WORDS } from './limits.js';
import { slackUnknownCommand } from './platform-answers.js';

describe('errorAnswer', () => {
  it('answers by the kind of failure', () => {
    const invalid = z.object({ text: z.string() }).safeParse({ text: 1 });
    expect(errorAnswer(invalid.error)).toEqual({
      status: 400,
      message: 'The page sent something the playground cannot read (text): reload the page.',
    });
    const tooLong = z.object({ text: z.string().max(1, LIMIT_WORDS.slackText) }).safeParse({ text: 'xx' });
    expect(errorAnswer(tooLong.error)).toEqual({ status: 400, message: 'Slack messages up to 4,000 characters' });
    expect(errorAnswer(new BadRequest('type a message'))).toEqual({ status: 400, message: 'type a message' });
    expect(errorAnswer(slackUnknownCommand('/foo'))).toMatchObject({ status: 400, from: 'Slackbot' });
    expect(errorAnswer(new BotUnreachable('no bot'))).toEqual({
      status: 502,
      message: 'genbot is not connected yet: try again in a moment.',
    });
    // Whatever the words, an error of ours is a 500, never blamed on the input, its details in the log.
    for (const err of [new Error('fetch failed: ECONNREFUSED, not registered'), 'odd']) {
      expect(errorAnswer(err)).toEqual({
        status: 500,
        message: 'Something went wrong in the playground (the terminal has the details): try again.',
      });
    }
  });

  it('names a fake driver’s refusal by where it came from', async () => {
    const refusal = new Error('/imagine is not registered');
    expect(() =>
      asDiscordUser(() => {
        throw refusal;
      }),
    ).toThrow(expect.objectContaining({ name: 'BadRequest', message: refusal.message, cause: refusal }));
    await expect(asSlackUser(() => Promise.reject(new Error('nowhere to deliver to')))).rejects.toBeInstanceOf(
      BotUnreachable,
    );
    expect(asDiscordUser(() => 'sent')).toBe('sent');
  });
});
