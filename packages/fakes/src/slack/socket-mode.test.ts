import type { App } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackFake, type SlackFake } from './server.js';
import { startSocketBolt } from './testing/bolt.js';

let slack: SlackFake | undefined;
let app: App | undefined;

afterEach(async () => {
  await app?.stop();
  await slack?.close();
  app = undefined;
  slack = undefined;
});

describe('a real Bolt app in Socket Mode', () => {
  it('connects through apps.connections.open and gets events and commands as acknowledged envelopes', async () => {
    slack = await startSlackFake({ socketPingIntervalMs: 50 });
    const fake = slack;
    app = await startSocketBolt(fake, (bolt) => {
      bolt.event('app_mention', async ({ event, say }) => {
        await say({ text: `hello <@${event.user}>`, thread_ts: event.ts });
      });
      bolt.command('/imagine', async ({ ack, command }) => {
        await ack({ text: `Imagining ${command.text}`, response_type: 'ephemeral' });
      });
    });
    expect(fake.socketConnected).toBe(true);
    expect(fake.calls.find((c) => c.method === 'apps.connections.open')).toMatchObject({ ok: true });

    const mention = await fake.userSays({ user: 'U1', channel: 'C1', text: '<@UBOT> hi' });
    expect(mention.deliveries.map((d) => [d.eventType, d.via, d.acked])).toEqual([
      ['message', 'socket', true],
      ['app_mention', 'socket', true],
    ]);
    const reply = await fake.waitFor((ws) => ws.botMessages('UBOT', { threadTs: mention.ts })[0]);
    expect(reply.text).toBe('hello <@U1>');

    const run = await fake.userRunsCommand({ user: 'U2', channel: 'C1', command: '/imagine', text: 'a fox' });
    expect(run.delivery).toMatchObject({ via: 'socket', acked: true });
    expect(fake.workspace.ephemerals).toMatchObject([{ user: 'U2', text: 'Imagining a fox', source: 'command_ack' }]);
  });

  it('reconnects after a disconnect message and keeps delivering', async () => {
    slack = await startSlackFake();
    const fake = slack;
    app = await startSocketBolt(fake, () => {});
    fake.requestSocketReconnect('refresh_requested');
    await fake.waitFor(
      () => fake.calls.filter((c) => c.method === 'apps.connections.open').length === 2 && fake.socketConnected,
      10_000,
    );
    const posted = await fake.userSays({ user: 'U1', channel: 'C1', text: 'still there?' });
    expect(posted.deliveries[0]).toMatchObject({ via: 'socket', acked: true });
  }, 15_000);
});
