import type { Client } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDiscordFake, type DiscordFake } from './index.js';
import { readyClient } from './test-client.js';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('Discord fake fault switches with the real discord.js', () => {
  let discord: DiscordFake;
  let client: Client<true>;
  let general: string;

  beforeEach(async () => {
    discord = await startDiscordFake({ guild: { channels: ['general'] } });
    client = await readyClient(discord);
    general = discord.channelId('general');
  });

  afterEach(async () => {
    await client.destroy();
    await discord.close();
  });

  async function channel() {
    const found = await client.channels.fetch(general);
    if (found === null || !found.isSendable()) throw new Error('general is not sendable');
    return found;
  }

  it('failNext answers one 429 at once, which discord.js waits out', async () => {
    const limit = discord.rateLimit({ route: 'POST /channels/:id/messages', limit: 5, windowMs: 300, failNext: 1 });
    const sent = await (await channel()).send('hello');
    limit.off();
    expect(discord.state.rateLimitHits.map((hit) => hit.route)).toEqual(['POST /channels/:id/messages']);
    expect(discord.state.messages(general).filter((message) => message.id === sent.id)).toHaveLength(1);
  });

  it('failAfter lets the first calls of a route through, then failNext answers the next with a 429', async () => {
    const limit = discord.rateLimit({
      route: 'POST /channels/:id/messages',
      limit: 5,
      windowMs: 300,
      failAfter: 1,
      failNext: 1,
    });
    const target = await channel();
    await target.send('first');
    expect(discord.state.rateLimitHits).toEqual([]);
    await target.send('second');
    limit.off();
    expect(discord.state.rateLimitHits.map((hit) => hit.route)).toEqual(['POST /channels/:id/messages']);
    expect(discord.state.messages(general).map((message) => message.content)).toEqual(['first', 'second']);
  });

  it('rejectUploads refuses requests carrying files with 40005, and only those', async () => {
    const rejected = discord.rejectUploads({ times: 1 });
    const target = await channel();
    await expect(target.send({ files: [{ attachment: PNG_1x1, name: 'dot.png' }] })).rejects.toMatchObject({
      code: 40005,
      status: 413,
    });
    await target.send('text still goes through');
    await target.send({ files: [{ attachment: PNG_1x1, name: 'dot.png' }] });
    rejected.off();
    expect(discord.state.messages(general).map((message) => message.attachments.length)).toEqual([0, 1]);
  });

  it('failDownloads makes the CDN answer the status until switched off', async () => {
    const message = discord.userSays({
      user: 'ada',
      channelId: general,
      content: 'a dot',
      attachments: [{ filename: 'dot.png', bytes: PNG_1x1 }],
    });
    const [attachment] = message.attachments;
    if (attachment === undefined) throw new Error('no attachment stored');
    const url = discord.signedUrl(attachment);
    const failing = discord.failDownloads({ status: 403 });
    expect((await fetch(url)).status).toBe(403);
    expect((await fetch(url)).status).toBe(403);
    failing.off();
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(Buffer.from(await ok.arrayBuffer()).equals(PNG_1x1)).toBe(true);
  });

  it('failDownloads with an attachment ID refuses that attachment alone', async () => {
    const message = discord.userSays({
      user: 'ada',
      channelId: general,
      content: 'two dots',
      attachments: [
        { filename: 'kept.png', bytes: PNG_1x1 },
        { filename: 'refused.png', bytes: PNG_1x1 },
      ],
    });
    const [kept, refused] = message.attachments;
    if (kept === undefined || refused === undefined) throw new Error('attachments not stored');
    const failing = discord.failDownloads({ status: 404, attachmentId: refused.id });
    expect((await fetch(discord.signedUrl(refused))).status).toBe(404);
    expect((await fetch(discord.signedUrl(kept))).status).toBe(200);
    // A freshly signed link to it is refused too: the file itself is what the CDN will not give.
    expect((await fetch(discord.signedUrl(refused))).status).toBe(404);
    failing.off();
    expect((await fetch(discord.signedUrl(refused))).status).toBe(200);
  });

  it('signs attachment URLs: unsigned, tampered and expired ones answer 404, a fresh one works', async () => {
    const message = discord.userSays({
      user: 'ada',
      channelId: general,
      content: 'a dot',
      attachments: [{ filename: 'dot.png', bytes: PNG_1x1 }],
    });
    const [attachment] = message.attachments;
    if (attachment === undefined) throw new Error('no attachment stored');
    const signed = discord.signedUrl(attachment);
    expect(signed).toMatch(/\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]+&$/);
    expect((await fetch(attachment.url)).status).toBe(404);
    // Its first signature digit changed, whatever it was (one signature in 16 starts with 0).
    const tampered = signed.replace(/hm=(.)/, (_match, digit: string) => `hm=${digit === '0' ? '1' : '0'}`);
    expect(tampered).not.toBe(signed);
    expect((await fetch(tampered)).status).toBe(404);
    expect((await fetch(signed)).status).toBe(200);
    discord.expireAttachmentUrls();
    const expired = await fetch(signed);
    expect(expired.status).toBe(404);
    expect(await expired.text()).toBe('This content is no longer available.');
    expect((await fetch(discord.signedUrl(attachment))).status).toBe(200);
  });

  it('redirectDownloads makes the CDN answer a redirect', async () => {
    const message = discord.userSays({
      user: 'ada',
      channelId: general,
      content: 'a dot',
      attachments: [{ filename: 'dot.png', bytes: PNG_1x1 }],
    });
    const [attachment] = message.attachments;
    if (attachment === undefined) throw new Error('no attachment stored');
    const redirecting = discord.redirectDownloads({ location: 'http://169.254.169.254/latest/meta-data/', times: 1 });
    const answer = await fetch(discord.signedUrl(attachment), { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('http://169.254.169.254/latest/meta-data/');
    redirecting.off();
  });
});
