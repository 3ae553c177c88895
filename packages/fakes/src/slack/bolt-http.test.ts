import { setTimeout as sleep } from 'node:timers/promises';
import type { App } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackFake, type SlackFake, type SlackFakeOptions } from './server.js';
import { startHttpBolt } from './testing/bolt.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('user image')]);

let slack: SlackFake | undefined;
let app: App | undefined;

async function setup(
  bolt: (app: App) => void,
  options: SlackFakeOptions = {},
  processBeforeResponse = false,
): Promise<SlackFake> {
  // The fake first: Bolt calls auth.test in its constructor.
  slack = await startSlackFake({ retryDelaysMs: [0, 50, 50], ...options });
  app = await startHttpBolt(slack, bolt, { processBeforeResponse });
  return slack;
}

afterEach(async () => {
  await app?.stop();
  await slack?.close();
  app = undefined;
  slack = undefined;
});

describe('a real Bolt app over HTTP', () => {
  it('gets app_mention and message events and replies in the thread, then edits the reply', async () => {
    const seen: string[] = [];
    const fake = await setup((bolt) => {
      bolt.message(async ({ message }) => {
        // The edit below comes back as message_changed, which Slack sends whoever edited; only new posts count here.
        if (message.subtype === 'message_changed') return;
        seen.push(`message:${'user' in message ? message.user : '?'}`);
      });
      bolt.event('app_mention', async ({ event, say, client }) => {
        seen.push(`app_mention:${event.user}`);
        const reply = await say({ text: 'thinking…', thread_ts: event.thread_ts ?? event.ts });
        await client.chat.update({ channel: event.channel, ts: reply.ts as string, text: 'Here you go.' });
      });
    });
    const mention = await fake.userSays({ user: 'U1', channel: 'C1', text: 'hi <@UBOT> draw a cat' });
    expect(mention.deliveries.map((d) => [d.eventType, d.acked, d.via])).toEqual([
      ['message', true, 'http'],
      ['app_mention', true, 'http'],
    ]);
    const reply = await fake.waitFor((ws) =>
      ws.botMessages('UBOT', { threadTs: mention.ts }).find((m) => m.text === 'Here you go.'),
    );
    expect(reply.edits.map((v) => v.text)).toEqual(['thinking…']);
    // The bot's own post is echoed back as a message event, which Bolt's ignoreSelf drops.
    await fake.waitFor((_) =>
      fake.deliveries.find(
        (d) =>
          d.eventType === 'message' &&
          d.payload.event !== undefined &&
          JSON.stringify(d.payload.event).includes('"bot_id":"BBOT"') &&
          d.acked,
      ),
    );
    expect(seen.sort()).toEqual(['app_mention:U1', 'message:U1']);
  });

  it('delivers a slash command with response_url and trigger_id, acknowledged in time', async () => {
    const fake = await setup((bolt) => {
      bolt.command('/imagine', async ({ ack, command, respond, client }) => {
        await ack();
        await client.chat.postMessage({ channel: command.channel_id, text: `Imagining "${command.text}"…` });
        await respond({ text: 'done', response_type: 'ephemeral' });
      });
    });
    const run = await fake.userRunsCommand({
      user: 'U1',
      channel: 'C1',
      command: '/imagine',
      text: 'a red fox --ar 16:9',
    });
    expect(run.delivery.attempts).toMatchObject([{ retryNum: 0, acked: true, status: 200 }]);
    expect(run.delivery.payload).toMatchObject({
      command: '/imagine',
      text: 'a red fox --ar 16:9',
      user_id: 'U1',
      channel_id: 'C1',
    });
    expect(run.responseUrl.startsWith(fake.url)).toBe(true);
    expect(run.triggerId).not.toBe('');
    await fake.waitFor((ws) =>
      ws.ephemerals.find((e) => e.text === 'done' && e.user === 'U1' && e.source === 'response_url'),
    );
    expect(fake.workspace.history('C1')[0]?.text).toBe('Imagining "a red fox --ar 16:9"…');
  });

  it('turns a command acknowledged with text into an ephemeral message', async () => {
    const fake = await setup((bolt) => {
      bolt.command('/imagine', async ({ ack }) => {
        await ack('Unknown aspect ratio 7:3; use one of 1:1, 16:9, …');
      });
    });
    await fake.userRunsCommand({ user: 'U2', channel: 'C1', command: '/imagine', text: 'x --ar 7:3' });
    expect(fake.workspace.ephemerals).toMatchObject([
      { user: 'U2', source: 'command_ack', text: expect.stringContaining('7:3') },
    ]);
  });

  it('gives the bot user files it can download with its token', async () => {
    const downloads: Buffer[] = [];
    const fake = await setup((bolt) => {
      bolt.event('app_mention', async ({ event, context }) => {
        for (const file of event.files ?? []) {
          const response = await fetch(file.url_private ?? '', {
            headers: { authorization: `Bearer ${context.botToken}` },
          });
          downloads.push(Buffer.from(await response.arrayBuffer()));
        }
      });
    });
    const posted = await fake.userSays({
      user: 'U1',
      channel: 'C1',
      text: '<@UBOT> make it blue',
      files: [{ name: 'photo.png', bytes: PNG }],
    });
    const mention = posted.deliveries.find((d) => d.eventType === 'app_mention');
    expect(mention?.payload.event).toMatchObject({ files: [{ name: 'photo.png', mimetype: 'image/png', user: 'U1' }] });
    const message = posted.deliveries.find((d) => d.eventType === 'message');
    expect(message?.payload.event).toMatchObject({ subtype: 'file_share', channel_type: 'channel' });
    await fake.waitFor(() => downloads.length === 1);
    expect(downloads[0]?.equals(PNG)).toBe(true);
  });

  it('has its 401 for a bad signature reported, and retried as Slack does', async () => {
    let handled = 0;
    const fake = await setup(
      (bolt) => {
        bolt.event('app_mention', async () => {
          handled += 1;
        });
      },
      { events: ['app_mention'] },
    );
    const posted = await fake.userSays({ user: 'U1', channel: 'C1', text: '<@UBOT> hi', signature: 'invalid' });
    const [delivery] = posted.deliveries;
    expect(delivery?.attempts[0]).toMatchObject({ acked: false, status: 401, failure: 'http_error' });
    await delivery?.settled;
    expect(delivery?.attempts.map((a) => [a.retryNum, a.retryReason, a.status])).toEqual([
      [0, undefined, 401],
      [1, 'http_error', 401],
      [2, 'http_error', 401],
      [3, 'http_error', 401],
    ]);
    const stale = await fake.userSays({ user: 'U1', channel: 'C1', text: '<@UBOT> hi', signature: 'stale' });
    expect(stale.deliveries[0]?.attempts[0]?.status).toBe(401);
    expect(handled).toBe(0);
  });

  it('retries an event the bot is too slow to acknowledge, with X-Slack-Retry-Num', async () => {
    const retries: Array<[number | undefined, string | undefined]> = [];
    const fake = await setup(
      (bolt) => {
        bolt.event('app_mention', async ({ context }) => {
          retries.push([context.retryNum, context.retryReason]);
          // processBeforeResponse: the ack waits for this, so the first delivery times out.
          if (context.retryNum === undefined) await sleep(400);
        });
      },
      { ackTimeoutMs: 200, events: ['app_mention'] },
      true,
    );
    const posted = await fake.userSays({ user: 'U1', channel: 'C1', text: '<@UBOT> slow' });
    const [delivery] = posted.deliveries;
    await delivery?.settled;
    expect(delivery?.attempts.map((a) => [a.retryNum, a.failure ?? 'acked'])).toEqual([
      [0, 'http_timeout'],
      [1, 'acked'],
    ]);
    expect(retries).toEqual([
      [undefined, undefined],
      [1, 'http_timeout'],
    ]);
  });

  it('redelivers an event with the same event_id on demand, for dedupe tests', async () => {
    const seen: Array<[string, number | undefined]> = [];
    const fake = await setup(
      (bolt) => {
        bolt.event('app_mention', async ({ body, context }) => {
          seen.push([body.event_id, context.retryNum]);
        });
      },
      { events: ['app_mention'] },
    );
    const posted = await fake.userSays({ user: 'U1', channel: 'C1', text: '<@UBOT> once' });
    const eventId = posted.deliveries[0]?.eventId ?? '';
    const again = await fake.redeliver(eventId, { retryNum: 2, retryReason: 'http_timeout' });
    expect(again.acked).toBe(true);
    expect(seen).toEqual([
      [eventId, undefined],
      [eventId, 2],
    ]);
  });

  it('passes the url_verification challenge', async () => {
    const fake = await setup(() => {});
    expect((await fake.verifyUrl()).verified).toBe(true);
  });

  it("sends other bots' messages as bot_message events", async () => {
    const subtypes: Array<string | undefined> = [];
    const fake = await setup((bolt) => {
      bolt.event('message', async ({ event }) => {
        subtypes.push(event.subtype);
      });
    });
    const posted = await fake.botSays({ botId: 'BOTHER', username: 'other', channel: 'C1', text: '<@UBOT> ping' });
    expect(posted.deliveries[0]?.payload.event).toMatchObject({ subtype: 'bot_message', bot_id: 'BOTHER' });
    await fake.waitFor(() => subtypes.length === 1);
    expect(subtypes).toEqual(['bot_message']);
  });
});
