import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSlackFake, type SlackFake } from './server.js';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('fake image body'),
]);

let slack: SlackFake;
let client: InstanceType<typeof webApi.WebClient>;

beforeEach(async () => {
  slack = await startSlackFake();
  client = new webApi.WebClient(slack.identity.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});

afterEach(async () => {
  await slack.close();
});

describe('switchable file host failures, with the real @slack/web-api client', () => {
  it('fails files.uploadV2 while upload URLs fail, and completes nothing', async () => {
    const off = slack.failUploads({ status: 500, times: 1 });
    await expect(client.files.uploadV2({ channel_id: 'C1', file: PNG, filename: 'cat.png' })).rejects.toThrow();
    expect([...slack.workspace.files.values()].filter((file) => file.completed)).toEqual([]);
    // Only the next upload failed: the one after it goes through.
    await client.files.uploadV2({ channel_id: 'C1', file: PNG, filename: 'cat.png' });
    expect([...slack.workspace.files.values()].filter((file) => file.completed)).toHaveLength(1);
    off();
  });

  it('answers url_private with the switched-on status until switched off', async () => {
    await client.files.uploadV2({ channel_id: 'C1', file: PNG, filename: 'cat.png' });
    const info = await client.files.info({ file: [...slack.workspace.files.keys()][0] ?? '' });
    const fetchFile = () =>
      fetch(info.file?.url_private ?? '', { headers: { authorization: `Bearer ${slack.identity.botToken}` } });
    const off = slack.failDownloads({ status: 403 });
    expect((await fetchFile()).status).toBe(403);
    expect((await fetchFile()).status).toBe(403);
    off();
    const ok = await fetchFile();
    expect(ok.status).toBe(200);
    expect(Buffer.from(await ok.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('answers url_private with the sign-in page for a 200 fault, as Slack does for a token without files:read', async () => {
    await client.files.uploadV2({ channel_id: 'C1', file: PNG, filename: 'cat.png' });
    const info = await client.files.info({ file: [...slack.workspace.files.keys()][0] ?? '' });
    slack.failDownloads({ status: 200, times: 1 });
    const page = await fetch(info.file?.url_private ?? '', {
      headers: { authorization: `Bearer ${slack.identity.botToken}` },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toMatch(/Sign in to Slack/);
  });
});
