import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@genbot/core';
import type { DiscordFake, SlackFake } from '@genbot/fakes';
import { getRequestListener } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import {
  BadRequest,
  decodeAttachment,
  discordCommandInput,
  discordMessageInput,
  slackCommandInput,
  slackMessageInput,
  withMentions,
} from './actions.js';
import { discordFingerprint, discordSnapshot, slackSnapshot, type PlaygroundSnapshot, type ServiceInfo } from './snapshot.js';

export interface PlaygroundOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1: the page drives bots and shows their files, keep it on this machine. */
  host?: string;
  slack: SlackFake;
  discord: DiscordFake;
  logger: Logger;
  /** Shown in the page header; never carries a key. */
  service?: ServiceInfo;
  /** Slack channel shown (default C1, #general). */
  slackChannel?: string;
  /** Discord channel shown, by name or ID (default general). */
  discordChannel?: string;
  /** How often the Discord fake is checked for changes (it has no change events). Default 100 ms. */
  pollMs?: number;
}

export interface Playground {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  readonly port: number;
  /** The current state, as the page receives it. */
  snapshot(): PlaygroundSnapshot;
  /** Refuse new actions (503) from now on; the live feed keeps running so the page sees replies finish. */
  stopTakingWork(): void;
  /** Sends the final state to every open page, ends the feeds and closes the server. */
  close(): Promise<void>;
}

const PEOPLE = ['alice', 'bob'];

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c4dff"/><stop offset="1" stop-color="#00b0ff"/></linearGradient></defs><rect width="32" height="32" rx="8" fill="url(#g)"/><path d="M16 6l2.6 7.4L26 16l-7.4 2.6L16 26l-2.6-7.4L6 16l7.4-2.6z" fill="#fff"/></svg>`;

interface FeedClient {
  send(data: string): void;
  end(): void;
}

/** Reads the page and the browser modules once: a few small files, served from memory. */
function loadAssets(): Map<string, { body: string; type: string }> {
  const here = dirname(fileURLToPath(import.meta.url));
  const require = createRequire(import.meta.url);
  // Package roots from their CommonJS entries (dist/x.js): htm's exports do not list package.json.
  const preact = dirname(dirname(require.resolve('preact')));
  const htm = dirname(dirname(require.resolve('htm')));
  const js = 'text/javascript; charset=utf-8';
  const read = (path: string) => readFileSync(path, 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/m, '');
  return new Map([
    ['/', { body: read(join(here, 'web', 'index.html')), type: 'text/html; charset=utf-8' }],
    ['/app.js', { body: read(join(here, 'web', 'app.js')), type: js }],
    ['/markup.js', { body: read(join(here, 'web', 'markup.js')), type: js }],
    ['/style.css', { body: read(join(here, 'web', 'style.css')), type: 'text/css; charset=utf-8' }],
    ['/vendor/preact.js', { body: read(join(preact, 'dist', 'preact.module.js')), type: js }],
    ['/vendor/preact-hooks.js', { body: read(join(preact, 'hooks', 'dist', 'hooks.module.js')), type: js }],
    ['/vendor/htm.js', { body: read(join(htm, 'dist', 'htm.module.js')), type: js }],
  ]);
}

function errorStatus(err: unknown): { status: 400 | 502 | 500; message: string } {
  if (err instanceof z.ZodError) {
    const issue = err.issues[0];
    return { status: 400, message: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}` };
  }
  if (err instanceof BadRequest) return { status: 400, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  if (/nowhere to deliver|ECONNREFUSED|fetch failed/i.test(message)) return { status: 502, message: `the bot is not reachable: ${message}` };
  // The fakes' drivers throw plain Errors for what a real client would refuse (unknown command, bad option).
  if (err instanceof Error) return { status: 400, message };
  return { status: 500, message };
}

/** Starts the playground: a JSON API and live feed over the two fakes, and the page that uses them. */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const { slack, discord, logger } = options;
  const log = logger.child({ component: 'playground' });
  const slackChannel = slack.workspace.resolveChannel(options.slackChannel ?? 'C1')?.id ?? 'C1';
  const discordChannel = discord.channelId(options.discordChannel ?? 'general');
  const service: ServiceInfo = options.service ?? { label: 'unknown', emulated: false };
  const assets = loadAssets();
  let version = 0;
  let closing = false;
  let closed = false;

  const snapshot = (): PlaygroundSnapshot => ({
    version,
    closing,
    service,
    slack: slackSnapshot(slack, slackChannel, 'U1'),
    discord: discordSnapshot(discord, discordChannel),
  });

  // Change detection: the Slack workspace notifies; the Discord guild is fingerprinted on a timer.
  const clients = new Set<FeedClient>();
  let dirty = true;
  let lastDiscord = '';
  const unsubscribe = slack.workspace.onChange(() => {
    dirty = true;
  });
  const tick = (): void => {
    const fingerprint = discordFingerprint(discord, discordChannel);
    if (fingerprint !== lastDiscord) {
      lastDiscord = fingerprint;
      dirty = true;
    }
    if (!dirty) return;
    dirty = false;
    version += 1;
    if (clients.size === 0) return;
    const data = JSON.stringify(snapshot());
    for (const client of clients) client.send(data);
  };
  const timer = setInterval(tick, options.pollMs ?? 100);
  timer.unref();

  const guard = (c: Context): Response | undefined =>
    closing ? c.json({ error: 'The playground is shutting down: no new messages.' }, 503) : undefined;
  const personOf = (name: string | undefined): string => (name !== undefined && PEOPLE.includes(name) ? name : 'alice');
  const slackUserOf = (name: string | undefined): string => (personOf(name) === 'bob' ? 'U2' : 'U1');
  const afterAction = (): void => {
    dirty = true;
    tick();
  };

  const app = new Hono();
  app.onError((err, c) => {
    const { status, message } = errorStatus(err);
    if (status === 500) log.error({ err }, 'playground request failed');
    else log.debug({ message }, 'playground request refused');
    return c.json({ error: message }, status);
  });

  // Only this machine's browser drives the bots: a page elsewhere cannot post here (JSON needs a
  // CORS preflight nobody answers), and a rebinding DNS name is refused by its Host header.
  app.use('*', async (c, next) => {
    const host = c.req.header('host') ?? '';
    if (!/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i.test(host) && options.host === undefined) {
      return c.json({ error: 'the playground answers on 127.0.0.1 only' }, 403);
    }
    if (c.req.method === 'POST' && !(c.req.header('content-type') ?? '').startsWith('application/json')) {
      return c.json({ error: 'send JSON (content-type: application/json)' }, 415);
    }
    return next();
  });

  for (const [path, asset] of assets) {
    app.get(path, (c) => c.body(asset.body, 200, { 'content-type': asset.type, 'cache-control': 'no-cache' }));
  }
  app.get('/favicon.svg', (c) => c.body(FAVICON, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400' }));
  app.get('/favicon.ico', (c) => c.redirect('/favicon.svg'));
  app.get('/api/state', (c) => c.json(snapshot()));
  app.get('/api/events', (c) =>
    streamSSE(c, async (stream) => {
      let end: () => void = () => {};
      const finished = new Promise<void>((resolve) => {
        end = resolve;
      });
      let queue = Promise.resolve();
      const client: FeedClient = {
        send: (data) => {
          queue = queue.then(() => stream.writeSSE({ event: 'state', data })).catch(() => end());
        },
        end: () => {
          queue.finally(() => end());
        },
      };
      clients.add(client);
      stream.onAbort(() => end());
      client.send(JSON.stringify(snapshot()));
      const keepAlive = setInterval(() => {
        queue = queue.then(() => stream.write(': keep-alive\n\n')).then(() => undefined).catch(() => end());
      }, 15_000);
      await finished;
      clearInterval(keepAlive);
      clients.delete(client);
      await queue;
    }),
  );

  app.get('/api/slack/files/:id', (c) => {
    const file = slack.workspace.files.get(c.req.param('id'));
    if (!file?.bytes || file.channel === undefined) return c.json({ error: 'no such file' }, 404);
    return c.body(new Uint8Array(file.bytes), 200, fileHeaders(file.name, file.mimetype, c.req.query('download') !== undefined));
  });
  app.get('/api/discord/attachments/:channelId/:attachmentId', (c) => {
    const attachment = discord.state.findAttachment(c.req.param('channelId'), c.req.param('attachmentId'));
    if (!attachment) return c.json({ error: 'no such attachment' }, 404);
    return c.body(
      new Uint8Array(attachment.bytes),
      200,
      fileHeaders(attachment.filename, attachment.contentType, c.req.query('download') !== undefined),
    );
  });

  app.post('/api/slack/messages', async (c) => {
    const refused = guard(c);
    if (refused) return refused;
    const input = slackMessageInput.parse(await c.req.json());
    const botName = slack.workspace.users.get(slack.identity.botUserId)?.name ?? 'genbot';
    const text = withMentions(input.text, botName, `<@${slack.identity.botUserId}>`);
    if (text.trim() === '' && input.file === undefined) throw new BadRequest('type a message or attach a file');
    const posted = await slack.userSays({
      user: slackUserOf(input.user),
      channel: slackChannel,
      text,
      ...(input.threadTs !== undefined && { threadTs: input.threadTs }),
      ...(input.file !== undefined && {
        files: [
          {
            name: input.file.name,
            bytes: decodeAttachment(input.file),
            ...(input.file.mimetype !== undefined && input.file.mimetype !== '' && { mimetype: input.file.mimetype }),
          },
        ],
      }),
    });
    afterAction();
    return c.json({ ts: posted.ts, channel: posted.channel, threadTs: posted.threadTs ?? null });
  });
  app.post('/api/slack/commands', async (c) => {
    const refused = guard(c);
    if (refused) return refused;
    const input = slackCommandInput.parse(await c.req.json());
    const run = await slack.userRunsCommand({ user: slackUserOf(input.user), channel: slackChannel, command: input.command, text: input.text });
    afterAction();
    const acked = run.delivery.attempts.some((attempt) => attempt.acked);
    return c.json({ acknowledged: acked }, acked ? 200 : 502);
  });
  app.post('/api/discord/messages', async (c) => {
    const refused = guard(c);
    if (refused) return refused;
    const input = discordMessageInput.parse(await c.req.json());
    const channelId = discordTarget(input.channelId);
    const content = withMentions(input.content, discord.state.botUser.username, `<@${discord.state.botUser.id}>`);
    if (content.trim() === '' && input.file === undefined) throw new BadRequest('type a message or attach a file');
    const message = discord.userSays({
      user: personOf(input.user),
      channelId,
      content,
      ...(input.replyTo !== undefined && { replyTo: input.replyTo }),
      ...(input.file !== undefined && {
        attachments: [
          {
            filename: input.file.name,
            bytes: decodeAttachment(input.file),
            ...(input.file.mimetype !== undefined && input.file.mimetype !== '' && { contentType: input.file.mimetype }),
          },
        ],
      }),
    });
    afterAction();
    return c.json({ id: message.id, channelId });
  });
  app.post('/api/discord/commands', async (c) => {
    const refused = guard(c);
    if (refused) return refused;
    const input = discordCommandInput.parse(await c.req.json());
    const interaction = discord.userRunsCommand({
      user: personOf(input.user),
      channelId: discordTarget(input.channelId),
      name: input.name,
      options: input.options,
    });
    afterAction();
    return c.json({ id: interaction.id });
  });

  function discordTarget(channelId: string | undefined): string {
    if (channelId === undefined || channelId === discordChannel) return discordChannel;
    const thread = discord.state.channel(channelId);
    if (thread?.parentId !== discordChannel) throw new BadRequest('no such thread in this channel');
    return thread.id;
  }

  const server: Server = createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  log.debug({ url }, 'playground listening');

  return {
    url,
    port,
    snapshot,
    stopTakingWork() {
      if (closing) return;
      closing = true;
      afterAction();
    },
    async close() {
      if (closed) return;
      closed = true;
      closing = true;
      // One last state (the replies that finished while draining), then end every feed.
      dirty = true;
      tick();
      clearInterval(timer);
      unsubscribe();
      for (const client of clients) client.end();
      await new Promise((resolve) => setTimeout(resolve, 50));
      server.closeIdleConnections();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      const forced = setTimeout(() => server.closeAllConnections(), 1000);
      await done;
      clearTimeout(forced);
    },
  };
}

function fileHeaders(name: string, type: string, download: boolean): Record<string, string> {
  const safeType = /^image\/(png|jpeg|webp|gif)$/.test(type) ? type : 'application/octet-stream';
  return {
    'content-type': safeType,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-disposition': `${download || safeType === 'application/octet-stream' ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(name)}`,
  };
}
