import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSlackFake, type SlackFake } from './server.js';

const { WebClient, WebClientEvent } = webApi;

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('fake image body'),
]);

let slack: SlackFake;
let client: InstanceType<typeof WebClient>;

beforeEach(async () => {
  slack = await startSlackFake();
  client = new WebClient(slack.identity.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});

afterEach(async () => {
  await slack.close();
});

async function errorOf(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    const data = (error as { data?: { error?: string } }).data;
    return data?.error;
  }
}

describe('Web API over the real @slack/web-api client', () => {
  it('identifies the bot with auth.test', async () => {
    const result = await client.auth.test();
    expect(result).toMatchObject({ ok: true, user_id: 'UBOT', bot_id: 'BBOT', team_id: 'T1' });
  });

  it('posts, threads, updates (keeping the edit history) and deletes messages', async () => {
    // No bot to deliver to yet: the driver says so and stores nothing.
    await expect(slack.userSays({ user: 'U1', channel: 'C1', text: 'hello' })).rejects.toThrow(/nowhere to deliver/);
    expect(slack.workspace.messages).toEqual([]);
    const top = await client.chat.postMessage({ channel: 'C1', text: 'parent' });
    const reply = await client.chat.postMessage({ channel: 'C1', text: 'first', thread_ts: top.ts });
    expect(reply.message).toMatchObject({ user: 'UBOT', bot_id: 'BBOT', thread_ts: top.ts, text: 'first' });
    await client.chat.update({ channel: 'C1', ts: reply.ts as string, text: 'second' });
    const stored = slack.workspace.message('C1', reply.ts as string);
    expect(stored).toMatchObject({ text: 'second', threadTs: top.ts, edited: { user: 'UBOT' } });
    expect(stored?.edits.map((v) => v.text)).toEqual(['first']);

    const replies = await client.conversations.replies({ channel: 'C1', ts: top.ts as string });
    expect(replies.messages?.map((m) => m.text)).toEqual(['parent', 'second']);
    expect(replies.messages?.[0]).toMatchObject({ reply_count: 1, thread_ts: top.ts, latest_reply: reply.ts });
    const history = await client.conversations.history({ channel: 'C1' });
    expect(history.messages?.map((m) => m.text)).toEqual(['parent']);

    await client.chat.delete({ channel: 'C1', ts: reply.ts as string });
    expect(slack.workspace.message('C1', reply.ts as string)).toBeUndefined();
    expect(await errorOf(client.chat.update({ channel: 'C1', ts: reply.ts as string, text: 'x' }))).toBe(
      'message_not_found',
    );
  });

  it('takes standard Markdown as markdown_text on post and update, and refuses it with text or past 12,000', async () => {
    const posted = await client.chat.postMessage({
      channel: 'C1',
      markdown_text: '**bold** and [a link](https://x.test)',
    });
    const stored = slack.workspace.message('C1', posted.ts as string);
    expect(stored).toMatchObject({ text: '**bold** and [a link](https://x.test)', format: 'markdown' });
    await client.chat.update({ channel: 'C1', ts: posted.ts as string, markdown_text: '# Title' });
    expect(stored).toMatchObject({ text: '# Title', format: 'markdown' });
    await client.chat.update({ channel: 'C1', ts: posted.ts as string, text: '*mrkdwn* again' });
    expect(stored?.text).toBe('*mrkdwn* again');
    expect(stored?.format).toBeUndefined();
    const both = { channel: 'C1', markdown_text: 'a', text: 'b' } as unknown as Parameters<
      typeof client.chat.postMessage
    >[0];
    expect(await errorOf(client.chat.postMessage(both))).toBe('invalid_arguments');
    expect(await errorOf(client.chat.postMessage({ channel: 'C1', markdown_text: 'x'.repeat(12_001) }))).toBe(
      'msg_too_long',
    );
  });

  it('answers errors as Slack does', async () => {
    expect(await errorOf(client.chat.postMessage({ channel: 'C404', text: 'x' }))).toBe('channel_not_found');
    expect(await errorOf(client.chat.postMessage({ channel: 'C1', text: 'x'.repeat(40_001) }))).toBe('msg_too_long');
    expect(await errorOf(client.chat.postMessage({ channel: 'C1', text: '' }))).toBe('no_text');
    expect(await errorOf(client.apiCall('chat.nonsense', {}))).toBe('unknown_method');
    expect(await errorOf(client.users.info({ user: 'U404' }))).toBe('user_not_found');
    expect(await errorOf(client.conversations.replies({ channel: 'C1', ts: '1.000001' }))).toBe('thread_not_found');
    const wrongToken = new WebClient('xoxb-wrong', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    expect(await errorOf(wrongToken.auth.test())).toBe('invalid_auth');
    const appToken = new WebClient(slack.identity.appToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    expect(await errorOf(appToken.chat.postMessage({ channel: 'C1', text: 'x' }))).toBe('not_allowed_token_type');
  });

  it('refuses to edit messages the bot did not post', async () => {
    const user = slack.workspace.post({ channel: 'C1', user: 'U1', text: 'mine' });
    expect(await errorOf(client.chat.update({ channel: 'C1', ts: user.ts, text: 'x' }))).toBe('cant_update_message');
  });

  it('takes JSON bodies with the token in the header, and reports a missing token', async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${slack.apiUrl}chat.postMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }];
    const ok = await post(
      { authorization: `Bearer ${slack.identity.botToken}` },
      { channel: 'C1', text: 'hi', blocks },
    );
    expect(ok).toMatchObject({ ok: true, channel: 'C1' });
    expect(slack.workspace.messages.at(-1)?.blocks).toEqual(blocks);
    expect(await post({}, { channel: 'C1', text: 'hi' })).toEqual({ ok: false, error: 'not_authed' });
    expect(slack.calls.every((call) => !('token' in call.args))).toBe(true);
  });

  it('describes users and channels', async () => {
    const user = await client.users.info({ user: 'U1' });
    expect(user.user).toMatchObject({ id: 'U1', name: 'alice', profile: { display_name: 'Alice' } });
    const channel = await client.conversations.info({ channel: 'C1' });
    expect(channel.channel).toMatchObject({ id: 'C1', name: 'general', is_channel: true });
  });

  it('stores files.uploadV2 bytes with thread and comment, and serves url_private only with the bot token', async () => {
    const top = await client.chat.postMessage({ channel: 'C1', text: 'parent' });
    const result = await client.files.uploadV2({
      channel_id: 'C1',
      thread_ts: top.ts as string,
      initial_comment: 'a cat, 1:1',
      file: PNG,
      filename: 'cat.png',
    });
    expect(result.ok).toBe(true);
    const [file] = [...slack.workspace.files.values()];
    expect(file).toMatchObject({
      name: 'cat.png',
      mimetype: 'image/png',
      channel: 'C1',
      threadTs: top.ts,
      initialComment: 'a cat, 1:1',
      completed: true,
    });
    expect(file?.bytes?.equals(PNG)).toBe(true);
    const carrier = slack.workspace.messages.find((m) => m.fileIds.includes(file?.id ?? ''));
    expect(carrier).toMatchObject({ text: 'a cat, 1:1', threadTs: top.ts, user: 'UBOT' });

    const info = await client.files.info({ file: file?.id ?? '' });
    const urlPrivate = info.file?.url_private ?? '';
    expect(urlPrivate.startsWith(slack.url)).toBe(true);
    const withToken = await fetch(urlPrivate, { headers: { authorization: `Bearer ${slack.identity.botToken}` } });
    expect(withToken.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await withToken.arrayBuffer()).equals(PNG)).toBe(true);
    const download = await fetch(info.file?.url_private_download ?? '', {
      headers: { authorization: `Bearer ${slack.identity.botToken}` },
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);
    const without = await fetch(urlPrivate);
    expect(without.status).toBe(200);
    expect(without.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await without.text()).toContain('Sign in');
  });

  it('accepts a raw upload body and refuses completing a file that was never uploaded', async () => {
    const pending = await client.files.getUploadURLExternal({ filename: 'a.txt', length: 5 });
    expect(await errorOf(client.files.completeUploadExternal({ files: [{ id: pending.file_id as string }] }))).toBe(
      'file_not_found',
    );
    const raw = await fetch(pending.upload_url as string, { method: 'POST', body: 'hello' });
    expect(await raw.text()).toBe('OK - 5');
    await client.files.completeUploadExternal({
      files: [{ id: pending.file_id as string, title: 'greeting' }],
      channel_id: 'C1',
    });
    expect(slack.workspace.files.get(pending.file_id as string)).toMatchObject({
      title: 'greeting',
      mimetype: 'text/plain',
    });
  });

  it('streams with client.chatStream() (chunks) and raw start/append/stop (markdown_text)', async () => {
    const top = await client.chat.postMessage({ channel: 'C1', text: 'question' });
    const streamer = client.chatStream({
      channel: 'C1',
      thread_ts: top.ts as string,
      recipient_team_id: 'T1',
      recipient_user_id: 'U1',
      buffer_size: 8,
    });
    for (const part of ['Hello ', 'streaming ', 'world', '!']) await streamer.append({ markdown_text: part });
    await streamer.stop();
    const streamed = slack.workspace.message('C1', streamer.ts as string);
    expect(streamed).toMatchObject({
      text: 'Hello streaming world!',
      threadTs: top.ts,
      stream: { state: 'stopped', recipientUserId: 'U1' },
    });

    const start = await client.chat.startStream({ channel: 'C1', thread_ts: top.ts as string, markdown_text: 'one ' });
    await client.chat.appendStream({ channel: 'C1', ts: start.ts as string, markdown_text: 'two ' });
    await client.chat.stopStream({ channel: 'C1', ts: start.ts as string, markdown_text: 'three' });
    expect(slack.workspace.message('C1', start.ts as string)?.text).toBe('one two three');
    expect(
      await errorOf(client.chat.appendStream({ channel: 'C1', ts: start.ts as string, markdown_text: 'late' })),
    ).toBe('message_not_in_streaming_state');

    await client.assistant.threads.setStatus({
      channel_id: 'C1',
      thread_ts: top.ts as string,
      status: 'is thinking...',
    });
    expect(slack.workspace.statuses.at(-1)).toMatchObject({
      channel: 'C1',
      threadTs: top.ts,
      status: 'is thinking...',
    });
  });

  it('records task_update chunks among the streamed text, and refuses malformed chunks', async () => {
    const top = await client.chat.postMessage({ channel: 'C1', text: 'question' });
    const start = await client.chat.startStream({
      channel: 'C1',
      thread_ts: top.ts as string,
      markdown_text: 'On it. ',
    });
    const ts = start.ts as string;
    const task = { type: 'task_update', id: 'draw-1', title: 'Drawing a fox' } as const;
    await client.chat.appendStream({ channel: 'C1', ts, chunks: [{ ...task, status: 'in_progress' }] });
    await client.chat.appendStream({
      channel: 'C1',
      ts,
      chunks: [
        { ...task, status: 'complete' },
        { type: 'markdown_text', text: 'Done.' },
      ],
    });
    await client.chat.stopStream({ channel: 'C1', ts });
    const message = slack.workspace.message('C1', ts);
    expect(message?.text).toBe('On it. Done.');
    expect(message?.stream?.chunks).toEqual([
      { ...task, status: 'in_progress', at: 7 },
      { ...task, status: 'complete', at: 7 },
    ]);
    // Only text changes count as edits of the message.
    expect(message?.edits.map((edit) => edit.text)).toEqual(['On it. ']);

    const other = await client.chat.startStream({ channel: 'C1', thread_ts: top.ts as string, markdown_text: 'x' });
    const malformed = [
      { type: 'task_update', id: 't', title: 'Drawing', status: 'completed' },
      { type: 'task_update', id: 't', status: 'in_progress' },
      { type: 'progress', text: 'what' },
    ];
    for (const bad of malformed) {
      const call = fetch(`${slack.apiUrl}chat.appendStream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${slack.identity.botToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'C1', ts: other.ts, chunks: [bad] }),
      });
      expect(await (await call).json()).toMatchObject({ ok: false, error: 'invalid_arguments' });
    }
  });

  it('answers 429 with Retry-After when a limit is on, and the web client waits and retries', async () => {
    const top = await client.chat.postMessage({ channel: 'C1', text: 'v1' });
    slack.rateLimit({ method: 'chat.update', perSecond: 1, scope: 'channel' });
    const retrying = new WebClient(slack.identity.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 3, minTimeout: 10, maxTimeout: 20 },
    });
    const limited: number[] = [];
    retrying.on(WebClientEvent.RATE_LIMITED, (seconds: number) => limited.push(seconds));
    await retrying.chat.update({ channel: 'C1', ts: top.ts as string, text: 'v2' });
    await retrying.chat.update({ channel: 'C1', ts: top.ts as string, text: 'v3' });
    expect(limited).toEqual([1]);
    expect(slack.rateLimitHits).toMatchObject([{ method: 'chat.update', channel: 'C1', retryAfterSeconds: 1 }]);
    expect(slack.workspace.message('C1', top.ts as string)?.text).toBe('v3');
    expect(slack.calls.filter((c) => c.status === 429)).toHaveLength(1);
  });
});
