import type { AddressInfo } from 'node:net';
import { App, LogLevel, MemoryInstallationStore, webApi } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackFake, type SlackFake } from './server.js';

const APP = { clientId: '111.222', clientSecret: 'client-secret' };

let slack: SlackFake | undefined;
let app: App | undefined;

afterEach(async () => {
  await app?.stop();
  await slack?.close();
  app = undefined;
  slack = undefined;
});

/** A real Bolt app with Bolt's own OAuth (memory store), its redirect URL the one the fake's app lists. */
async function installable(fake: SlackFake, setup: (bolt: App) => void = () => {}): Promise<string> {
  const clientOptions = { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } };
  app = new App({
    signingSecret: fake.identity.signingSecret,
    clientId: APP.clientId,
    clientSecret: APP.clientSecret,
    stateSecret: 'state-secret',
    scopes: ['chat:write', 'app_mentions:read'],
    installationStore: new MemoryInstallationStore(),
    installerOptions: { directInstall: true, authorizationUrl: `${fake.url}oauth/v2/authorize`, clientOptions },
    logLevel: LogLevel.ERROR,
    clientOptions,
  });
  setup(app);
  const server = await app.start({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.deliverTo(`${base}/slack/events`);
  fake.allowInstalls({ ...APP, redirectUrl: `${base}/slack/oauth_redirect` });
  return base;
}

/** A person installs the app into `team` with their browser: Bolt's install path, Slack's page, Bolt's redirect. */
async function install(fake: SlackFake, base: string, team: string): Promise<Response> {
  const start = await fetch(`${base}/slack/install`, { redirect: 'manual' });
  const cookie = start.headers.get('set-cookie')?.split(';')[0] ?? '';
  const back = fake.approveInstall(start.headers.get('location') ?? '', { team });
  return fetch(back.headers.get('location') ?? '', { headers: { cookie }, redirect: 'manual' });
}

describe('installs through OAuth v2', () => {
  it('installs a real Bolt app into two workspaces, each answered with its own token', async () => {
    const fake = await startSlackFake();
    slack = fake;
    fake.addTeam({ id: 'T2', name: 'Second' }, [{ id: 'C2', name: 'second-general' }]);
    const uninstalled: unknown[] = [];
    const base = await installable(fake, (bolt) => {
      bolt.event('app_mention', async ({ event, say }) => {
        await say({ text: `hello ${event.user}`, thread_ts: event.ts });
      });
      bolt.event('app_uninstalled', async ({ context }) => {
        uninstalled.push(context.teamId);
      });
    });
    expect((await install(fake, base, 'T1')).status).toBe(200);
    expect((await install(fake, base, 'T2')).status).toBe(200);
    expect(fake.oauthExchanges.map((exchange) => exchange.key)).toEqual(['T1', 'T2']);

    await fake.userSays({ user: 'U1', channel: 'C2', text: `<@${fake.identity.botUserId}> hi` });
    await fake.userSays({ user: 'U2', channel: 'C1', text: `<@${fake.identity.botUserId}> hi` });
    await fake.waitFor(() => fake.calls.filter((call) => call.method === 'chat.postMessage').length === 2);
    const posts = fake.calls.filter((call) => call.method === 'chat.postMessage');
    expect(posts.map((call) => [call.args.channel, call.team, call.ok])).toEqual(
      expect.arrayContaining([
        ['C2', 'T2', true],
        ['C1', 'T1', true],
      ]),
    );

    const deliveries = await fake.uninstallApp('T2');
    expect(deliveries.map((delivery) => delivery.payload)).toMatchObject([
      { team_id: 'T2', event: { type: 'tokens_revoked' } },
      { team_id: 'T2', event: { type: 'app_uninstalled' } },
    ]);
    expect(uninstalled).toEqual(['T2']);
    await fake.userSays({ user: 'U1', channel: 'C2', text: `<@${fake.identity.botUserId}> still there?` });
    await fake.waitFor(() => fake.calls.filter((call) => call.method === 'chat.postMessage').length === 3);
    expect(fake.calls.filter((call) => call.method === 'chat.postMessage').at(-1)).toMatchObject({
      ok: false,
      error: 'invalid_auth',
    });
  });

  it("refuses another workspace's channel, an expired token, a revoked one, and a refresh token used twice", async () => {
    const fake = await startSlackFake();
    slack = fake;
    fake.addTeam({ id: 'T2', name: 'Second' }, [{ id: 'C2', name: 'second-general' }]);
    fake.allowInstalls({ ...APP, redirectUrl: 'http://127.0.0.1:9/back', tokenExpiresInS: 43_200 });
    const back = fake.approveInstall(`${fake.url}oauth/v2/authorize?client_id=${APP.clientId}&scope=chat:write`, {
      team: 'T2',
    });
    const code = new URL(back.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const anonymous = new webApi.WebClient(undefined, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    const granted = await anonymous.oauth.v2.access({ client_id: APP.clientId, client_secret: APP.clientSecret, code });
    expect(granted).toMatchObject({ team: { id: 'T2' }, is_enterprise_install: false, expires_in: 43_200 });
    await expect(
      anonymous.oauth.v2.access({ client_id: APP.clientId, client_secret: APP.clientSecret, code }),
    ).rejects.toMatchObject({ data: { error: 'invalid_code' } });

    const client = new webApi.WebClient(granted.access_token, {
      slackApiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
    });
    await client.chat.postMessage({ channel: 'C2', text: 'mine' });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'not mine' })).rejects.toMatchObject({
      data: { error: 'channel_not_found' },
    });

    const refresh = { client_id: APP.clientId, client_secret: APP.clientSecret, grant_type: 'refresh_token' as const };
    const rotated = await anonymous.oauth.v2.access({ ...refresh, refresh_token: granted.refresh_token });
    expect(rotated.access_token).not.toBe(granted.access_token);
    await expect(anonymous.oauth.v2.access({ ...refresh, refresh_token: granted.refresh_token })).rejects.toMatchObject(
      { data: { error: 'invalid_refresh_token' } },
    );

    fake.expireTokens('T2');
    await expect(client.chat.postMessage({ channel: 'C2', text: 'late' })).rejects.toMatchObject({
      data: { error: 'token_expired' },
    });
    expect(JSON.stringify(fake.calls)).not.toContain(String(granted.access_token));
  });

  it('installs org-wide for an enterprise: events from its workspaces say so, and its token covers them', async () => {
    const fake = await startSlackFake();
    slack = fake;
    const enterprise = { id: 'E1', name: 'Org' };
    fake.addTeam({ id: 'T3', name: 'Org A', enterprise }, [{ id: 'C3', name: 'org-a' }]);
    fake.addTeam({ id: 'T4', name: 'Org B', enterprise }, [{ id: 'C4', name: 'org-b' }]);
    const base = await installable(fake, (bolt) => {
      bolt.event('app_mention', async ({ event, say }) => {
        await say({ text: `hello ${event.user}`, thread_ts: event.ts });
      });
    });
    expect((await install(fake, base, 'E1')).status).toBe(200);
    await fake.userSays({ user: 'U1', channel: 'C4', text: `<@${fake.identity.botUserId}> hi` });
    await fake.waitFor(() => fake.calls.some((call) => call.method === 'chat.postMessage'));
    expect(fake.calls.find((call) => call.method === 'chat.postMessage')).toMatchObject({
      args: { channel: 'C4' },
      team: 'E1',
      ok: true,
    });
  });
});
