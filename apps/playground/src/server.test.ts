import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@genbot/core';
import { startDiscordFake, startSlackFake, type DiscordFake, type SlackFake } from '@genbot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withMentions } from './actions.js';
import { startPlayground, type Playground } from './server.js';
import { blocksText, type PlaygroundSnapshot } from './snapshot.js';

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

describe('the playground server', () => {
  it('serves the page with an import map and the browser modules from node_modules', async () => {
    const page = await (await fetch(playground.url)).text();
    expect(page).toContain('"preact": "/vendor/preact.js"');
    for (const path of ['app.js', 'markup.js', 'style.css', 'vendor/preact.js', 'vendor/preact-hooks.js', 'vendor/htm.js']) {
      const response = await fetch(new URL(path, playground.url));
      expect(response.status, path).toBe(200);
    }
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

  it('posts a Discord reply in the channel and refuses unknown commands with their reason', async () => {
    const first = await post('/api/discord/messages', { content: 'hello', user: 'bob' });
    const reply = await post('/api/discord/messages', { content: '@genbot answer bob', replyTo: first.json.id });
    expect(reply.status).toBe(200);
    const view = (await state()).discord.messages.find((m) => m.id === reply.json.id);
    expect(view?.replyTo).toMatchObject({ id: first.json.id, author: 'bob', excerpt: 'hello' });
    expect(view?.content).toBe(`<@${discord.state.botUser.id}> answer bob`);
    const command = await post('/api/discord/commands', { name: 'imagine', options: { prompt: 'x' } });
    expect(command.status).toBe(400);
    expect(command.json.error).toMatch(/not registered/);
  });

  it('checks its input', async () => {
    expect((await post('/api/slack/messages', { text: '' })).status).toBe(400);
    expect((await post('/api/slack/commands', { command: 'imagine', text: 'x' })).status).toBe(400);
    expect((await post('/api/discord/messages', { content: 'x', channelId: '123' })).status).toBe(400);
  });

  it('feeds live state over SSE, and a new version after each change', async () => {
    const controller = new AbortController();
    const response = await fetch(new URL('api/events', playground.url), { signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const next = async (): Promise<PlaygroundSnapshot> => {
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
