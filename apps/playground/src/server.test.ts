import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@genbot/core/log';
import { startDiscordFake, startSlackFake, type DiscordFake, type SlackFake } from '@genbot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withMentions } from './actions.js';
import { SLASH_COMMANDS } from '@genbot/slack-bot/registrations';
import { startPlayground, type Playground } from './server.js';
import { LIMIT_WORDS } from './limits.js';
import { blocksText, discordButtons, slackButtons, type PlaygroundSnapshot } from './snapshot.js';

// The playground over the two fakes, without bots: a stand-in Slack app that only acknowledges.
let slack: SlackFake;
let discord: DiscordFake;
let playground: Playground;
let ackServer: Server;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  ackServer = createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((resolve) => ackServer.listen(0, '127.0.0.1', resolve));
  slack = await startSlackFake({ echoBotMessages: false });
  slack.deliverTo(`http://127.0.0.1:${(ackServer.address() as AddressInfo).port}/slack/events`);
  discord = await startDiscordFake();
  playground = await startPlayground({
    port: 0,
    slack,
    discord,
    logger: createLogger({ level: 'silent' }),
    service: { label: 'offline emulator', emulated: true, chatModel: 'chat-model', imageModel: 'image-model' },
    pollMs: 20,
  });
});

afterAll(async () => {
  await playground.close();
  await slack.close();
  await discord.close();
  await new Promise((resolve) => ackServer.close(resolve));
});

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(new URL(path, playground.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function state(): Promise<PlaygroundSnapshot> {
  return (await (await fetch(new URL('api/state', playground.url))).json()) as PlaygroundSnapshot;
}

/** Reads the states of a live feed one by one; rejects once the feed has ended. */
function frames(response: Response): () => Promise<PlaygroundSnapshot> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return async () => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split('\n').find((line) => line.startsWith('data:'));
        if (data) return JSON.parse(data.slice(5)) as PlaygroundSnapshot;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('feed ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
}

describe('withMentions', () => {
  it('turns @name into the platform markup, leaving e-mail addresses and other names alone', () => {
    expect(withMentions('@genbot hi, @GenBot! mail me@genbot.dev or @genbotx', 'genbot', '<@U9>')).toBe(
      '<@U9> hi, <@U9>! mail me@genbot.dev or @genbotx',
    );
  });
});

describe('blocksText', () => {
  it('reads section, markdown and context text', () => {
    const blocks = [
      { type: 'markdown', text: '**hi**' },
      { type: 'section', text: { type: 'mrkdwn', text: '*there*' } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'small' }] },
      { type: 'image', image_url: 'x', alt_text: 'ignored' },
    ];
    expect(blocksText(blocks)).toBe('**hi**\n*there*\nsmall');
  });
});

describe('result buttons', () => {
  it('reads Slack actions blocks and Discord action rows, leaving out link and disabled buttons', () => {
    expect(
      slackButtons([
        { type: 'section', text: { type: 'mrkdwn', text: 'v1' } },
        {
          type: 'actions',
          elements: [
            { type: 'button', action_id: 'reroll', text: { type: 'plain_text', text: 'Re-roll' } },
            { type: 'static_select', action_id: 'pick' },
          ],
        },
      ]),
    ).toEqual([{ label: 'Re-roll', id: 'reroll', row: 0 }]);
    expect(
      discordButtons([
        {
          type: 1,
          components: [
            { type: 2, style: 2, custom_id: 'vary', label: 'Vary' },
            { type: 2, style: 2, custom_id: 'old', label: 'Old', disabled: true },
            { type: 2, style: 5, url: 'https://example.com', label: 'Open' },
          ],
        },
        { type: 1, components: [{ type: 2, style: 2, custom_id: 'edit', label: 'Edit' }] },
      ]),
    ).toEqual([
      { label: 'Vary', id: 'vary', row: 0 },
      { label: 'Edit', id: 'edit', row: 1 },
    ]);
  });
});

describe('the playground server', () => {
  it('serves the page with an import map and the browser modules from node_modules', async () => {
    const page = await (await fetch(playground.url)).text();
    expect(page).toContain('"preact": "/vendor/preact.js"');
    for (const path of [
      'app.js',
      'markup.js',
      'limits.js',
      'style.css',
      'vendor/preact.js',
      'vendor/preact-hooks.js',
      'vendor/htm.js',
    ]) {
      const response = await fetch(new URL(path, playground.url));
      expect(response.status, path).toBe(200);
    }
  });

  it('serves every module the page imports, one file per pane and part', async () => {
    const seen = new Set<string>();
    const pending = ['app.js'];
    for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
      if (seen.has(path)) continue;
      seen.add(path);
      const response = await fetch(new URL(path, playground.url));
      expect(response.status, path).toBe(200);
      const source = await response.text();
      for (const [, imported] of source.matchAll(/^import .* from '\.\/([\w-]+\.js)';$/gm))
        pending.push(imported ?? '');
    }
    expect(seen).toContain('slack-pane.js');
    expect(seen).toContain('discord-pane.js');
    expect(seen.size).toBeGreaterThan(8);
  });

  it('makes alice an admin where the bots read it, and bob a member, and says so', async () => {
    expect([slack.workspace.users.get('U1')?.role, slack.workspace.users.get('U2')?.role]).toEqual(['admin', 'member']);
    const alice = discord.state.user('alice').id;
    expect(discord.state.grantedPermissions(alice) & (1n << 5n)).toBe(1n << 5n);
    expect(discord.state.grantedPermissions(discord.state.user('bob').id)).toBe(0n);
    const { slack: slackState, discord: discordState } = await state();
    const roles = [
      { name: 'alice', role: 'admin' },
      { name: 'bob', role: 'member' },
    ];
    expect([slackState.people, discordState.people]).toEqual([roles, roles]);
  });

  it('posts a Slack message as the person, with the mention and an attached image', async () => {
    const answer = await post('/api/slack/messages', {
      text: '@genbot what is this?',
      file: { name: 'dot.png', data: PNG.toString('base64') },
    });
    expect(answer.status).toBe(200);
    const message = slack.workspace.message('C1', String(answer.json.ts));
    expect(message?.text).toBe(`<@${slack.identity.botUserId}> what is this?`);
    expect(message?.user).toBe('U1');
    const view = (await state()).slack.messages.find((m) => m.ts === answer.json.ts);
    expect(view?.author).toBe('Alice');
    expect(view?.files).toHaveLength(1);
    const file = view?.files[0];
    const bytes = await fetch(new URL(`${file?.url ?? ''}?download=1`, playground.url));
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(bytes.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(PNG);
  });

  it('opens a person’s Slack DM and Home, posts there, and shows what the app set: prompts, status, title, Home tab', async () => {
    const opened = await post('/api/slack/app', { tab: 'messages', user: 'bob' });
    expect(opened.status).toBe(200);
    const channel = String(opened.json.channel);
    expect(channel).toMatch(/^D/);
    expect(slack.deliveries.at(-1)?.eventType).toBe('app_home_opened');
    const asked = await post('/api/slack/messages', { text: 'draw a fox', dm: true, user: 'bob' });
    expect(asked.json.channel).toBe(channel);
    const ts = String(asked.json.ts);

    // What the bot would set through the Web API, recorded as the fake's methods record it.
    const now = Date.now();
    slack.aiApps.addPrompts({ channel, title: 'Try', prompts: [{ title: 'Draw', message: 'Draw a fox' }], atMs: now });
    slack.workspace.setStatus({ channel, threadTs: ts, status: 'is thinking…', atMs: now });
    slack.aiApps.addTitle({ channel, threadTs: ts, title: 'Draw a fox', method: 'agents.sessions.rename', atMs: now });
    slack.aiApps.publish({
      id: 'V1',
      user: 'U2',
      hash: 'h1',
      atMs: now,
      view: {
        type: 'home',
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: 'What I can do' } },
          { type: 'section', text: { type: 'mrkdwn', text: '*Today:* 1 image' } },
          { type: 'divider' },
          { type: 'context', elements: [{ type: 'mrkdwn', text: 'small print' }] },
          { type: 'actions', elements: [] },
        ],
      },
    });
    const bob = (await state()).slackDms.find((dm) => dm.person === 'bob');
    expect(bob).toMatchObject({
      channelId: channel,
      prompts: { title: 'Try', prompts: [{ title: 'Draw', message: 'Draw a fox' }] },
      statuses: [{ threadTs: ts, status: 'is thinking…' }],
      titles: [{ threadTs: ts, title: 'Draw a fox' }],
      home: [
        { type: 'header', text: 'What I can do' },
        { type: 'section', text: '*Today:* 1 image' },
        { type: 'divider' },
        { type: 'context', text: 'small print' },
      ],
    });
    expect(bob?.messages.map((m) => m.text)).toEqual(['draw a fox']);
    // Not in the channel, and not alice's.
    expect((await state()).slack.messages.some((m) => m.text === 'draw a fox')).toBe(false);
    expect((await state()).slackDms.find((dm) => dm.person === 'alice')?.messages ?? []).toEqual([]);

    // The bot's post in the thread takes its status down, as Slack does.
    slack.workspace.post({
      channel,
      threadTs: ts,
      user: slack.identity.botUserId,
      botId: slack.identity.botId,
      text: 'here',
    });
    expect((await state()).slackDms.find((dm) => dm.person === 'bob')?.statuses).toEqual([]);
    expect((await post('/api/slack/app', { tab: 'settings' })).status).toBe(400);
  });

  it('draws a Home tab section’s button at its right, and sends its press to the app as Slack does: the person’s own buttons only', async () => {
    await post('/api/slack/app', { tab: 'home', user: 'alice' });
    const settings = {
      type: 'section',
      text: { type: 'mrkdwn', text: '*Settings*\nThis workspace’s models' },
      accessory: {
        type: 'button',
        action_id: 'genbot-settings-home',
        text: { type: 'plain_text', text: 'Workspace settings' },
        value: 'D1',
      },
    };
    slack.aiApps.publish({
      id: 'VHOME1',
      user: 'U1',
      hash: 'h1',
      atMs: Date.now(),
      view: { type: 'home', blocks: [settings] },
    });
    slack.aiApps.publish({
      id: 'VHOME2',
      user: 'U2',
      hash: 'h1',
      atMs: Date.now(),
      view: { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Today:* 1 image' } }] },
    });
    const dms = (await state()).slackDms;
    expect(dms.find((dm) => dm.person === 'alice')?.home).toEqual([
      {
        type: 'section',
        text: '*Settings*\nThis workspace’s models',
        button: { label: 'Workspace settings', id: 'genbot-settings-home' },
      },
    ]);
    expect(dms.find((dm) => dm.person === 'bob')?.home).toEqual([{ type: 'section', text: '*Today:* 1 image' }]);

    expect(await post('/api/slack/home-press', { actionId: 'genbot-settings-home', user: 'alice' })).toEqual({
      status: 200,
      json: { pressed: true },
    });
    const press = slack.deliveries.at(-1);
    expect(press?.kind).toBe('interactive');
    expect(press?.payload).toMatchObject({
      type: 'block_actions',
      user: { id: 'U1' },
      container: { type: 'view', view_id: 'VHOME1' },
      actions: [{ type: 'button', action_id: 'genbot-settings-home', value: 'D1' }],
    });
    expect(press?.payload.trigger_id).toEqual(expect.any(String));

    // bob's Home tab has no such button: nothing is sent for him.
    const sent = slack.deliveries.length;
    expect(await post('/api/slack/home-press', { actionId: 'genbot-settings-home', user: 'bob' })).toEqual({
      status: 400,
      json: { error: LIMIT_WORDS.homeButton },
    });
    expect((await post('/api/slack/home-press', { user: 'alice' })).status).toBe(400);
    expect((await post('/api/slack/home-press', { actionId: 'x'.repeat(201), user: 'alice' })).json).toEqual({
      error: LIMIT_WORDS.place,
    });
    expect(slack.deliveries.length).toBe(sent);
  });

  it('posts to a person’s Discord DM with the bot, kept out of the channel', async () => {
    const sent = await post('/api/discord/messages', { content: 'hello bot', dm: true, user: 'bob' });
    expect(sent.status).toBe(200);
    expect(sent.json.channelId).toBe(discord.dmChannelId('bob'));
    const snapshot = await state();
    expect(snapshot.discordDms.find((dm) => dm.person === 'bob')?.messages.map((m) => m.content)).toEqual([
      'hello bot',
    ]);
    expect(snapshot.discord.messages.some((m) => m.content === 'hello bot')).toBe(false);
    // Only global commands open to DMs are offered there, as on Discord.
    const command = await post('/api/discord/commands', { name: 'imagine', options: {}, dm: true, user: 'bob' });
    expect(command).toEqual({ status: 400, json: { error: '/imagine is not a command in this DM.', from: 'Discord' } });
  });

  it('posts a Discord reply in the channel and refuses unknown commands with their reason', async () => {
    const first = await post('/api/discord/messages', { content: 'hello', user: 'bob' });
    const reply = await post('/api/discord/messages', { content: '@genbot answer bob', replyTo: first.json.id });
    expect(reply.status).toBe(200);
    const view = (await state()).discord.messages.find((m) => m.id === reply.json.id);
    expect(view?.replyTo).toMatchObject({ id: first.json.id, author: 'bob', excerpt: 'hello' });
    expect(view?.content).toBe(`<@${discord.state.botUser.id}> answer bob`);
    // No bot registered its commands here: Discord itself answers, at once.
    const command = await post('/api/discord/commands', { name: 'imagine', options: { prompt: 'x' } });
    expect(command).toEqual({
      status: 400,
      json: { error: '/imagine is not a command in this server.', from: 'Discord' },
    });
  });

  it('answers a slash command the Slack app does not declare as Slack does, without asking the bot', async () => {
    const before = slack.deliveries.length;
    const answer = await post('/api/slack/commands', { command: '/foo', text: 'bar' });
    expect(answer).toEqual({
      status: 400,
      json: {
        error:
          '/foo is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.',
        from: 'Slackbot',
      },
    });
    expect(slack.deliveries.length).toBe(before);
    // Every command the Slack bot declares reaches it, /usage as much as /imagine.
    for (const command of SLASH_COMMANDS) {
      expect(await post('/api/slack/commands', { command, text: 'x' })).toEqual({
        status: 200,
        json: { acknowledged: true },
      });
    }
    expect(SLASH_COMMANDS).toContain('/usage');
  });

  it('checks its input and says what fits, in words', async () => {
    const refusal = async (path: string, body: unknown) => {
      const answer = await post(path, body);
      expect(answer.status).toBe(400);
      return answer.json.error;
    };
    const big = { name: 'big.png', data: Buffer.alloc(10 * 1024 * 1024 + 1).toString('base64') };
    expect(await refusal('/api/slack/messages', { text: '' })).toBe('Type a message or attach an image');
    expect(await refusal('/api/slack/messages', { text: 'x'.repeat(4001) })).toBe(
      'Slack messages up to 4,000 characters',
    );
    expect(await refusal('/api/slack/messages', { text: 'x', file: big })).toBe('Images up to 10 MB');
    expect(await refusal('/api/discord/messages', { content: 'x'.repeat(2001) })).toBe(
      'Discord messages up to 2,000 characters',
    );
    expect(await refusal('/api/slack/commands', { command: 'imagine', text: 'x' })).toBe(
      'A command is a slash and a name, like /imagine',
    );
    expect(await refusal('/api/discord/messages', { content: 'x', channelId: '123' })).toBe(
      'That thread or message is no longer here: go back to the channel',
    );
    // What the page never sends is still answered in words, naming the field, never a schema dump.
    expect(await refusal('/api/slack/messages', { text: 42 })).toBe(
      'The page sent something the playground cannot read (text): reload the page.',
    );
  });

  it('refuses a press on a button the message does not carry, and a form that is not open, in words', async () => {
    const { json } = await post('/api/slack/messages', { text: 'no buttons here' });
    const slackPress = await post('/api/slack/press', { ts: json.ts, actionId: 'reroll' });
    expect(slackPress).toEqual({ status: 400, json: { error: LIMIT_WORDS.place } });
    expect(await post('/api/slack/forms', { id: 'V404', values: { instruction: 'blue' } })).toEqual({
      status: 400,
      json: { error: LIMIT_WORDS.formGone },
    });
    expect(await post('/api/slack/view-actions', { id: 'V404', actionId: 'level', value: 'workspace' })).toEqual({
      status: 400,
      json: { error: LIMIT_WORDS.formGone },
    });
    const message = await post('/api/discord/messages', { content: 'no buttons either' });
    expect(await post('/api/discord/press', { messageId: message.json.id, customId: 'vary' })).toEqual({
      status: 400,
      json: { error: LIMIT_WORDS.place },
    });
    expect(await post('/api/discord/forms', { id: '404', values: { instruction: 'blue' } })).toEqual({
      status: 400,
      json: { error: LIMIT_WORDS.formGone },
    });
    expect((await post('/api/discord/forms', { id: '404', values: { instruction: 'x'.repeat(4001) } })).json).toEqual({
      error: LIMIT_WORDS.formText,
    });
  });

  it('serves the limits to the page as a module, with their words', async () => {
    const module = await (await fetch(new URL('limits.js', playground.url))).text();
    expect(module).toContain('"imageBytes":10485760');
    expect(module).toContain('"slackText":"Slack messages up to 4,000 characters"');
  });

  it('feeds live state over SSE, and a new version after each change', async () => {
    const controller = new AbortController();
    const response = await fetch(new URL('api/events', playground.url), { signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const next = frames(response);
    const first = await next();
    discord.userSays({ user: 'carol', channelId: discord.channelId('general'), content: 'seen live' });
    const second = await next();
    expect(second.version).toBeGreaterThan(first.version);
    expect(second.discord.messages.at(-1)?.content).toBe('seen live');
    controller.abort();
  });

  it('refuses new work once shutdown started', async () => {
    playground.stopTakingWork();
    const answer = await post('/api/slack/messages', { text: 'late' });
    expect(answer.status).toBe(503);
    expect((await state()).closing).toBe(true);
  });
});

describe('requests from elsewhere', () => {
  it('refuses a form post (no CORS preflight) and a foreign Host', async () => {
    const form = await fetch(new URL('api/slack/messages', playground.url), {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(form.status).toBe(415);
    const { request } = await import('node:http');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(new URL('api/state', playground.url), { headers: { host: 'evil.example:8787' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('a Slack app that does not acknowledge a command in time', () => {
  it('gets Slack’s own answer, operation_timeout, from Slackbot', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const slow = await startSlackFake({ ackTimeoutMs: 100, echoBotMessages: false });
    slow.deliverTo(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/slack/events`);
    const other = await startPlayground({ port: 0, slack: slow, discord, logger: createLogger({ level: 'silent' }) });
    try {
      const response = await fetch(new URL('api/slack/commands', other.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ command: '/imagine', text: 'a fox' }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: '/imagine failed with the error "operation_timeout"',
        from: 'Slackbot',
      });
    } finally {
      await other.close();
      await slow.close();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('a playground whose Slack fake has no bot to deliver to', () => {
  it('answers 502 (the bot is not reachable), and on close sends open pages the last state and ends their feed', async () => {
    const lonely = await startSlackFake();
    const other = await startPlayground({ port: 0, slack: lonely, discord, logger: createLogger({ level: 'silent' }) });
    try {
      const response = await fetch(new URL('api/slack/messages', other.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'anyone?' }),
      });
      expect(response.status).toBe(502);
      expect(((await response.json()) as { error: string }).error).toBe(
        'genbot is not connected yet: try again in a moment.',
      );

      const next = frames(await fetch(new URL('api/events', other.url)));
      expect((await next()).closing).toBe(false);
      await other.close();
      let last = await next();
      for (;;) {
        const later = await next().catch(() => undefined);
        if (later === undefined) break;
        last = later;
      }
      expect(last.closing).toBe(true);
    } finally {
      await other.close();
      await lonely.close();
    }
  });
});
