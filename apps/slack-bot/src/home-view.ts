import { copy } from '@genbot/core/copy';
import type { types } from '@slack/bolt';
import { toMrkdwn } from './mrkdwn.js';

/**
 * The App Home's Home tab for one person: what genbot does and how to use
 * it, then their usage today and this month with what is left of their daily
 * quotas (`usage`: core's `/usage` answer, standard Markdown). Settings come
 * with issue 31; nothing here points at them yet.
 */
export function homeView(input: { usage: string; tools: boolean }): types.HomeView {
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
    ],
  };
}
