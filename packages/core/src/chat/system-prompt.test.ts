import { describe, expect, it } from 'vitest';
import { systemPromptFor } from './system-prompt.js';

const NOW = new Date('2027-03-05T23:30:00Z');

describe('systemPromptFor', () => {
  it("is the deployment's own prompt, word for word, when it set one", () => {
    const configured = 'You are Ferris, the docs team’s helper. Answer in French.';
    expect(systemPromptFor({ configured, platform: 'slack', now: NOW, tools: true })).toBe(configured);
    expect(systemPromptFor({ configured, platform: 'discord', now: NOW, tools: true })).toBe(configured);
  });

  it('is otherwise a short built-in one: who the bot is, its platform, today (UTC) and what it does', () => {
    const slack = systemPromptFor({ configured: undefined, platform: 'slack', now: NOW, tools: true });
    expect(slack).toContain('You are genbot, an assistant in Slack.');
    expect(slack).toContain('Today is Friday, 2027-03-05 (UTC).');
    expect(slack).toContain('shown in Slack as Markdown: headings, lists, emphasis, links, code blocks and tables.');
    expect(slack).toContain('call `generate_image`');
    expect(slack).toContain('call `edit_image`');
    expect(slack).not.toContain('Discord');
    expect(slack.length).toBeLessThan(1_000);

    const discord = systemPromptFor({ configured: undefined, platform: 'discord', now: NOW, tools: true });
    expect(discord).toContain('You are genbot, an assistant in Discord.');
    expect(discord).toContain(
      'shown in Discord as Markdown: headings, lists, emphasis, links and code blocks, but no tables.',
    );
    expect(discord).not.toContain('Slack');
  });

  it('without the tools (CHAT_TOOLS=off), names none and points to /imagine and the buttons instead', () => {
    const slack = systemPromptFor({ configured: undefined, platform: 'slack', now: NOW, tools: false });
    expect(slack).toContain('`/imagine`');
    expect(slack).not.toMatch(/generate_image|edit_image/);
  });

  it('names the date of the clock it is given, a minute past UTC midnight included', () => {
    const next = systemPromptFor({
      configured: undefined,
      platform: 'slack',
      now: new Date('2027-03-06T00:01:00Z'),
      tools: true,
    });
    expect(next).toContain('Today is Saturday, 2027-03-06 (UTC).');
  });
});
