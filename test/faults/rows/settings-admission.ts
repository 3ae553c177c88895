import { copy } from '@genbot/core/copy';
import { expect } from 'vitest';
import { expectNothingSent, expectTexts, imageRequestCount } from '../support/expect-view.js';
import type { Row, RowContext } from '../support/row.js';
import { settled } from '../support/settle.js';

/**
 * Admission by a place's settings: a channel turned off, a workspace past its daily budget. A
 * budget is the whole workspace's, so its row runs on a bot of its own (its own workspace), lest
 * it turn away the rows beside it.
 */
export const settingsAdmissionRows: Row[] = [
  {
    name: 'genbot turned off in the channel: /imagine and a mention refused privately, nothing sent',
    async run(ctx) {
      await ctx.platform.changeSetting(ctx.channel, 'channel', 'enabled', false);
      await ctx.platform.imagine(ctx.channel, 'a lighthouse');
      await ctx.platform.mention(ctx.channel, 'tell me about lighthouses');
      // Slack answers a mention privately; a Discord mention's note goes to the person's DM, not here.
      const shown = ctx.platform.name === 'slack' ? [copy.disabledHere, copy.disabledHere] : [copy.disabledHere];
      await expectTexts(ctx, shown);
      expect(ctx.platform.publicTexts(ctx.channel)).toEqual([]);
      expectNothingSent(ctx);
    },
  },
  {
    name: 'a workspace past its daily image budget: /imagine refused privately, naming the budget, nothing sent',
    async run(ctx) {
      const bot = await ctx.platform.withQuota({});
      try {
        const channel = bot.channel(0);
        const own: RowContext = {
          ...ctx,
          platform: bot,
          channel,
          otherChannel: channel,
          requests: () => bot.emulator.requests,
        };
        await bot.changeSetting(channel, 'workspace', 'budget_images_per_day', 1);
        await bot.imagine(channel, 'a paper kite');
        await settled(bot, channel, (v) => v.uploads.length === 1 && v.texts.length === 0, 30_000);
        await bot.imagine(channel, 'a red kite');
        const workspace = bot.name === 'slack' ? 'workspace' : 'server';
        const view = await settled(bot, channel, (v) => v.texts.length === 1, 30_000);
        expect(view.texts[0]).toMatch(
          new RegExp(`^🛑 This ${workspace} has used its 1 image for today\\. The budget resets at midnight UTC, in `),
        );
        expect(bot.publicTexts(channel)).toEqual([]);
        expect(imageRequestCount(own)).toBe(1);
      } finally {
        await bot.stop();
      }
    },
  },
];
