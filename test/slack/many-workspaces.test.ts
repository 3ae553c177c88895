import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { copy } from '@genbot/core/copy';
import { GenAiClient } from '@genbot/core/genai';
import { createLogger } from '@genbot/core/log';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startSlackFake, type SlackFake } from '@genbot/fakes';
import { parseSlackEnv } from '@genbot/slack-bot';
import { openStore } from '@genbot/store';
import { eventually, freeLoopbackPort } from '@genbot/test-servers';
import { afterEach, describe, expect, it } from 'vitest';
import { type Bots, openedDatabase, startBots } from '@genbot/cli/wiring';
import { SECRETS } from './support/harness.js';

/**
 * Many workspaces: the real bot (Bolt, HTTP) installed through Slack's OAuth
 * v2 into several workspaces of the fake, each answered with its own token,
 * the tokens sealed in the SQLite file, refused returns from Slack storing
 * nothing, an uninstall, and a restart.
 */
const INSTALLS = {
  SLACK_CLIENT_ID: '4242.1717',
  SLACK_CLIENT_SECRET: 'client-secret-e2e-8Hq2',
  SLACK_STATE_SECRET: 'state-secret-e2e-3Vx9',
} as const;
const KEY = randomBytes(32).toString('base64');

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  slack: SlackFake;
  emulator: Emulator;
  dir: string;
  logs(): string;
  /** Starts the bot on the rig's SQLite file; stop the previous one first. */
  startBot(options?: BotOptions): Promise<{ bots: Bots; base: string }>;
}

interface BotOptions {
  /** SECRETS_KEY, and SECRETS_KEY_PREVIOUS (default: the rig's one key). */
  keys?: { SECRETS_KEY: string; SECRETS_KEY_PREVIOUS?: string };
  /** Socket Mode, the install paths served on this port (default: HTTP mode on a free port). */
  socketPort?: number;
  /** More variables (SLACK_PORT, SLACK_REDIRECT_URL). */
  env?: Record<string, string>;
}

async function startRig(): Promise<Rig> {
  const dir = mkdtempSync(path.join(tmpdir(), 'genbot-many-workspaces-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const slack = await startSlackFake({ signingSecret: SECRETS.signingSecret, retryDelaysMs: [50, 100, 100] });
  cleanups.push(() => slack.close());
  slack.addTeam({ id: 'T2', name: 'Second Team' }, [{ id: 'C2', name: 'second-general' }]);
  const emulator = await startEmulator({ apiKey: SECRETS.apiKey });
  cleanups.push(() => emulator.close());
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  // No `secrets` given to the logger: the bot itself must never write one.
  const logger = createLogger({ level: 'debug', destination });
  const client = new GenAiClient({ baseUrl: emulator.url, apiKey: SECRETS.apiKey, retryBaseDelayMs: 5, logger });
  cleanups.push(() => client.close());
  return {
    slack,
    emulator,
    dir,
    logs: () => lines.join(''),
    async startBot({ keys = { SECRETS_KEY: KEY }, socketPort, env = {} } = {}) {
      const config = parseSlackEnv({
        ...INSTALLS,
        ...keys,
        ...(socketPort === undefined
          ? { SLACK_SIGNING_SECRET: SECRETS.signingSecret, SLACK_PORT: '0' }
          : { SLACK_APP_TOKEN: slack.identity.appToken, SLACK_PORT: String(socketPort) }),
        SLACK_API_URL: slack.apiUrl,
        ...env,
      });
      const bots = await startBots({
        slack: { slack: config.bot! },
        models: { client, chatModel: 'claude-e2e', imageModel: 'gemini-image-e2e' },
        logger,
        database: openedDatabase(await openStore(`sqlite:${path.join(dir, 'genbot.db')}`)),
      });
      cleanups.push(() => bots.stop());
      await bots.working;
      const base = `http://127.0.0.1:${String(socketPort ?? bots.slack?.port)}`;
      if (socketPort === undefined) slack.deliverTo(`${base}/slack/events`);
      else await slack.waitFor(() => slack.socketConnected, { timeoutMs: 10_000 });
      slack.allowInstalls({
        clientId: INSTALLS.SLACK_CLIENT_ID,
        clientSecret: INSTALLS.SLACK_CLIENT_SECRET,
        redirectUrl: `${base}/slack/oauth_redirect`,
      });
      return { bots, base };
    },
  };
}

/** A person's browser: the install link, Slack's page (approving for `team`), and back; what the app's redirect answered. */
async function install(rig: Rig, base: string, team: string): Promise<{ status: number; page: string }> {
  const start = await fetch(`${base}/slack/install`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const cookie = start.headers.get('set-cookie')?.split(';')[0] ?? '';
  const back = rig.slack.approveInstall(start.headers.get('location') ?? '', { team });
  const answer = await fetch(back.headers.get('location') ?? '', { headers: { cookie }, redirect: 'manual' });
  return { status: answer.status, page: await answer.text() };
}

/** Mentions the bot in `channel`; resolves with the bot's reply once it is there. */
async function mention(rig: Rig, channel: string): Promise<void> {
  const asked = await rig.slack.userSays({ user: 'U1', channel, text: '<@UBOT> say hello' });
  await rig.slack.waitFor(() => rig.slack.workspace.botMessages('UBOT', { channel, threadTs: asked.ts })[0], {
    timeoutMs: 15_000,
  });
}

function callsIn(slack: SlackFake, channel: string, since = 0) {
  return slack.calls.slice(since).filter((call) => call.args.channel === channel || call.args.channel_id === channel);
}

/** Every byte of the SQLite file and its journals, as someone who copied the disk would read them. */
function databaseBytes(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.startsWith('genbot.db'))
    .map((name) => readFileSync(path.join(dir, name)).toString('latin1'))
    .join('');
}

function escapedHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

describe('Slack in many workspaces', () => {
  it('installs into two workspaces and answers each with its own token, with no token in clear in the database or the logs', async () => {
    const rig = await startRig();
    const { base, bots } = await rig.startBot();
    const first = await install(rig, base, 'T1');
    expect(first.status).toBe(200);
    expect(first.page).toContain(escapedHtml(copy.installed('Genbot Test')));
    expect((await install(rig, base, 'T2')).status).toBe(200);

    await mention(rig, 'C1');
    await mention(rig, 'C2');
    expect(new Set(callsIn(rig.slack, 'C1').map((call) => call.team))).toEqual(new Set(['T1']));
    expect(new Set(callsIn(rig.slack, 'C2').map((call) => call.team))).toEqual(new Set(['T2']));
    expect(rig.slack.calls.filter((call) => !call.ok)).toEqual([]);

    const stored = await bots.jobs.store.installations.get('T2');
    expect(stored).toMatchObject({ key: 'T2', teamId: 'T2', enterpriseId: undefined });
    expect(stored?.sealed).not.toMatch(/xox[bep]-/);
    expect(databaseBytes(rig.dir)).not.toMatch(/xox[bep]-/);
    expect(databaseBytes(rig.dir)).not.toContain(INSTALLS.SLACK_CLIENT_SECRET);
    expect(rig.logs()).not.toMatch(/xox[bep]-/);
    expect(rig.logs()).not.toContain(INSTALLS.SLACK_CLIENT_SECRET);
  });

  it('refuses a return from Slack with a missing, forged, replayed or expired state, or from another browser, storing nothing', async () => {
    const rig = await startRig();
    const { base, bots } = await rig.startBot();
    const start = await fetch(`${base}/slack/install`, { redirect: 'manual' });
    const cookie = start.headers.get('set-cookie')?.split(';')[0] ?? '';
    const approved = new URL(
      rig.slack.approveInstall(start.headers.get('location') ?? '', { team: 'T2' }).headers.get('location') ?? '',
    );
    const state = approved.searchParams.get('state') ?? '';
    const code = approved.searchParams.get('code') ?? '';
    const back = (query: Record<string, string>, browser = cookie) =>
      fetch(`${base}/slack/oauth_redirect?${new URLSearchParams(query)}`, {
        headers: { cookie: browser },
        redirect: 'manual',
      });
    const refused = async (answer: Promise<Response>, reason: Parameters<typeof copy.installRefused>[0]) => {
      const response = await answer;
      expect(response.status, reason).toBe(400);
      expect(await response.text()).toContain(escapedHtml(copy.installRefused(reason)));
    };
    const signed = (text: string) => createHmac('sha256', INSTALLS.SLACK_STATE_SECRET).update(text).digest('base64url');

    await refused(back({ code }), 'missing');
    const forged = `${state.split('.')[0]}.${Date.now() + 60_000}.${signed('another')}`;
    await refused(back({ code, state: forged }, `slack-app-oauth-state=${forged}`), 'forged');
    const expired = `${state.split('.')[0]}.${Date.now() - 1}`;
    await refused(
      back({ code, state: `${expired}.${signed(expired)}` }, `slack-app-oauth-state=${expired}.${signed(expired)}`),
      'expired',
    );
    await refused(back({ code, state }, ''), 'other-browser');
    expect(rig.slack.oauthExchanges).toEqual([]);
    expect(await bots.jobs.store.installations.get('T2')).toBeUndefined();

    // The state is good once: the first return installs, the same return again is refused.
    expect((await back({ code, state })).status).toBe(200);
    await refused(back({ code, state }), 'used');
    expect(rig.slack.oauthExchanges.map((exchange) => exchange.key)).toEqual(['T2']);
  });

  it('forgets a workspace that uninstalls the app, keeps the others across a restart, and reads them under a rotated key', async () => {
    const rig = await startRig();
    const started = await rig.startBot();
    expect((await install(rig, started.base, 'T1')).status).toBe(200);
    expect((await install(rig, started.base, 'T2')).status).toBe(200);
    await mention(rig, 'C2');
    await rig.slack.uninstallApp('T2');
    await eventually(async () => (await started.bots.jobs.store.installations.get('T2')) === undefined);
    const since = rig.slack.calls.length;
    const asked = await rig.slack.userSays({ user: 'U1', channel: 'C2', text: '<@UBOT> are you there?' });
    expect(asked.deliveries.every((delivery) => delivery.attempts.some((attempt) => attempt.acked))).toBe(true);
    expect(callsIn(rig.slack, 'C2', since)).toEqual([]);
    await started.bots.stop({ drainMs: 2_000 });
    const rotated = randomBytes(32).toString('base64');
    const restarted = await rig.startBot({ keys: { SECRETS_KEY: rotated, SECRETS_KEY_PREVIOUS: KEY } });
    const before = (await restarted.bots.jobs.store.installations.get('T1'))?.sealed;
    await mention(rig, 'C1');
    const after = (await restarted.bots.jobs.store.installations.get('T1'))?.sealed;
    expect(after).not.toBe(before);
    await restarted.bots.stop({ drainMs: 2_000 });

    // Sealed again under the new key: the old one is no longer needed.
    await rig.startBot({ keys: { SECRETS_KEY: rotated } });
    await mention(rig, 'C1');
    expect(rig.slack.oauthExchanges.map((exchange) => exchange.key)).toEqual(['T1', 'T2']);
  });

  it('refreshes a rotated token before it expires, once, when two replicas need it at the same time', async () => {
    const rig = await startRig();
    const replicaA = await rig.startBot();
    const replicaB = await rig.startBot();
    const app = { clientId: INSTALLS.SLACK_CLIENT_ID, clientSecret: INSTALLS.SLACK_CLIENT_SECRET };
    // Installed with a token that has a minute left: inside the two hours before expiry when Bolt refreshes.
    rig.slack.allowInstalls({ ...app, redirectUrl: `${replicaA.base}/slack/oauth_redirect`, tokenExpiresInS: 60 });
    expect((await install(rig, replicaA.base, 'T2')).status).toBe(200);
    const installed = await replicaA.bots.jobs.store.installations.get('T2');
    rig.slack.allowInstalls({ ...app, redirectUrl: `${replicaA.base}/slack/oauth_redirect`, tokenExpiresInS: 43_200 });
    rig.slack.deliverTo([`${replicaA.base}/slack/events`, `${replicaB.base}/slack/events`]);

    const asked = await Promise.all([
      rig.slack.userSays({ user: 'U1', channel: 'C2', text: '<@UBOT> first' }),
      rig.slack.userSays({ user: 'U2', channel: 'C2', text: '<@UBOT> second' }),
    ]);
    const targets = asked.flatMap((message) => message.deliveries.flatMap((d) => d.attempts.map((a) => a.target)));
    expect(new Set(targets).size).toBe(2);
    for (const message of asked) {
      await rig.slack.waitFor(
        () => rig.slack.workspace.botMessages('UBOT', { channel: 'C2', threadTs: message.ts })[0],
        {
          timeoutMs: 15_000,
        },
      );
    }
    expect(rig.slack.oauthExchanges.map((exchange) => [exchange.grantType, exchange.key, exchange.ok])).toEqual([
      ['authorization_code', 'T2', true],
      ['refresh_token', 'T2', true],
    ]);
    expect((await replicaB.bots.jobs.store.installations.get('T2'))?.sealed).not.toBe(installed?.sealed);
    expect(callsIn(rig.slack, 'C2').filter((call) => !call.ok)).toEqual([]);
  });

  it('in Socket Mode, serves the install paths on SLACK_PORT and answers the installed workspaces over the socket', async () => {
    const rig = await startRig();
    const { base } = await rig.startBot({ socketPort: await freeLoopbackPort() });
    expect((await install(rig, base, 'T1')).status).toBe(200);
    expect((await install(rig, base, 'T2')).status).toBe(200);
    await mention(rig, 'C1');
    await mention(rig, 'C2');
    expect(new Set(callsIn(rig.slack, 'C2').map((call) => call.team))).toEqual(new Set(['T2']));
    expect(rig.slack.calls.filter((call) => !call.ok)).toEqual([]);
  });

  it("installs org-wide for an enterprise, its workspaces answered with the org's token, after a restart too", async () => {
    const rig = await startRig();
    rig.slack.addTeam({ id: 'T3', name: 'Org Team', enterprise: { id: 'E1', name: 'The Org' } }, [
      { id: 'C3', name: 'org-general' },
    ]);
    const started = await rig.startBot();
    const installedOrg = await install(rig, started.base, 'E1');
    expect(installedOrg.status).toBe(200);
    expect(installedOrg.page).toContain(escapedHtml(copy.installed('The Org')));
    expect(await started.bots.jobs.store.installations.get('E1')).toMatchObject({
      enterpriseId: 'E1',
      teamId: undefined,
    });
    await mention(rig, 'C3');
    await started.bots.stop({ drainMs: 2_000 });
    await rig.startBot();
    await mention(rig, 'C3');
    expect(new Set(callsIn(rig.slack, 'C3').map((call) => call.team))).toEqual(new Set(['E1']));
    expect(rig.slack.calls.filter((call) => !call.ok)).toEqual([]);
  });

  it('sends Slack the redirect URL of SLACK_REDIRECT_URL, for an app that lists several', async () => {
    const rig = await startRig();
    const port = await freeLoopbackPort();
    const redirectUrl = `http://127.0.0.1:${port}/slack/oauth_redirect`;
    const { base } = await rig.startBot({ env: { SLACK_PORT: String(port), SLACK_REDIRECT_URL: redirectUrl } });
    // The app's first redirect URL is another deployment's: only the one sent brings the person back here.
    rig.slack.allowInstalls({
      clientId: INSTALLS.SLACK_CLIENT_ID,
      clientSecret: INSTALLS.SLACK_CLIENT_SECRET,
      redirectUrl: 'http://127.0.0.1:9/slack/oauth_redirect',
    });
    const start = await fetch(`${base}/slack/install`, { redirect: 'manual' });
    expect(new URL(start.headers.get('location') ?? '').searchParams.get('redirect_uri')).toBe(redirectUrl);
    expect((await install(rig, base, 'T2')).status).toBe(200);
  });
});
