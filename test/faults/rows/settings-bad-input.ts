import { copy } from '@genbot/core/copy';
import { eventually } from '@genbot/test-servers';
import { SETTING_NAMES } from '@genbot/core/settings';
import { expect } from 'vitest';
import { expectNothingSent } from '../support/expect-view.js';
import { messagesRequests } from '../support/oracle.js';
import type { GenbotRequest, Rights } from '../support/platform.js';
import type { Row, RowContext } from '../support/row.js';
import { settled } from '../support/settle.js';

/**
 * `/genbot` asked for what does not fit (issue 31): each gets a private answer saying what would,
 * nothing changes in the store and nothing reaches the service. Then the form sent twice or
 * forged, and a change made while a job waits, which the job does not see.
 */

/** `/genbot set|reset` by someone with these rights: the answer, once it is clear nothing changed. */
async function refused(ctx: RowContext, request: GenbotRequest, as: Rights): Promise<string> {
  const before = await ctx.platform.settingChanges(ctx.channel);
  const answer = await ctx.platform.genbot(ctx.channel, request, as);
  expect(await ctx.platform.settingChanges(ctx.channel)).toBe(before);
  return answer;
}

export const settingsBadInputRows: Row[] = [
  {
    name: 'genbot settings: an unknown setting name: the names there are, nothing changed, nothing sent',
    async run(ctx) {
      const request = { action: 'set', name: 'colour', value: 'blue' } as const;
      if (ctx.platform.offeredSettingNames() === undefined) {
        expect(await refused(ctx, request, 'admin')).toBe(copy.settingUnknown('colour', SETTING_NAMES));
      } else {
        // Discord's client offers the catalogue's names alone, and Discord refuses any other.
        expect(ctx.platform.offeredSettingNames()).toEqual(SETTING_NAMES);
        const before = await ctx.platform.settingChanges(ctx.channel);
        await expect(ctx.platform.genbot(ctx.channel, request, 'admin')).rejects.toThrow(/not a choice/);
        expect(await ctx.platform.settingChanges(ctx.channel)).toBe(before);
      }
      expectNothingSent(ctx);
    },
  },
  {
    name: 'genbot settings: a value out of range or not in the allow-list: what would fit, nothing changed, nothing sent',
    async run(ctx) {
      expect(await refused(ctx, { action: 'set', name: 'images', value: '7' }, 'admin')).toBe(
        copy.settingOutOfRange('images', 1, 4),
      );
      expect(await refused(ctx, { action: 'set', name: 'chat_model', value: 'gpt-imaginary' }, 'admin')).toBe(
        copy.settingNotOneOf('chat_model', ctx.platform.operator.chatModels),
      );
      expectNothingSent(ctx);
    },
  },
  {
    name: 'genbot settings: a system prompt over 4,000 characters: the limit, nothing changed, nothing sent',
    async run(ctx) {
      const long = 'x'.repeat(4_001);
      expect(await refused(ctx, { action: 'set', name: 'system_prompt', value: long }, 'admin')).toBe(
        copy.settingTooLong('system_prompt', 4_001, 4_000),
      );
      expectNothingSent(ctx);
    },
  },
  {
    name: "genbot settings: a budget above the operator's BUDGET_*: the range, nothing changed, nothing sent",
    async run(ctx) {
      const ceiling = ctx.platform.operator.budgetImagesPerDay;
      if (ceiling === undefined) throw new Error('the suite’s bots run with an image budget');
      const request: GenbotRequest = {
        action: 'set',
        name: 'budget_images_per_day',
        value: String(ceiling + 1),
        workspace: true,
      };
      expect(await refused(ctx, request, 'admin')).toBe(copy.settingOutOfRange('budget_images_per_day', 0, ceiling));
      expectNothingSent(ctx);
    },
  },
  {
    name: 'genbot settings: a workspace-wide change by someone who may not (Slack: a member, there being no channel-only admin; Discord: Manage Channels alone): refused, nothing changed, nothing sent',
    async run(ctx) {
      const as: Rights = ctx.platform.name === 'slack' ? 'member' : 'channel admin';
      const request = { action: 'set', name: 'aspect_ratio', value: '16:9', workspace: true } as const;
      expect(await refused(ctx, request, as)).toBe(copy.settingsNotAllowed('workspace', ctx.platform.name));
      expectNothingSent(ctx);
    },
  },
  {
    name: 'genbot settings: the form submitted twice: saved once, the second changes nothing, nothing sent',
    async run(ctx) {
      const { platform, channel } = ctx;
      const form = await platform.openSettingsForm(channel, 'admin');
      const values = { system_prompt: 'Answer in haiku.' };
      const before = await platform.settingChanges(channel);
      expect(await platform.submitSettingsForm(form, values)).toBe(
        copy.settingsSaved([
          {
            name: 'system_prompt',
            level: 'channel',
            platform: platform.name,
            previous: undefined,
            value: values.system_prompt,
          },
        ]),
      );
      expect(await platform.settingChanges(channel)).toBe(before + 1);
      expect(await platform.submitSettingsForm(form, values)).toBe(copy.settingsUnchanged);
      expect(await platform.settingChanges(channel)).toBe(before + 1);
      expectNothingSent(ctx);
    },
  },
  {
    name: 'genbot settings: a forged form naming another channel: refused, nothing changed in either, nothing sent',
    async run(ctx) {
      const { platform, channel, otherChannel } = ctx;
      const form = await platform.openSettingsForm(channel, 'admin');
      const here = await platform.settingChanges(channel);
      const there = await platform.settingChanges(otherChannel);
      const answer = await platform.submitSettingsForm(form, { system_prompt: 'Forged.' }, otherChannel);
      // Slack cannot tell a tampered form from any other it did not sign; Discord reads the channel it names.
      if (platform.name === 'slack') expect(answer).toContain(copy.settingsModal.invalid);
      else expect(answer).toBe(copy.discordSettings.otherChannel);
      expect(await platform.settingChanges(channel)).toBe(here);
      expect(await platform.settingChanges(otherChannel)).toBe(there);
      expectNothingSent(ctx);
    },
  },
  {
    name: 'genbot settings: changed while a mention waits for a worker: the job keeps the settings it was accepted under',
    async run(ctx) {
      const { platform: bot, startWorker } = await ctx.platform.withIdleWorker();
      try {
        const channel = bot.channel(0);
        const accepted = 'You answer as a lighthouse keeper.';
        const later = 'You answer as a ship’s cook.';
        const set = async (value: string, previous: string | undefined) =>
          expect(await bot.genbot(channel, { action: 'set', name: 'system_prompt', value }, 'admin')).toBe(
            copy.settingChanged({ name: 'system_prompt', level: 'channel', platform: bot.name, previous, value }),
          );
        await set(accepted, undefined);
        const shown = bot.view(channel).texts.length;
        await bot.mention(channel, 'who are you?');
        // Its place in line shows once the job is accepted.
        await settled(bot, channel, (view) => view.texts.length > shown);
        await set(later, accepted);
        expect(bot.emulator.requests).toEqual([]);
        await startWorker();
        const request = await eventually(() => messagesRequests(bot.emulator.requests)[0], {
          what: 'the waiting mention’s conversation request',
        });
        const system = JSON.stringify(request.system);
        expect(system).toContain(accepted);
        expect(system).not.toContain(later);
      } finally {
        await bot.stop();
      }
    },
  },
];
