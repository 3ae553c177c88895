import { MAX_PROMPT_CHARS } from '@genbot/core/chat';
import { copy } from '@genbot/core/copy';
import { ASPECT_RATIOS } from '@genbot/core/genai';
import { expect } from 'vitest';
import { expectImages, expectNothingSent, expectOneReply, expectTexts, lastUserText } from '../support/expect-view.js';
import { generateContentRequests } from '../support/oracle.js';
import type { Row, RowContext } from '../support/row.js';
import { beforeMarker, settled } from '../support/settle.js';

const UNICODE = '灯台と波 🌊🏝️ مرحبا بالعالم שלום 👩🏽‍🚀';

/** Every text the bot posted in the row's channel, edits included, joined: for "never shows X" checks. */
function everythingShown(ctx: RowContext): string {
  const { platform, channel } = ctx;
  return [...platform.allVersions(channel), ...platform.view(channel).uploads.map((upload) => upload.comment)].join(
    '\n',
  );
}

function imagePrompts(ctx: RowContext): string {
  return JSON.stringify(generateContentRequests(ctx.requests()).map((request) => request.body));
}

export const badInputRows: Row[] = [
  {
    name: 'empty /imagine prompt: usage help, nothing sent',
    async run(ctx) {
      await ctx.platform.imagine(ctx.channel, '   ');
      await expectTexts(ctx, [copy.emptyPrompt]);
      expect(ctx.platform.publicTexts(ctx.channel)).toEqual([]);
      expectNothingSent(ctx);
    },
  },
  {
    name: `/imagine prompt over ${MAX_PROMPT_CHARS} characters: told the limit, nothing sent`,
    async run(ctx) {
      // Ends in a letter, so trimming cannot bring it back under the limit.
      const prompt = `${'a very long lighthouse '.repeat(100).slice(0, MAX_PROMPT_CHARS)}x`;
      await ctx.platform.imagine(ctx.channel, prompt);
      await expectTexts(ctx, [copy.promptTooLong(MAX_PROMPT_CHARS + 1, MAX_PROMPT_CHARS)]);
      expect(ctx.platform.publicTexts(ctx.channel)).toEqual([]);
      expectNothingSent(ctx);
    },
  },
  {
    name: 'a bare mention: a short hint, nothing sent',
    async run(ctx) {
      await ctx.platform.mention(ctx.channel, '');
      await expectTexts(ctx, [copy.bareMention]);
      // Slack answers a mention privately; Discord has no private answer to a message.
      expect(ctx.platform.publicTexts(ctx.channel)).toEqual(ctx.platform.name === 'slack' ? [] : [copy.bareMention]);
      expectNothingSent(ctx);
    },
  },
  {
    name: 'unicode (emoji, CJK, RTL) in a mention: the model gets it intact, one full reply',
    async run(ctx) {
      await ctx.platform.mention(ctx.channel, UNICODE);
      const request = await expectOneReply(ctx, 'complete');
      expect(lastUserText(request)).toContain(UNICODE);
    },
  },
  {
    name: 'unicode (emoji, CJK, RTL) in an /imagine prompt: the image, the prompt shown intact',
    async run(ctx) {
      await ctx.platform.imagine(ctx.channel, UNICODE);
      await expectImages(ctx, UNICODE, 1);
      expect(imagePrompts(ctx)).toContain(JSON.stringify(UNICODE).slice(1, -1));
    },
  },
];

/** A bad aspect ratio where the bot parses it (Slack's `--ar`): the allowed ones listed, nothing sent. */
export const slackBadAspectRatio: Row = {
  name: 'bad aspect ratio: the allowed ones listed, nothing sent',
  only: 'slack',
  async run(ctx) {
    await ctx.platform.imagine(ctx.channel, 'a wide beach', '7:3');
    await expectTexts(ctx, [copy.badAspectRatio('7:3', ASPECT_RATIOS)]);
    expect(ctx.platform.publicTexts(ctx.channel)).toEqual([]);
    expectNothingSent(ctx);
  },
};

/** Discord offers the ratios as choices: the client refuses any other value, so the bot never sees one. */
export const discordBadAspectRatio: Row = {
  name: 'bad aspect ratio: refused by the command definition, nothing sent',
  only: 'discord',
  async run(ctx) {
    const command = ctx.platform.h.fake.state.guildCommands.find((candidate) => candidate.name === 'imagine');
    const options = new Map(command?.options.map((option) => [option.name, option]));
    expect(options.get('aspect_ratio')?.choices?.map((choice) => choice.value)).toEqual([...ASPECT_RATIOS]);
    await expect(ctx.platform.imagine(ctx.channel, 'a wide beach', '7:3')).rejects.toThrow(/not a choice/);
    const { view, requests } = await beforeMarker(ctx);
    expect(view).toEqual({ texts: [], uploads: [] });
    expect(requests.map((request) => request.path)).toEqual([]);
  },
};

/** Mention markup and channel-wide pings in a mention: the model reads names, the bot pings nobody. */
export const slackMarkupInMention: Row = {
  name: 'mention markup in a mention: names for the model, one reply, no pings echoed',
  only: 'slack',
  async run(ctx) {
    await ctx.platform.mention(ctx.channel, 'ask <@U2> about <#C1|general> and tell <!here>');
    const request = await expectOneReply(ctx, 'complete');
    const text = lastUserText(request);
    expect(text).toMatch(/@bob\b/i);
    expect(text).toContain('#general');
    expect(text).not.toMatch(/<[@#!]/);
    expect(everythingShown(ctx)).not.toMatch(/<!here>|<@U2>|<!channel>/);
  },
};

export const slackMarkupInImagine: Row = {
  name: 'mention markup in an /imagine prompt: the image, names for the model, no pings echoed',
  only: 'slack',
  async run(ctx) {
    await ctx.platform.imagine(ctx.channel, 'a portrait of <@U2> in <#C1|general> for <!channel>');
    const view = await settled(
      ctx.platform,
      ctx.channel,
      // The progress message gave way to the result: the job leaves the image alone.
      (v) => v.uploads.length === 1 && v.texts.length === 0,
    );
    expect(view.uploads[0]?.files).toHaveLength(1);
    expect(everythingShown(ctx)).not.toMatch(/<!channel>|<@U2>/);
    expect(imagePrompts(ctx)).not.toMatch(/<[@#!]/);
  },
};

export const discordMarkupInMention: Row = {
  name: 'mention markup in a mention: names for the model, one reply',
  only: 'discord',
  async run(ctx) {
    const bob = ctx.platform.h.fake.state.user('bob');
    await ctx.platform.mention(ctx.channel, `ask <@${bob.id}> about <#${ctx.channel}> and tell @everyone`);
    const request = await expectOneReply(ctx, 'complete');
    const text = lastUserText(request);
    expect(text).toContain('@bob');
    expect(text).toMatch(/#row-\d+/);
    expect(text).not.toMatch(/<[@#]/);
  },
};

export const discordMarkupInImagine: Row = {
  name: 'mention markup in an /imagine prompt: the image, names for the model',
  only: 'discord',
  async run(ctx) {
    const bob = ctx.platform.h.fake.state.user('bob');
    await ctx.platform.imagine(ctx.channel, `a portrait of <@${bob.id}> for @everyone`);
    // The prompt as the model and the channel see it: named, not markup.
    await expectImages(ctx, 'a portrait of @bob for @everyone', 1);
    expect(imagePrompts(ctx)).not.toMatch(/<@\d+>/);
  },
};
