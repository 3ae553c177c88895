import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copy } from '@genbot/core/copy';
import { GenAiClient } from '@genbot/core/genai';
import { createLogger } from '@genbot/core/log';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { slackSignature, type SlackFake } from '@genbot/fakes';
import { parseSlackEnv } from '@genbot/slack-bot';
import { type Bots, inMemoryDatabase, startBots } from '@genbot/cli/wiring';
import { eventually } from '@genbot/test-servers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobFinished } from '../support/job-finished.js';
import { realPayloads, withIds } from '../support/real-payloads.js';
import { botReplies, CHANNEL, expectedReply, type Harness, replyWithText, useHarness } from './support/harness.js';
import { isGreyscale } from './support/images.js';

/**
 * Every Slack payload recorded from the real Slack (../shared/real-payloads,
 * `slack-*`), replayed over HTTP, signed, into the real Bolt app, and what
 * CONTRACT.md says should come of it. IDs are swapped for the fake
 * workspace's (team T1, bot UBOT, channel C1) and file hosts for the fake's.
 */
const payloads = realPayloads();
const REPLAYED = [
  'slack-app-mention.json',
  'slack-file-object-docs.json',
  'slack-file-share-slack-connect.json',
  'slack-message-deleted.json',
  'slack-message-file-share-png.json',
  'slack-message-file-share-snippet.json',
  'slack-slash-command.form',
  'slack-web-api-docs-examples.json',
];

function colourImage(width: number, height: number, format: 'png' | 'gif'): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 210, g: 60, b: 30 } } });
  return (format === 'png' ? image.png() : image.gif()).toBuffer();
}

/** A file in the fake workspace under the recorded ID, so its (swapped) url_private serves these bytes. */
function storeFile(slack: SlackFake, id: string, name: string, bytes: Buffer, access?: 'check_file_info'): void {
  slack.workspace.addFile({
    id,
    name,
    title: name,
    mimetype: name.endsWith('.gif') ? 'image/gif' : 'image/png',
    filetype: name.split('.').at(-1) ?? 'png',
    bytes,
    declaredLength: bytes.length,
    user: 'U1',
    created: 1_700_000_000,
    channel: CHANNEL,
    completed: true,
    ...(access === undefined ? {} : { access }),
  });
}

/** An app_mention event_callback as Slack sends one, around fields taken from a recorded payload. */
function mentionEnvelope(slack: SlackFake, event: Record<string, unknown>): Record<string, unknown> {
  const ts = slack.workspace.nextTs();
  return {
    token: 'verification_token',
    team_id: 'T1',
    api_app_id: 'A1',
    type: 'event_callback',
    event_id: `EvReplay${ts.replace('.', '')}`,
    event_time: Math.floor(Date.now() / 1000),
    event: { type: 'app_mention', user: 'U1', channel: CHANNEL, ts, event_ts: ts, ...event },
  };
}

/**
 * The recorded DM's IDs as this workspace's: the team, the bot, the person
 * (U1) and their DM with the bot, and a fresh ts (both DM payloads were
 * recorded with the same one).
 */
function dmIds(slack: SlackFake, dm: string): Record<string, string> {
  return {
    T043DB835ML: 'T1',
    U0442US8QGH: 'UBOT',
    U043H11ES4V: 'U1',
    D0442US94JD: dm,
    '1670631527.874149': slack.workspace.nextTs(),
  };
}

/**
 * The image the bot posted in the thread, once its job has ended: the model's closing words come after
 * the image, and would otherwise reach the emulator during the next test.
 */
async function editedInThread(harness: Harness, threadTs: string): Promise<Uint8Array> {
  const file = await harness.slack.waitFor(
    (ws) => [...ws.files.values()].find((f) => f.threadTs === threadTs && f.user === 'UBOT' && f.completed),
    { timeoutMs: 30_000 },
  );
  await eventually(async () => (await harness.store.jobs.unfinished(['slack'])).length === 0, {
    timeoutMs: 30_000,
    what: 'the edit job finished',
  });
  return file.bytes ?? new Uint8Array();
}

describe.runIf(payloads.available)('real Slack payloads through the Slack bot', () => {
  const h = useHarness({ mode: 'http' });

  it('has a replay for every recorded Slack payload', () => {
    expect(payloads.names('slack-')).toEqual(REPLAYED);
  });

  it('slack-app-mention.json: the mention is answered in its thread, streamed from the model', async () => {
    const { slack } = h();
    const since = h().emulator.requests.length;
    const body = withIds(payloads.json('slack-app-mention.json'), { T111: 'T1', W111: 'UBOT', C111: CHANNEL });
    const delivery = await slack.replay('events_api', body);
    expect(delivery.acked).toBe(true);
    const expected = await expectedReply(h(), since);
    expect(JSON.stringify(h().emulator.requests.slice(since))).toContain('Hi there!');
    await replyWithText(slack, '1595926230.009600', expected);
  });

  it('slack-message-file-share-png.json: no answer to a plain message, but its image is edited on a later mention', async () => {
    const { slack } = h();
    storeFile(slack, 'F111', 'file.png', await colourImage(1134, 362, 'png'));
    const body = withIds(payloads.json('slack-message-file-share-png.json'), {
      T111: 'T1',
      U222: 'UBOT',
      U111: 'U1',
      C111: CHANNEL,
      'https://files.slack.com/': slack.url,
    });
    const threadTs = '1652227646.593159';
    expect((await slack.replay('events_api', body)).acked).toBe(true);
    const calls = slack.calls.length;
    await slack.userSays({ user: 'U1', channel: CHANNEL, threadTs, text: '<@UBOT> make it grayscale' });
    expect(await isGreyscale(await editedInThread(h(), threadTs))).toBe(true);
    // The message event taught the bot the thread: no history read was needed.
    expect(slack.calls.slice(calls).filter((call) => call.method === 'conversations.replies')).toEqual([]);
  });

  it('slack-file-share-slack-connect.json: a DM is answered in its thread, its file looked up; on a mention the same file is edited, the DM unseen', async () => {
    const { slack } = h();
    storeFile(slack, 'F12345678', 'connect.png', await colourImage(40, 30, 'png'), 'check_file_info');
    const dm = slack.openDm('U1');
    const since = h().emulator.requests.length;
    const recorded = withIds(payloads.json('slack-file-share-slack-connect.json'), {
      ...dmIds(slack, dm),
      Ev04EEHX2PSS: 'EvReplayConnect1',
    });
    const dmTs = (recorded.event as { ts: string }).ts;
    expect((await slack.replay('events_api', recorded)).acked).toBe(true);
    const answered = await jobFinished(h().store, `slack-msg-${dm}-${dmTs}`);
    expect(answered).toMatchObject({ outcome: 'done' });
    const [answer] = slack.workspace.botMessages('UBOT', { channel: dm, threadTs: dmTs });
    expect(answer?.text).toMatch(/^Image 1 is 40 × 30 pixels, PNG, mostly /);

    const sinceMention = h().emulator.requests.length;
    const event = recorded.event as { files: unknown[] };
    const mention = mentionEnvelope(slack, { text: '<@UBOT> make it grayscale', files: event.files });
    const threadTs = (mention.event as { ts: string }).ts;
    const calls = slack.calls.length;
    expect((await slack.replay('events_api', mention)).acked).toBe(true);
    expect(await isGreyscale(await editedInThread(h(), threadTs))).toBe(true);
    expect(slack.calls.slice(calls).some((call) => call.method === 'files.info')).toBe(true);
    // The DM's words reached the model in the DM's conversation only, never in the mention's. Told apart
    // by their words: an earlier test's job may still send its closing request while this one runs.
    const conversations = h()
      .emulator.requests.slice(since)
      .filter((r) => r.path.endsWith('/v1/messages'))
      .map((r) => JSON.stringify(r.body));
    const fromDm = conversations.filter((body) => body.includes('message message message'));
    const mentioned = conversations.filter((body) => body.includes('make it grayscale'));
    expect(fromDm).toHaveLength(1);
    expect(conversations.indexOf(fromDm[0] ?? '')).toBeLessThan(
      h()
        .emulator.requests.slice(since, sinceMention)
        .filter((r) => r.path.endsWith('/v1/messages')).length,
    );
    expect(mentioned.length).toBeGreaterThan(0);
    for (const body of mentioned) expect(body).not.toContain('message message message');
  });

  it('slack-file-object-docs.json: a GIF as Slack documents its file object is edited', async () => {
    const { slack } = h();
    storeFile(slack, 'F0A12BCDE', 'tedair.gif', await colourImage(176, 226, 'gif'));
    const file = withIds(payloads.json('slack-file-object-docs.json'), {
      'https://.../': `${slack.url}files-pri/T1-F0A12BCDE/`,
      U012A3BCD: 'U1',
    });
    const since = h().emulator.requests.length;
    const mention = mentionEnvelope(slack, { text: '<@UBOT> make it grayscale', files: [file] });
    expect((await slack.replay('events_api', mention)).acked).toBe(true);
    const edited = await editedInThread(h(), (mention.event as { ts: string }).ts);
    expect((await sharp(edited).metadata()).width).toBeGreaterThan(0);
    const sent = h()
      .emulator.requests.slice(since)
      .find((r) => r.path.includes(':generateContent'));
    expect(JSON.stringify(sent?.body)).toContain('"mimeType":"image/gif"');
  });

  it('slack-message-deleted.json: deleting a mention stops the reply it started', async () => {
    const { slack } = h();
    const mention = await slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      text: '<@UBOT> a long story [len:3000] [delay:200]',
    });
    await slack.waitFor(() => botReplies(slack, mention.ts).find((m) => m.text.length > 20), { timeoutMs: 15_000 });
    const body = withIds(payloads.json('slack-message-deleted.json'), {
      T043DB835ML: 'T1',
      U0442US8QGH: 'UBOT',
      C043YJGBY49: CHANNEL,
      '1663966382.046509': mention.ts,
    });
    expect((await slack.replay('events_api', body)).acked).toBe(true);
    await slack.waitFor(() => botReplies(slack, mention.ts).find((m) => m.text.endsWith(copy.cancelled)), {
      timeoutMs: 15_000,
    });
  });

  it('slack-message-file-share-snippet.json: a text snippet in a DM is answered in its thread, the snippet read', async () => {
    const { slack } = h();
    const snippet = Buffer.from('hug a kitten');
    slack.workspace.addFile({
      id: 'F04EEHX1EES',
      name: 'namenamename.txt',
      title: 'namenamename.txt',
      mimetype: 'text/plain',
      filetype: 'text',
      bytes: snippet,
      declaredLength: snippet.length,
      user: 'U1',
      created: 1_670_631_527,
      completed: true,
    });
    const dm = slack.openDm('U1');
    const since = h().emulator.requests.length;
    const body = withIds(payloads.json('slack-message-file-share-snippet.json'), {
      ...dmIds(slack, dm),
      Ev04EEHX2PSS: 'EvReplaySnippet1',
      'https://files.slack.com/': slack.url,
    });
    const dmTs = (body.event as { ts: string }).ts;
    expect((await slack.replay('events_api', body)).acked).toBe(true);
    expect(await jobFinished(h().store, `slack-msg-${dm}-${dmTs}`)).toMatchObject({ outcome: 'done' });
    // By its words: an earlier test's job may still send its closing request meanwhile.
    const sent = h()
      .emulator.requests.slice(since)
      .filter((r) => r.path.endsWith('/v1/messages') && JSON.stringify(r.body).includes('hug a kitten'));
    expect(sent).toHaveLength(1);
    const replies = slack.workspace.botMessages('UBOT', { channel: dm, threadTs: dmTs });
    expect(replies.map((reply) => reply.text)).toEqual([await expectedReply(h(), since)]);
  });

  it('slack-slash-command.form: a command that is not ours gets a short private answer', async () => {
    const { slack } = h();
    const since = h().emulator.requests.length;
    const fields = Object.fromEntries(new URLSearchParams(payloads.text('slack-slash-command.form').trim()));
    const body = withIds(fields, { T111: 'T1', C111: CHANNEL });
    const delivery = await slack.replay('slash_commands', body);
    expect(delivery.acked).toBe(true);
    const answer = JSON.parse(String(delivery.attempts[0]?.response)) as { response_type: string; text: string };
    expect(answer).toEqual({ response_type: 'ephemeral', text: copy.unknownCommand('/hello-world') });
    expect(h().emulator.requests.slice(since)).toEqual([]);
  });
});

/**
 * `slack-web-api-docs-examples.json`: Slack's documented Web API answers,
 * served by a stub on loopback as they are (IDs and the upload host as
 * recorded, the upload URL pointed at the stub), with signed deliveries sent
 * to the real Bolt app: the bot starts, answers a mention from the documented
 * thread, and uploads an /imagine result, reading every answer as Slack gives it.
 */
describe.runIf(payloads.available)('Slack documented Web API answers, served to the real bot', () => {
  const SIGNING_SECRET = 'docs-signing-secret';
  let stub: Server;
  let stubUrl = '';
  let bots: Bots | undefined;
  let botUrl = '';
  let emulator: Emulator;
  const calls: Array<{ method: string; fields: Record<string, string> }> = [];

  beforeAll(async () => {
    const docs = payloads.json('slack-web-api-docs-examples.json');
    stub = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      request.on('end', () => {
        const path = request.url ?? '';
        if (path.startsWith('/upload')) {
          response.writeHead(200, { 'content-type': 'text/plain' }).end(String(docs.upload_step_response_text));
          return;
        }
        const method = path.replace(/^\/api\//, '').split('?')[0] ?? '';
        calls.push({ method, fields: Object.fromEntries(new URLSearchParams(body)) });
        const answer =
          method === 'files.getUploadURLExternal'
            ? withIds(docs[method], { 'https://files.slack.com/upload/v1/abcdefghi': `${stubUrl}/upload/abcdefghi` })
            : (docs[method] ?? { ok: false, error: 'unknown_method' });
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    emulator = await startEmulator({ apiKey: 'docs-key' });
    const config = parseSlackEnv({
      SLACK_BOT_TOKEN: 'xoxb-docs',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: `${stubUrl}/api/`,
      SLACK_PORT: '0',
    });
    bots = await startBots({
      slack: { slack: config.bot! },
      database: await inMemoryDatabase(),
      models: {
        client: new GenAiClient({ baseUrl: emulator.url, apiKey: 'docs-key', retryBaseDelayMs: 5 }),
        chatModel: 'claude-docs',
        imageModel: 'gemini-image-docs',
      },
      logger: createLogger({ level: 'silent' }),
    });
    await bots.working;
    botUrl = `http://127.0.0.1:${String(bots.slack?.port)}/slack/events`;
  });

  afterAll(async () => {
    await bots?.stop({ drainMs: 2_000 });
    await emulator?.close();
    stub?.closeAllConnections();
    await new Promise<void>((resolve) => stub?.close(() => resolve()));
  });

  async function send(body: string, contentType: string): Promise<Response> {
    const timestamp = Math.floor(Date.now() / 1000);
    return fetch(botUrl, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
      },
      body,
    });
  }

  function until<T>(probe: () => T | undefined): Promise<T> {
    return eventually(probe, { timeoutMs: 20_000, what: () => `calls: ${calls.map((c) => c.method).join(', ')}` });
  }

  it('answers the documented url_verification challenge', async () => {
    const challenge = payloads.json('slack-web-api-docs-examples.json').url_verification as { challenge: string };
    const response = await send(JSON.stringify(challenge), 'application/json');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(challenge.challenge);
  });

  it('answers a mention in the documented thread: its messages, named, are the conversation', async () => {
    const since = emulator.requests.length;
    const event = {
      type: 'event_callback',
      team_id: 'T0G9PQBBK',
      api_app_id: 'A1',
      event_id: 'EvDocs1',
      event: {
        type: 'app_mention',
        user: 'U061F7AUR',
        // auth.test's documented user_id is the bot: its mention is taken out of the text.
        text: '<@W23456789> what is this thread about?',
        ts: '1483125339.020270',
        thread_ts: '1482960137.003543',
        channel: 'C123ABC456',
      },
    };
    expect((await send(JSON.stringify(event), 'application/json')).status).toBe(200);
    const request = await until(() => emulator.requests.slice(since).find((r) => r.path.endsWith('/v1/messages')));
    const conversation = JSON.stringify(request.body);
    expect(conversation).toContain('spengler: island');
    expect(conversation).toContain('three for the land');
    expect(conversation).toContain('what is this thread about?');
    expect(conversation).not.toContain('W23456789');
    const replies = calls.filter((call) => call.method === 'conversations.replies');
    expect(replies.length).toBeGreaterThanOrEqual(1);
    expect(replies.every((call) => Number(call.fields.limit) <= 15)).toBe(true);
    // The reply is posted, then edited in place under the ts chat.postMessage answered with.
    await until(() => calls.find((call) => call.method === 'chat.update' && call.fields.ts === '1503435956.000247'));
    expect(calls.find((call) => call.method === 'chat.postMessage')?.fields.thread_ts).toBe('1482960137.003543');
  });

  it('uploads /imagine results through the documented upload steps', async () => {
    const form = new URLSearchParams({
      command: '/imagine',
      text: 'a lighthouse at dusk',
      channel_id: 'C123ABC456',
      user_id: 'U061F7AUR',
      team_id: 'T0G9PQBBK',
      response_url: `${stubUrl}/commands/1`,
      trigger_id: '1.1.docs',
    });
    expect((await send(form.toString(), 'application/x-www-form-urlencoded')).status).toBe(200);
    const completed = await until(() => calls.find((call) => call.method === 'files.completeUploadExternal'));
    expect(JSON.parse(completed.fields.files ?? '[]')).toEqual([expect.objectContaining({ id: 'F012AB3CDE4' })]);
    // The progress message gives way to the result: chat.delete, which these recorded answers lack (unknown_method),
    // so it becomes the short line pointing at the result.
    const deleted = await until(() => calls.find((call) => call.method === 'chat.delete'));
    const pointer = await until(() =>
      calls.find((call) => call.method === 'chat.update' && call.fields.markdown_text === copy.resultBelow),
    );
    expect(pointer.fields.ts).toBe(deleted.fields.ts);
  });
});
