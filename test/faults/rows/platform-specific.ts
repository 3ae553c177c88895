import { copy } from '@genbot/core/copy';
import { expect } from 'vitest';
import { expectOneReply, expectTexts, nthMessagesRequest } from '../support/expect-view.js';
import { messagesRequests } from '../support/oracle.js';
import type { Row } from '../support/row.js';
import { beforeMarker, settled } from '../support/settle.js';
import {
  discordBadAspectRatio,
  discordMarkupInImagine,
  discordMarkupInMention,
  slackBadAspectRatio,
  slackMarkupInImagine,
  slackMarkupInMention,
} from './bad-input.js';

export const slackRows: Row[] = [
  {
    name: 'upload refused every time: tried four times in all, by core alone (the Web API client retries nothing)',
    only: 'slack',
    async run(ctx) {
      const { slack } = ctx.platform.h;
      const attempts = () => slack.calls.filter((call) => call.method === 'files.getUploadURLExternal').length;
      const before = attempts();
      const off = ctx.platform.failUploads();
      try {
        await ctx.platform.imagine(ctx.channel, 'a kite');
        await expectTexts(ctx, [copy.uploadFailed], 30_000);
      } finally {
        off();
      }
      expect(attempts() - before).toBe(4);
    },
  },
  {
    name: 'bad signature on an event: refused with 401, not answered, nothing sent',
    only: 'slack',
    async run(ctx) {
      const { slack } = ctx.platform.h;
      const said = await slack.userSays({
        user: 'U1',
        channel: ctx.channel,
        text: `<@${ctx.platform.botUserId}> are you there?`,
        signature: 'invalid',
      });
      const delivery = said.deliveries.find((d) => d.eventType === 'app_mention');
      expect(delivery?.attempts[0]).toMatchObject({ acked: false, status: 401 });
      await delivery?.settled;
      const { view, requests } = await beforeMarker(ctx);
      expect(view).toEqual({ texts: [], uploads: [] });
      expect(requests.map((request) => request.path)).toEqual([]);
    },
  },
  {
    name: 'bad signature on /imagine: refused with 401, nothing sent',
    only: 'slack',
    async run(ctx) {
      const run = await ctx.platform.h.slack.userRunsCommand({
        user: 'U1',
        channel: ctx.channel,
        command: '/imagine',
        text: 'a red fox',
        signature: 'invalid',
      });
      expect(run.delivery.attempts[0]).toMatchObject({ acked: false, status: 401 });
      const { view, requests } = await beforeMarker(ctx);
      expect(view).toEqual({ texts: [], uploads: [] });
      expect(requests.map((request) => request.path)).toEqual([]);
    },
  },
  {
    name: 'replayed event (same event_id, mid-reply and after): answered once',
    only: 'slack',
    async run(ctx) {
      const { slack } = ctx.platform.h;
      const said = await slack.userSays({
        user: 'U1',
        channel: ctx.channel,
        text: `<@${ctx.platform.botUserId}> say hello [len:300] [delay:80]`,
      });
      const eventId = said.deliveries.find((d) => d.eventType === 'app_mention')?.eventId ?? '';
      expect((await slack.redeliver(eventId, { retryNum: 1, retryReason: 'http_timeout' })).acked).toBe(true);
      await expectOneReply(ctx, 'complete');
      expect((await slack.redeliver(eventId, { retryNum: 2, retryReason: 'http_timeout' })).acked).toBe(true);
      const { view, requests } = await beforeMarker(ctx);
      expect(view.texts).toHaveLength(1);
      expect(messagesRequests(requests)).toHaveLength(1);
    },
  },
  slackBadAspectRatio,
  slackMarkupInMention,
  slackMarkupInImagine,
];

export const discordRows: Row[] = [
  {
    name: 'gateway drops (4000) mid-stream: RESUME, the reply completes once, a mention sent meanwhile is answered once',
    only: 'discord',
    async run(ctx) {
      const { fake } = ctx.platform.h;
      const resumedBefore = ctx.platform.fakeLogs.filter((line) => line.includes('gateway: resumed')).length;
      await ctx.platform.mention(ctx.channel, 'tell me a long story [len:900] [delay:80]');
      const first = await nthMessagesRequest(ctx, 1);
      await settled(ctx.platform, ctx.channel, (view) => view.texts.length === 1, 10_000).catch(() => undefined);
      fake.dropConnection(4000);
      // Sent while the bot is disconnected: the gateway replays it on RESUME.
      await ctx.platform.mention(ctx.channel, 'and a short one after it');
      const second = await nthMessagesRequest(ctx, 2, 20_000);
      const expected = [await ctx.oracle.reply(first), await ctx.oracle.reply(second)];
      await expectTexts(ctx, expected, 30_000);
      expect(ctx.platform.fakeLogs.filter((line) => line.includes('gateway: resumed')).length).toBeGreaterThan(
        resumedBefore,
      );
      expect(fake.connectedSessions()).toBe(1);
    },
  },
  discordBadAspectRatio,
  discordMarkupInMention,
  discordMarkupInImagine,
];
