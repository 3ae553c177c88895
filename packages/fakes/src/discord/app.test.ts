import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDiscordFake, type DiscordFake } from './index.js';

let discord: DiscordFake;

beforeEach(async () => {
  discord = await startDiscordFake();
});

afterEach(async () => {
  await discord.close();
});

function api(path: string, init: RequestInit = {}, auth = true): Promise<Response> {
  const headers = new Headers(init.headers);
  if (auth) headers.set('authorization', `Bot ${discord.botToken}`);
  return fetch(`${discord.apiUrl}/v10${path}`, { ...init, headers });
}

describe('Discord fake REST wire details', () => {
  it('requires the bot token, answering 401 like Discord', async () => {
    const response = await api('/users/@me', {}, false);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    expect(await (await api('/users/@me')).json()).toMatchObject({ id: discord.botUser.id, bot: true });
  });

  it('looks up one guild member, and answers Unknown Member for anyone else', async () => {
    const bob = discord.userSays({ user: 'bob', channelId: discord.channelId('general'), content: 'hi' }).author;
    const found = await api(`/guilds/${discord.guildId}/members/${bob.id}`);
    expect(await found.json()).toMatchObject({ user: { id: bob.id, username: 'bob' } });
    const missing = await api(`/guilds/${discord.guildId}/members/123`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Unknown Member', code: 10007 });
  });

  it('points /gateway/bot at its own gateway with one shard and sessions to spare', async () => {
    expect(await (await api('/gateway/bot')).json()).toEqual({
      url: discord.gatewayUrl,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 },
    });
  });

  it('answers the typing indicator and interaction callbacks with 204 and no JSON content type', async () => {
    const general = discord.channelId('general');
    const typing = await api(`/channels/${general}/typing`, { method: 'POST' });
    expect(typing.status).toBe(204);
    expect(typing.headers.get('content-type')).toBeNull();

    await api(`/applications/${discord.applicationId}/commands`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ name: 'ping', description: 'Ping' }]),
    });
    const interaction = discord.userRunsCommand({ user: 'alice', channelId: general, name: 'ping' });
    const callback = await api(
      `/interactions/${interaction.id}/${interaction.token}/callback`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 4, data: { content: 'pong' } }),
      },
      false,
    );
    expect(callback.status).toBe(204);
    expect(callback.headers.get('content-type')).toBeNull();
    expect(await callback.text()).toBe('');
  });

  it('answers unknown channels and messages with Discord error codes', async () => {
    expect(await (await api('/channels/1/messages/2')).json()).toEqual({ message: 'Unknown Channel', code: 10003 });
    const general = discord.channelId('general');
    expect(await (await api(`/channels/${general}/messages/2`)).json()).toEqual({
      message: 'Unknown Message',
      code: 10008,
    });
    const reply = await api(`/channels/${general}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'x', message_reference: { message_id: '5' } }),
    });
    expect(reply.status).toBe(400);
    expect(await reply.json()).toMatchObject({
      code: 50035,
      errors: { message_reference: { _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE' }] } },
    });
  });
});
