import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AI_APP_VIEW,
  BOT_EVENTS,
  BOT_SCOPES,
  EVENT_TYPES,
  HOME_TAB,
  INTERACTIVITY,
  SLASH_COMMANDS,
} from './registrations.js';

/**
 * The parts of Slack's documented app manifest schema (docs.slack.dev,
 * "App manifest reference") this manifest uses, strictly: a misspelt or
 * misplaced key fails here as it would fail Slack's import.
 */
const manifestSchema = z.strictObject({
  _metadata: z.strictObject({ major_version: z.number().int(), minor_version: z.number().int().optional() }).optional(),
  display_information: z.strictObject({
    name: z.string().min(1).max(35),
    description: z.string().max(140).optional(),
    long_description: z.string().min(174).max(4000).optional(),
    background_color: z
      .string()
      .regex(/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/)
      .optional(),
  }),
  features: z.strictObject({
    app_home: z
      .strictObject({
        home_tab_enabled: z.boolean().optional(),
        messages_tab_enabled: z.boolean().optional(),
        messages_tab_read_only_enabled: z.boolean().optional(),
      })
      .optional(),
    bot_user: z.strictObject({ display_name: z.string().min(1).max(80), always_online: z.boolean().optional() }),
    assistant_view: z
      .strictObject({ assistant_description: z.string().min(1), suggested_prompts: z.array(z.unknown()).optional() })
      .optional(),
    agent_view: z
      .strictObject({ agent_description: z.string().min(1), suggested_prompts: z.array(z.unknown()).optional() })
      .optional(),
    slash_commands: z
      .array(
        z.strictObject({
          command: z.string().regex(/^\/[a-z0-9_-]{1,31}$/),
          url: z.url().optional(),
          description: z.string().min(1).max(2000),
          usage_hint: z.string().max(1000).optional(),
          should_escape: z.boolean().optional(),
        }),
      )
      .max(50)
      .optional(),
  }),
  oauth_config: z.strictObject({
    redirect_urls: z.array(z.url()).max(1000).optional(),
    scopes: z.strictObject({ bot: z.array(z.string().regex(/^[a-z_.]+(:[a-z_.]+)?$/)).max(255) }),
  }),
  settings: z.strictObject({
    event_subscriptions: z.strictObject({ request_url: z.url().optional(), bot_events: z.array(z.string()).max(100) }),
    interactivity: z.strictObject({ is_enabled: z.boolean(), request_url: z.url().optional() }).optional(),
    org_deploy_enabled: z.boolean().optional(),
    socket_mode_enabled: z.boolean().optional(),
    token_rotation_enabled: z.boolean().optional(),
  }),
});

async function manifest() {
  const text = await readFile(new URL('../manifest.yml', import.meta.url), 'utf8');
  return manifestSchema.parse(parse(text));
}

describe('manifest.yml', () => {
  it('follows the documented schema as it stands', async () => {
    const parsed = await manifest();
    expect(parsed.display_information.name).toBe('genbot');
    // Slack refuses assistant:write unless an AI-app view is declared, and takes one view, not both.
    const views = [parsed.features.agent_view, parsed.features.assistant_view].filter((view) => view !== undefined);
    if (parsed.oauth_config.scopes.bot.includes('assistant:write')) expect(views).toHaveLength(1);
    expect(views.length).toBeLessThanOrEqual(1);
  });

  it('enables exactly the commands, events and scopes the code handles', async () => {
    const parsed = await manifest();
    expect(parsed.features.slash_commands?.map((command) => command.command)).toEqual([...SLASH_COMMANDS]);
    expect([...parsed.settings.event_subscriptions.bot_events].sort()).toEqual([...BOT_EVENTS].sort());
    // Every subscription reaches a listener: `message.channels` is a `message` event.
    for (const event of BOT_EVENTS) expect(EVENT_TYPES).toContain(event.split('.')[0]);
    expect([...parsed.oauth_config.scopes.bot].sort()).toEqual(Object.keys(BOT_SCOPES).sort());
  });

  it('opens the Messages tab for the DMs it answers, people may write there, and no group DMs', async () => {
    const parsed = await manifest();
    const events = parsed.settings.event_subscriptions.bot_events;
    expect(parsed.features.app_home).toMatchObject({
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
    expect(events).toContain('message.im');
    expect(events.filter((event) => event.startsWith('message.mpim'))).toEqual([]);
    expect(parsed.oauth_config.scopes.bot.filter((scope) => scope.startsWith('mpim:'))).toEqual([]);
  });

  it('asks for the scope each message event needs (Slack delivers none without it)', async () => {
    const parsed = await manifest();
    // From each event's "Required scopes" on docs.slack.dev.
    const needs: Record<string, string> = {
      app_mention: 'app_mentions:read',
      'message.channels': 'channels:history',
      'message.groups': 'groups:history',
      'message.im': 'im:history',
    };
    for (const event of parsed.settings.event_subscriptions.bot_events) {
      const scope = needs[event];
      if (scope !== undefined) expect(parsed.oauth_config.scopes.bot).toContain(scope);
    }
  });

  it('opens no assistant view, which the bot does not answer', async () => {
    expect((await manifest()).features.assistant_view).toBeUndefined();
  });

  it('declares the Home tab and the AI-app view the code answers', async () => {
    const parsed = await manifest();
    expect(parsed.features.app_home?.home_tab_enabled ?? false).toBe(HOME_TAB);
    expect(Object.keys(parsed.features).filter((key) => key.endsWith('_view'))).toEqual([AI_APP_VIEW]);
  });

  it('sends button presses and form submissions where the bot listens, since it answers them', async () => {
    const parsed = await manifest();
    expect(parsed.settings.interactivity?.is_enabled ?? false).toBe(INTERACTIVITY);
    expect(parsed.settings.interactivity?.request_url).toBe(parsed.settings.event_subscriptions.request_url);
  });
});
