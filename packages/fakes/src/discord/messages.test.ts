import { type Client, DiscordAPIError, Events, type Message } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDiscordFake, type DiscordFake } from './index.js';
import { readyClient } from './test-client.js';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

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

function nextMessage(filter: (message: Message) => boolean = () => true): Promise<Message> {
  return new Promise((resolve) => {
    const listener = (message: Message): void => {
      if (!filter(message)) return;
      client.off(Events.MessageCreate, listener);
      resolve(message);
    };
    client.on(Events.MessageCreate, listener);
  });
}

describe('Discord fake messages with the real discord.js', () => {
  it("keeps the bot's reactions on a user's message, once per emoji", async () => {
    const received = nextMessage();
    const sent = discord.userSays({ user: 'alice', channelId: general, content: `hi <@${discord.botUser.id}>` });
    const message = await received;
    await message.react('⏳');
    await message.react('⏳');
    expect(discord.state.message(general, sent.id)?.botReactions).toEqual(['⏳']);
    const read = await message.fetch(true);
    expect(read.reactions.cache.get('⏳')?.me).toBe(true);
  });

  it('delivers a user message with content and a downloadable attachment', async () => {
    const received = nextMessage();
    const sent = discord.userSays({
      user: 'alice',
      channelId: general,
      content: `hi <@${discord.botUser.id}>`,
      attachments: [{ filename: 'dot.png', bytes: PNG_1x1 }],
    });
    const message = await received;
    expect(message.id).toBe(sent.id);
    expect(message.author.username).toBe('alice');
    expect(message.content).toBe(`hi <@${discord.botUser.id}>`);
    expect(message.mentions.has(client.user)).toBe(true);
    const attachment = message.attachments.first();
    expect(attachment).toMatchObject({
      name: 'dot.png',
      contentType: 'image/png',
      width: 1,
      height: 1,
      size: PNG_1x1.length,
    });
    // discord.js got the URL signed, as from Discord.
    const download = await fetch(attachment?.url ?? '');
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG_1x1);
    expect((await fetch(`${discord.origin}/attachments/${general}/1/nothing.png`)).status).toBe(404);
  });

  it('stores message.reply() with text and with a file, with the reference and the bytes', async () => {
    const received = nextMessage();
    const question = discord.userSays({ user: 'alice', channelId: general, content: 'draw a cat' });
    const message = await received;
    const textReply = await message.reply('on it');
    const fileReply = await message.reply({ content: 'here', files: [{ attachment: PNG_1x1, name: 'cat.png' }] });
    expect(textReply.reference?.messageId).toBe(question.id);
    expect(fileReply.attachments.first()?.name).toBe('cat.png');

    const stored = discord.state.messages(general);
    expect(stored.map((m) => m.content)).toEqual(['draw a cat', 'on it', 'here']);
    const [, text, file] = stored;
    expect(text?.author.id).toBe(discord.botUser.id);
    expect(text?.reference).toEqual({ messageId: question.id, channelId: general });
    expect(text?.type).toBe(19);
    expect(file?.attachments[0]?.bytes).toEqual(PNG_1x1);
    expect(file?.attachments[0]?.contentType).toBe('image/png');
    const upload = file?.attachments[0];
    const download = await fetch(upload === undefined ? '' : discord.signedUrl(upload));
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG_1x1);
  });

  it('edits in place with message.edit(), keeping the previous versions', async () => {
    const channel = await client.channels.fetch(general);
    if (!channel?.isSendable()) throw new Error('general is not sendable');
    const sent = await channel.send('first');
    await sent.edit('second');
    const edited = await sent.edit('third');
    expect(edited.editedTimestamp).not.toBeNull();
    const stored = discord.state.message(general, sent.id);
    expect(stored?.content).toBe('third');
    expect(stored?.history.map((version) => version.content)).toEqual(['first', 'second']);
  });

  it('waits out a 429 on message edits and the edit still lands', async () => {
    const channel = await client.channels.fetch(general);
    if (!channel?.isSendable()) throw new Error('general is not sendable');
    const sent = await channel.send('v0');
    discord.rateLimit({ route: 'PATCH /channels/:id/messages/:id', limit: 1, windowMs: 400 });
    const rateLimited: unknown[] = [];
    client.rest.on('rateLimited', (info) => rateLimited.push(info));
    await sent.edit('v1');
    const raced = await Promise.all([sent.edit('v2'), sent.edit('v3')]);
    expect(raced.at(-1)?.content).toBe('v3');
    expect(discord.state.message(general, sent.id)?.content).toBe('v3');
    // The first edit teaches discord.js the bucket hash; the handler it then creates for that hash
    // starts without limits, so exactly one request meets a 429 before the queue follows the headers.
    expect(rateLimited.length).toBeGreaterThan(0);
    expect(discord.state.rateLimitHits).toHaveLength(1);
  });

  it('answers a blind 429 with the headers discord.js needs to retry', async () => {
    const channel = await client.channels.fetch(general);
    if (!channel?.isSendable()) throw new Error('general is not sendable');
    const sent = await channel.send('v0');
    const limit = discord.rateLimit({ route: 'PATCH /channels/:id/messages/:id', limit: 1, windowMs: 300 });
    const url = `${discord.apiUrl}/v10/channels/${general}/messages/${sent.id}`;
    const init = {
      method: 'PATCH',
      headers: { authorization: `Bot ${discord.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'raw' }),
    };
    expect((await fetch(url, init)).headers.get('x-ratelimit-remaining')).toBe('0');
    const limited = await fetch(url, init);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    expect(Number(limited.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ message: 'You are being rate limited.', global: false });
    // discord.js has not seen this bucket's headers yet: its edit gets a 429 too, waits, retries.
    expect((await sent.edit('after')).content).toBe('after');
    limit.off();
    expect(discord.state.rateLimitHits).toHaveLength(2);
    expect(discord.state.message(general, sent.id)?.content).toBe('after');
  });

  it('fetches history newest first and single messages', async () => {
    const ids = ['one', 'two', 'three'].map(
      (content) => discord.userSays({ user: 'alice', channelId: general, content }).id,
    );
    const channel = await client.channels.fetch(general);
    if (!channel?.isTextBased() || channel.isDMBased()) throw new Error('general is not a guild text channel');
    const history = await channel.messages.fetch({ limit: 2, cache: false });
    expect([...history.values()].map((m) => m.content)).toEqual(['three', 'two']);
    const before = await channel.messages.fetch({ before: ids[1] ?? '', cache: false });
    expect([...before.values()].map((m) => m.content)).toEqual(['one']);
    const single = await channel.messages.fetch({ message: ids[0] ?? '', force: true });
    expect(single.content).toBe('one');
    await channel.sendTyping();
  });

  it('refuses content over 2,000 characters, an 11th file and a file over 10 MiB like Discord', async () => {
    const channel = await client.channels.fetch(general);
    if (!channel?.isSendable()) throw new Error('general is not sendable');
    const tooLong = await channel.send('x'.repeat(2001)).catch((error: unknown) => error);
    expect(tooLong).toBeInstanceOf(DiscordAPIError);
    expect(tooLong).toMatchObject({ code: 50035, status: 400 });
    expect((tooLong as DiscordAPIError).rawError).toMatchObject({
      errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } },
    });

    const files = Array.from({ length: 11 }, (_, index) => ({ attachment: Buffer.from('x'), name: `f${index}.txt` }));
    await expect(channel.send({ files })).rejects.toMatchObject({ code: 50035, status: 400 });

    const big = { attachment: Buffer.alloc(10 * 1024 * 1024 + 1), name: 'big.bin' };
    await expect(channel.send({ files: [big] })).rejects.toMatchObject({ code: 40005, status: 413 });
    expect(discord.state.messages(general)).toHaveLength(0);
  });

  it('creates threads from a message (REST) and delivers messages in driver-made threads', async () => {
    const received = nextMessage();
    discord.userSays({ user: 'alice', channelId: general, content: 'start here' });
    const starter = await received;
    const thread = await starter.startThread({ name: 'talk' });
    expect(thread.id).toBe(starter.id);
    expect(discord.state.threads.map((t) => t.name)).toEqual(['talk']);
    await thread.send('in the thread');
    expect(discord.state.messages(thread.id).map((m) => m.content)).toEqual(['in the thread']);

    const created = new Promise((resolve) => client.once(Events.ThreadCreate, resolve));
    const userThread = discord.createThread({ user: 'bob', channelId: general, name: 'bob thread' });
    await created;
    const inThread = nextMessage((message) => message.channelId === userThread.id);
    discord.userSays({ user: 'bob', channelId: userThread.id, content: `<@${discord.botUser.id}> in a thread` });
    const message = await inThread;
    expect(message.channel.isThread()).toBe(true);
    expect(message.content).toContain('in a thread');
  });
});
