import type { App } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackFake, type SlackFake, type SlackFakeOptions } from './server.js';
import { startHttpBolt } from './testing/bolt.js';

let slack: SlackFake | undefined;
let app: App | undefined;

/** The fake with a real Bolt app over HTTP that records the events it gets. */
async function setup(options: SlackFakeOptions = {}): Promise<{ fake: SlackFake; events: Record<string, unknown>[] }> {
  const events: Record<string, unknown>[] = [];
  slack = await startSlackFake({ retryDelaysMs: [0, 50, 50], ...options });
  // The bot's own posts are heard too, as genbot's Bolt app hears them.
  app = await startHttpBolt(
    slack,
    (bolt) => {
      bolt.event('message', async ({ event }) => {
        events.push(event as unknown as Record<string, unknown>);
      });
      bolt.event('app_mention', async ({ event }) => {
        events.push(event as unknown as Record<string, unknown>);
      });
    },
    { ignoreSelf: false },
  );
  return { fake: slack, events };
}

afterEach(async () => {
  await app?.stop();
  await slack?.close();
  app = undefined;
  slack = undefined;
});

describe("a person's DM with the bot", () => {
  it('is one D… conversation per person, as the Messages tab opens it', async () => {
    const { fake } = await setup();
    const dm = fake.openDm('U1');
    expect(dm).toMatch(/^D/);
    expect(fake.openDm('U1')).toBe(dm);
    expect(fake.openDm('U2')).not.toBe(dm);
    const info = await app?.client.conversations.info({ channel: dm });
    expect(info?.channel).toMatchObject({ id: dm, is_im: true, user: 'U1' });
  });

  it('comes to the app as message.im events, a mention of the bot too, never as app_mention', async () => {
    const { fake } = await setup();
    const dm = fake.openDm('U1');
    const posted = await fake.userSays({ user: 'U1', channel: dm, text: 'hi <@UBOT>, draw a fox' });
    expect(posted.deliveries.map((delivery) => [delivery.eventType, delivery.acked])).toEqual([['message', true]]);
    expect(posted.deliveries[0]?.payload.event).toMatchObject({
      type: 'message',
      channel: dm,
      channel_type: 'im',
      user: 'U1',
      ts: posted.ts,
      text: 'hi <@UBOT>, draw a fox',
    });
  });

  it('keeps its threads and history for conversations.replies and conversations.history', async () => {
    const { fake } = await setup();
    const dm = fake.openDm('U1');
    const first = await fake.userSays({ user: 'U1', channel: dm, text: 'a fox' });
    await fake.userSays({ user: 'U1', channel: dm, threadTs: first.ts, text: 'in the snow' });
    await app?.client.chat.postMessage({ channel: dm, thread_ts: first.ts, text: 'Here it is.' });
    const second = await fake.userSays({ user: 'U1', channel: dm, text: 'something else' });

    const replies = await app?.client.conversations.replies({ channel: dm, ts: first.ts });
    expect(replies?.messages?.map((message) => message.text)).toEqual(['a fox', 'in the snow', 'Here it is.']);
    const history = await app?.client.conversations.history({ channel: dm });
    expect(history?.messages?.map((message) => message.ts)).toEqual([second.ts, first.ts]);
  });

  it("sends a person's edit as message_changed, and the bot's own posts with its bot_id", async () => {
    const { fake, events } = await setup();
    const dm = fake.openDm('U1');
    const posted = await fake.userSays({ user: 'U1', channel: dm, text: 'a fox' });
    const edit = await fake.userEdits({ channel: dm, ts: posted.ts, text: 'a red fox' });
    expect(edit?.acked).toBe(true);
    expect(edit?.payload.event).toMatchObject({
      subtype: 'message_changed',
      channel: dm,
      channel_type: 'im',
      message: { ts: posted.ts, user: 'U1', text: 'a red fox', edited: { user: 'U1' } },
      previous_message: { ts: posted.ts, text: 'a fox' },
    });
    expect(fake.workspace.message(dm, posted.ts)?.edits.map((version) => version.text)).toEqual(['a fox']);

    await app?.client.chat.postMessage({ channel: dm, thread_ts: posted.ts, text: 'Here it is.' });
    await fake.waitFor(() => events.find((event) => event.bot_id === 'BBOT'));
    expect(events.find((event) => event.bot_id === 'BBOT')).toMatchObject({
      channel: dm,
      channel_type: 'im',
      user: 'UBOT',
      thread_ts: posted.ts,
    });
  });

  it('is not heard by an app without the message.im subscription', async () => {
    const { fake } = await setup({ events: ['app_mention', 'message.channels', 'message.groups'] });
    const dm = fake.openDm('U1');
    const inDm = await fake.userSays({ user: 'U1', channel: dm, text: 'a fox' });
    expect(inDm.deliveries).toEqual([]);
    expect(await fake.userEdits({ channel: dm, ts: inDm.ts, text: 'a red fox' })).toBeUndefined();
    const inChannel = await fake.userSays({ user: 'U1', channel: 'C1', text: 'hello' });
    expect(inChannel.deliveries.map((delivery) => delivery.eventType)).toEqual(['message']);
  });

  it('is heard with message.im alone, and the channels then are not', async () => {
    const { fake } = await setup({ events: ['message.im'] });
    const inDm = await fake.userSays({ user: 'U1', channel: fake.openDm('U1'), text: 'a fox' });
    expect(inDm.deliveries.map((delivery) => delivery.eventType)).toEqual(['message']);
    const inChannel = await fake.userSays({ user: 'U1', channel: 'C1', text: 'hello' });
    expect(inChannel.deliveries).toEqual([]);
  });
});
