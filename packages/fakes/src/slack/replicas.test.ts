import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { type SlackFake, startSlackFake } from './server.js';

interface Seen {
  text: string;
  retryNum: number | undefined;
  retryReason: string | undefined;
}

interface Replica {
  app: App;
  url: string;
  seen: Seen[];
}

let slack: SlackFake | undefined;
const replicas: Replica[] = [];
/** Releases handlers held on purpose, so the apps can stop. */
let release = () => {};

afterEach(async () => {
  release();
  await Promise.all(replicas.splice(0).map((replica) => replica.app.stop()));
  await slack?.close();
  slack = undefined;
});

/** A real Bolt app in HTTP mode on its own port, as one `pnpm slack` replica behind a balancer. */
async function replica(fake: SlackFake, options: { holdAck?: Promise<void> } = {}): Promise<Replica> {
  const app = new App({
    token: fake.identity.botToken,
    signingSecret: fake.identity.signingSecret,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
    // With a held handler, this replica answers only after it: past the ack timeout.
    processBeforeResponse: options.holdAck !== undefined,
  });
  const seen: Seen[] = [];
  app.message(async ({ message, context }) => {
    seen.push({
      text: 'text' in message ? (message.text ?? '') : '',
      retryNum: context.retryNum,
      retryReason: context.retryReason,
    });
    await options.holdAck;
  });
  const server = await app.start({ port: 0, host: '127.0.0.1' });
  const made = { app, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`, seen };
  replicas.push(made);
  return made;
}

describe('the Slack fake delivering to several replicas, with real Bolt apps', () => {
  it('spreads events over the replicas in turn', async () => {
    slack = await startSlackFake();
    const [one, two] = [await replica(slack), await replica(slack)];
    slack.deliverTo([one.url, two.url]);
    for (const text of ['a', 'b', 'c', 'd']) await slack.userSays({ user: 'U1', channel: 'C1', text });
    // Bolt acknowledges before its listener runs: wait for the listeners.
    await slack.waitFor(() => one.seen.length + two.seen.length === 4);
    expect(one.seen.map((seen) => seen.text)).toEqual(['a', 'c']);
    expect(two.seen.map((seen) => seen.text)).toEqual(['b', 'd']);
    expect(slack.deliveries.map((delivery) => delivery.attempts[0]?.target)).toEqual([
      one.url,
      two.url,
      one.url,
      two.url,
    ]);
  });

  it('retries an event a replica did not acknowledge on the other one, with the retry headers', async () => {
    slack = await startSlackFake({ ackTimeoutMs: 300, retryDelaysMs: [0, 60_000, 60_000] });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const [slow, fast] = [await replica(slack, { holdAck: held }), await replica(slack)];
    slack.deliverTo([slow.url, fast.url]);
    const posted = await slack.userSays({ user: 'U1', channel: 'C1', text: 'hello' });
    const [delivery] = posted.deliveries;
    await delivery?.settled;
    expect(delivery?.attempts.map((attempt) => [attempt.target, attempt.retryNum, attempt.acked])).toEqual([
      [slow.url, 0, false],
      [fast.url, 1, true],
    ]);
    await slack.waitFor(() => fast.seen.length === 1);
    expect(fast.seen).toEqual([{ text: 'hello', retryNum: 1, retryReason: 'http_timeout' }]);
  });

  it('redelivers an event to the replica chosen', async () => {
    slack = await startSlackFake();
    const [one, two] = [await replica(slack), await replica(slack)];
    slack.deliverTo([one.url, two.url]);
    const posted = await slack.userSays({ user: 'U1', channel: 'C1', text: 'twice' });
    const eventId = posted.deliveries[0]?.eventId ?? '';
    const again = await slack.redeliver(eventId, { to: one.url });
    expect(again.attempts.map((attempt) => [attempt.target, attempt.acked])).toEqual([[one.url, true]]);
    await slack.waitFor(() => one.seen.length === 2);
    expect(one.seen).toEqual([
      { text: 'twice', retryNum: undefined, retryReason: undefined },
      { text: 'twice', retryNum: 1, retryReason: 'http_timeout' },
    ]);
    expect(two.seen).toEqual([]);
  });
});
