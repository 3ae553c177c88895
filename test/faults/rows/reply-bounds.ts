import { copy } from '@genbot/core/copy';
import { expect } from 'vitest';
import type { Row } from '../support/row.js';
import { settled } from '../support/settle.js';

/** The bot's default max_tokens (CHAT_MAX_TOKENS), enforced locally at twice the budget by a count of four characters a token. */
const LONGEST_REPLY = 4_096 * 2 * 4;
const MENTIONS = 10;
const BUSY = /^⏳ You already have requests on the way\. Try again in about \d+ seconds?\.$/;

export const replyBoundsRows: Row[] = [
  {
    name: 'a reply without end (the service runs past max_tokens): cut with a short note, bounded',
    async run(ctx) {
      await ctx.platform.mention(ctx.channel, 'never stop [len:2000000] [fault:ignore-max-tokens]');
      const view = await settled(
        ctx.platform,
        ctx.channel,
        (v) => (v.texts.at(-1) ?? '').endsWith(copy.replyTooLong),
        60_000,
      );
      expect(view.uploads).toEqual([]);
      const shown = view.texts.join('').length;
      // Fence lines closed and reopened at each cut, and the note, come on top of the reply itself.
      expect(shown).toBeLessThanOrEqual(LONGEST_REPLY + 20 * view.texts.length + copy.replyTooLong.length);
      expect(shown).toBeGreaterThan(LONGEST_REPLY / 2);
    },
  },
  {
    name: `one user's ${MENTIONS} mentions at once under the platform's channel limits: each answered, no 429`,
    async run(ctx) {
      const off = ctx.platform.enforceChannelLimits();
      const hits = ctx.platform.rateLimitHitCount();
      try {
        await Promise.all(
          Array.from({ length: MENTIONS }, (_, i) => ctx.platform.mention(ctx.channel, `question ${i} [len:200]`)),
        );
        const replies = (v: { texts: string[] }): number =>
          v.texts.filter((text) => text.startsWith('You said')).length;
        const refusals = (v: { texts: string[] }): number =>
          v.texts.filter((text) => BUSY.test(text)).length + ctx.platform.reactionMarks(ctx.channel);
        const view = await settled(
          ctx.platform,
          ctx.channel,
          (v) =>
            refusals(v) + replies(v) === MENTIONS && replies(v) >= 2 && v.texts.every((text) => text !== copy.thinking),
          60_000,
        );
        // Two run at once (the user's share; more when the first end before the last arrive); the others are
        // told when to try again: privately on Slack, once in public on Discord (which has no private answer
        // to a message), then with a reaction.
        expect(refusals(view)).toBeGreaterThan(0);
        if (ctx.platform.name === 'discord') expect(view.texts.filter((text) => BUSY.test(text))).toHaveLength(1);
        expect(ctx.platform.publicTexts(ctx.channel).filter((text) => BUSY.test(text))).toHaveLength(
          ctx.platform.name === 'slack' ? 0 : 1,
        );
        expect(ctx.platform.allVersions(ctx.channel).length).toBeLessThanOrEqual(2 * MENTIONS);
        expect(ctx.platform.rateLimitHitCount()).toBe(hits);
      } finally {
        off();
      }
    },
  },
];
