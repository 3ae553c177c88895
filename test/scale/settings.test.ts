import type { RecordedRequest } from '@genbot/emulator';
import type { SlackFake } from '@genbot/fakes';
import { type Engines, enginesInstalled } from '@genbot/test-servers/genbot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobFinished } from '../support/job-finished.js';
import { type Deployment, startDeployment } from './deployment.js';

/**
 * Settings on the scaled-out topology (two `genbot slack` replicas behind nginx, two workers, Redis,
 * PostgreSQL): a change made through one replica is used by the other within 2 seconds, and a
 * workspace's image budget holds when two workers' tool calls race for its last image.
 */

const installed = enginesInstalled();
const MODELS = { CHAT_MODELS: 'scale-chat-a,scale-chat-b', IMAGE_MODELS: 'scale-image-a' };
/** The contract's bound for a change to reach every other process. */
const PROPAGATION_MS = 2_000;

let deployment: Deployment;
let engines: Engines;
let slack: SlackFake;

const bot = (): string => slack.identity.botUserId;

function messagesRequests(): RecordedRequest[] {
  return deployment.emulator.requests.filter((request) => request.path.endsWith('/v1/messages'));
}

function modelOf(request: RecordedRequest | undefined): unknown {
  return (request?.body as { model?: unknown } | undefined)?.model;
}

/** The latest messages request whose last user turn carries `words`. */
function requestSaying(words: string): RecordedRequest | undefined {
  return messagesRequests()
    .filter((request) => JSON.stringify(request.body).includes(words))
    .at(-1);
}

/** A mention delivered to one replica, waited on until its job is over. */
async function mentionThrough(replica: string, channel: string, user: string, text: string): Promise<void> {
  slack.deliverTo(engines.replicaUrl(replica));
  try {
    const posted = await slack.userSays({ user, channel, text: `<@${bot()}> ${text}` });
    const eventId = posted.deliveries.find((delivery) => delivery.eventType === 'app_mention')?.eventId;
    if (eventId === undefined) throw new Error('the mention was not delivered as an app_mention');
    await jobFinished(deployment.store, `slack-ev-${eventId}`, 60_000);
  } finally {
    slack.deliverTo(engines.requestUrl);
  }
}

/** `/genbot TEXT` delivered to one replica: its private answer. */
async function genbotThrough(replica: string, user: string, channel: string, text: string): Promise<string> {
  slack.deliverTo(engines.replicaUrl(replica));
  try {
    const before = slack.workspace.ephemerals.length;
    await slack.userRunsCommand({ user, channel, command: '/genbot', text });
    const answer = slack.workspace.ephemerals.slice(before).find((each) => each.user === user);
    if (answer === undefined) throw new Error(`/genbot ${text}: no private answer`);
    return answer.text;
  } finally {
    slack.deliverTo(engines.requestUrl);
  }
}

describe.runIf(installed)('settings across Slack replicas and workers', () => {
  beforeAll(async () => {
    deployment = await startDeployment({ name: 'scale-settings' });
    ({ engines, slack } = deployment);
    slack.workspace.addUser({ id: 'U-admin', name: 'ada', role: 'admin' });
    await Promise.all(['slack-1', 'slack-2', 'worker-1', 'worker-2'].map((name) => deployment.start(name, MODELS)));
    slack.deliverTo(engines.requestUrl);
  }, 120_000);

  afterAll(async () => {
    await deployment?.close();
  }, 60_000);

  it("uses a channel's model on the other replica within 2 seconds of the change", async () => {
    // The other replica has read this channel's settings just before, so its copy is fresh when the change is made.
    await mentionThrough('slack-2', 'C-models', 'U1', 'before the change');
    expect(modelOf(requestSaying('before the change'))).toBe('scale-chat-a');

    const answer = await genbotThrough('slack-1', 'U-admin', 'C-models', 'set chat_model scale-chat-b');
    expect(answer).toContain('scale-chat-b');
    const changedAt = Date.now();
    // The contract's bound, not a guess at how long it takes: the mention goes in at the 2 seconds' end.
    await slack.waitFor(() => Date.now() - changedAt >= PROPAGATION_MS, { timeoutMs: PROPAGATION_MS + 1_000 });
    await mentionThrough('slack-2', 'C-models', 'U1', 'after the change');
    expect(modelOf(requestSaying('after the change'))).toBe('scale-chat-b');
  }, 120_000);

  it("holds a workspace's image budget when two workers' tool calls race for its last image", async () => {
    const answer = await genbotThrough('slack-1', 'U-admin', 'C-budget-1', 'set budget_images_per_day 1 --workspace');
    expect(answer).toContain('budget_images_per_day');
    const draw = (n: number) => `[tool:generate_image {"prompt":"a racing kite ${n}"}] draw a kite`;
    slack.deliverTo([engines.replicaUrl('slack-1'), engines.replicaUrl('slack-2')]);
    let mentions: Awaited<ReturnType<SlackFake['userSays']>>[];
    try {
      mentions = await Promise.all(
        [1, 2].map((n) =>
          slack.userSays({ user: `U-racer-${n}`, channel: `C-budget-${n}`, text: `<@${bot()}> ${draw(n)}` }),
        ),
      );
    } finally {
      slack.deliverTo(engines.requestUrl);
    }
    for (const posted of mentions) {
      const eventId = posted.deliveries.find((delivery) => delivery.eventType === 'app_mention')?.eventId;
      await jobFinished(deployment.store, `slack-ev-${eventId}`, 90_000);
    }
    const drawn = deployment.emulator.requests.filter(
      (request) => request.path.includes(':generateContent') && JSON.stringify(request.body).includes('a racing kite'),
    );
    expect(drawn).toHaveLength(1);
    const uploads = slack.workspace.messages.filter(
      (message) => message.user === bot() && message.fileIds.length > 0 && message.channel.startsWith('C-budget-'),
    );
    expect(uploads).toHaveLength(1);
    const refused = slack.workspace.messages.filter(
      (message) =>
        message.user === bot() &&
        message.channel.startsWith('C-budget-') &&
        /This workspace has used its 1 image for today\. The budget resets/.test(message.text),
    );
    expect(refused).toHaveLength(1);
    const { today } = await deployment.store.usage.totals({ platform: 'slack', workspaceId: slack.identity.teamId });
    expect(today.images).toBe(1);
  }, 180_000);
});
