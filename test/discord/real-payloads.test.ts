import { eventually } from '@genbot/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realPayloads, withIds } from '../support/real-payloads.js';
import { chatRequests, expectedReply, nthChatRequest, startHarness, type Harness } from './support/harness.js';

/**
 * Every Discord payload recorded from the real Discord (../shared/real-payloads,
 * `discord-*`), dispatched as it is by the Discord fake's gateway to the real
 * discord.js client, and what CONTRACT.md says should come of it. The channel
 * and guild IDs are swapped for the fake guild's.
 */
const payloads = realPayloads();
const REPLAYED = ['discord-message-crossposted-docs.json'];

describe.runIf(payloads.available)('real Discord payloads through the Discord bot', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.stop();
  });

  function recorded(): Record<string, unknown> {
    const message = withIds(payloads.json('discord-message-crossposted-docs.json'), {
      '290926798999357250': h.channelId,
    });
    return { ...message, guild_id: h.fake.guildId };
  }

  it('has a replay for every recorded Discord payload', () => {
    expect(payloads.names('discord-')).toEqual(REPLAYED);
  });

  it('discord-message-crossposted-docs.json: a crossposted message that mentions nobody is not answered', async () => {
    const since = h.emulator.requests.length;
    h.fake.replay('MESSAGE_CREATE', recorded());
    // Events reach the bot in order: once a mention sent after it is answered, the crosspost was let be.
    const marker = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} still there?` });
    const request = await nthChatRequest(h.emulator, chatRequests(h.emulator).length + 1);
    expect(request.messages).toEqual([{ role: 'user', content: 'ada: still there?' }]);
    const expected = await expectedReply(h.emulator, request);
    await eventually(() => h.botMessages(h.channelId).find((reply) => reply.content === expected), {
      what: 'the marker answered',
    });
    expect(h.botMessages(h.channelId).filter((reply) => reply.reference?.messageId !== marker.id)).toEqual([]);
    // The marker's conversation request and the replay behind its expected reply: nothing else.
    expect(h.emulator.requests.length).toBe(since + 2);
  });

  it('the same crossposted message mentioning the bot is answered, its foreign reference notwithstanding', async () => {
    const message = recorded();
    const bot = {
      id: h.fake.botUser.id,
      username: h.fake.botUser.username,
      discriminator: '0',
      avatar: null,
      bot: true,
    };
    h.fake.replay('MESSAGE_CREATE', {
      ...message,
      id: '334385199974967043',
      content: `${h.mention} ${String(message.content)}`,
      mentions: [bot],
    });
    const request = await nthChatRequest(h.emulator, chatRequests(h.emulator).length + 1);
    expect(JSON.stringify(request.messages)).toContain('Big news! In this');
    const expected = await expectedReply(h.emulator, request);
    await eventually(() => h.botMessages(h.channelId).find((reply) => reply.content === expected), {
      timeoutMs: 20_000,
      what: 'the crosspost mentioning the bot answered',
    });
  });
});
