import { randomBytes } from 'node:crypto';
import { copy } from '@genbot/core/copy';
import type { SlackFake } from '@genbot/fakes';
import { type Engines, enginesInstalled } from '@genbot/test-servers/genbot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@genbot/test-servers';
import { type Deployment, startDeployment } from '../scale/deployment.js';
import { jobFinished } from '../support/job-finished.js';

/**
 * Many workspaces on the scaled-out topology as plain processes: two `genbot
 * slack` replicas behind nginx and two `genbot worker` processes, on Redis and
 * PostgreSQL, installed through OAuth v2 instead of a bot token.
 */

const installed = enginesInstalled();
const INSTALLS = {
  SLACK_CLIENT_ID: '5151.2323',
  SLACK_CLIENT_SECRET: 'scale-client-secret-6Tr1',
  SLACK_STATE_SECRET: 'scale-state-secret-2Kp7',
};

let deployment: Deployment;
let engines: Engines;
let slack: SlackFake;

/** The address of one replica (or the balancer), without `/slack/events`. */
function baseOf(eventsUrl: string): string {
  return eventsUrl.replace(/\/slack\/events$/, '');
}

/** A person's browser: the install link on `startAt`, Slack's page approving `team`, and back to `returnTo`. */
async function install(team: string, startAt: string, returnTo = startAt) {
  const start = await fetch(`${startAt}/slack/install`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const cookie = start.headers.get('set-cookie')?.split(';')[0] ?? '';
  const back = new URL(
    slack.approveInstall(start.headers.get('location') ?? '', { team }).headers.get('location') ?? '',
  );
  const returned = `${returnTo}${back.pathname}${back.search}`;
  const answer = await fetch(returned, { headers: { cookie }, redirect: 'manual' });
  return { status: answer.status, page: await answer.text(), again: () => fetch(returned, { headers: { cookie } }) };
}

/**
 * U1 mentions the bot in `channel`: waits for the reply and for its job to end, so the person's share
 * of the stream lane is free again for the next test (a third reply still streaming would be told
 * to wait, and give no reply to wait for).
 */
async function mention(channel: string): Promise<void> {
  const asked = await slack.userSays({ user: 'U1', channel, text: `<@${slack.identity.botUserId}> hello` });
  const eventId = asked.deliveries.find((delivery) => delivery.eventType === 'app_mention')?.eventId;
  await slack.waitFor(() => slack.workspace.botMessages(slack.identity.botUserId, { channel, threadTs: asked.ts })[0], {
    timeoutMs: 45_000,
  });
  await jobFinished(deployment.store, `slack-ev-${eventId}`, 15_000);
}

describe.runIf(installed)('many workspaces: Slack replicas behind nginx, workers, Redis and PostgreSQL', () => {
  beforeAll(async () => {
    deployment = await startDeployment({ name: 'many-workspaces-scale' });
    ({ engines, slack } = deployment);
    slack.addTeam({ id: 'T2', name: 'Second Team' }, [{ id: 'C2', name: 'second-general' }]);
    slack.addTeam({ id: 'T3', name: 'Org Team', enterprise: { id: 'E1', name: 'The Org' } }, [
      { id: 'C3', name: 'org-general' },
    ]);
    const env = { ...INSTALLS, SLACK_BOT_TOKEN: '', SECRETS_KEY: randomBytes(32).toString('base64') };
    await Promise.all(['slack-1', 'slack-2', 'worker-1', 'worker-2'].map((name) => deployment.start(name, env)));
    slack.deliverTo(engines.requestUrl);
    slack.allowInstalls({
      clientId: INSTALLS.SLACK_CLIENT_ID,
      clientSecret: INSTALLS.SLACK_CLIENT_SECRET,
      redirectUrl: `${baseOf(engines.requestUrl)}/slack/oauth_redirect`,
    });
  }, 180_000);

  afterAll(async () => {
    await deployment?.close();
  }, 60_000);

  it('installs through either replica, a state good once on any of them, and the workers answer each workspace with its own token', async () => {
    const [one, two] = [baseOf(engines.replicaUrl('slack-1')), baseOf(engines.replicaUrl('slack-2'))];
    const first = await install('T1', one, two);
    expect(first.status).toBe(200);
    expect(first.page).toContain('genbot is now in');
    const replayed = await first.again();
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain(copy.installRefused('used').split(',')[0]);
    expect((await install('T2', baseOf(engines.requestUrl))).status).toBe(200);

    await Promise.all([mention('C1'), mention('C2')]);
    const inChannel = (channel: string) =>
      slack.calls.filter((call) => call.args.channel === channel || call.args.channel_id === channel);
    expect(new Set(inChannel('C1').map((call) => call.team))).toEqual(new Set(['T1']));
    expect(new Set(inChannel('C2').map((call) => call.team))).toEqual(new Set(['T2']));
    expect(slack.calls.filter((call) => !call.ok)).toEqual([]);
    expect(slack.oauthExchanges.map((exchange) => exchange.key).sort()).toEqual(['T1', 'T2']);
    const stored = await deployment.store.installations.get('T1');
    expect(stored?.sealed).toBeDefined();
    expect(stored?.sealed).not.toMatch(/xox[bep]-/);
  });

  it("answers a workspace of an org-wide install from the workers, which know the job's team only", async () => {
    expect((await install('E1', baseOf(engines.requestUrl))).status).toBe(200);
    await mention('C3');
    const inOrg = slack.calls.filter((call) => call.args.channel === 'C3' || call.args.channel_id === 'C3');
    expect(new Set(inOrg.map((call) => call.team))).toEqual(new Set(['E1']));
    expect(inOrg.filter((call) => !call.ok)).toEqual([]);
  });

  it('deletes an uninstalled workspace on whichever replica hears it', async () => {
    await slack.uninstallApp('T2');
    await eventually(async () => (await deployment.store.installations.get('T2')) === undefined, {
      timeoutMs: 15_000,
    });
    expect(await deployment.store.installations.get('T1')).toBeDefined();
  });
});
