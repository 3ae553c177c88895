import { copy } from '@genbot/core/copy';
import type { types } from '@slack/bolt';
import { toMrkdwn } from './mrkdwn.js';
import { HOME_SETTINGS_ACTION } from './settings-modal.js';

/**
 * The App Home's Home tab for one person: what genbot does and how to use
 * it, then their usage today and this month with what is left of their daily
 * quotas (`usage`: core's `/usage` answer, standard Markdown); for those
 * who may change the workspace's settings, a button that opens them
 * (`settings.channel`: the person's DM with the app, where the form's
 * confirmation goes).
 */
export function homeView(input: { usage: string; tools: boolean; settings?: { channel: string } }): types.HomeView {
  const section = (markdown: string): types.SectionBlock => ({
    type: 'section',
    text: { type: 'mrkdwn', text: toMrkdwn(markdown) },
  });
  const howTo = copy.homeHowTo(input.tools).map((line) => `• ${line}`);
  return {
    type: 'home',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: copy.homeTitle } },
      section(copy.homeIntro(input.tools)),
      { type: 'divider' },
      section([`**${copy.homeHowToTitle}**`, ...howTo].join('\n')),
      { type: 'divider' },
      section(`**${copy.homeUsageTitle}**\n${input.usage}`),
      ...(input.settings === undefined ? [] : settingsBlocks(input.settings.channel)),
    ],
  };
}

function settingsBlocks(channel: string): types.KnownBlock[] {
  return [
    { type: 'divider' },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: toMrkdwn(`**${copy.homeSettingsTitle}**\n${copy.homeSettings}`) },
      accessory: {
        type: 'button',
        action_id: HOME_SETTINGS_ACTION,
        text: { type: 'plain_text', text: copy.homeSettingsButton },
        value: channel,
      },
    },
  ];
}
