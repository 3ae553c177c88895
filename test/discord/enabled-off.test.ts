import { copy } from '@genbot/core/copy';
import type { SettingsPlace } from '@genbot/core/settings';
import { eventually } from '@genbot/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.js';

/** A channel whose `enabled` is off, through the real discord.js. */

let h: Harness;
let place: SettingsPlace;

beforeAll(async () => {
  h = await startHarness();
  place = { platform: 'discord', workspaceId: h.fake.guildId, channelId: h.channelId };
  await h.jobs.settings.change({ place, level: 'channel', name: 'enabled', value: false, by: 'admin' });
});

afterAll(async () => {
  await h?.stop();
});

describe('a Discord channel where genbot is turned off', () => {
  it('tells a mention in a DM to the person, once, says nothing in the channel, and sends nothing to the service', async () => {
    const dm = h.fake.dmChannelId('ada');
    const mentions = ['tell me about lighthouses', 'and about ships'].map((words) =>
      h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} ${words}` }),
    );
    await eventually(
      () =>
        h.logs.some((line) => line.includes('mention where genbot is off: told in a DM')) &&
        h.logs.some((line) => line.includes('mention where genbot is off: told before')),
      { what: 'both mentions turned away' },
    );
    expect(h.botMessages(dm).map((message) => message.content)).toEqual([copy.disabledHere]);
    expect(h.botMessages(h.channelId)).toEqual([]);
    for (const mention of mentions) {
      expect(h.fake.state.message(h.channelId, mention.id)?.botReactions).toEqual([]);
    }
    expect(h.emulator.requests).toHaveLength(0);
  });

  it('refuses /imagine there privately; a DM with the bot is not a channel and is answered', async () => {
    const started = h.fake.userRunsCommand({
      user: 'carol',
      channelId: h.channelId,
      name: 'imagine',
      options: { prompt: 'a lighthouse' },
    });
    const interaction = await h.fake.waitFor((state) =>
      state.interaction(started.id)?.status === 'acknowledged' ? state.interaction(started.id) : undefined,
    );
    expect(interaction.ephemeral).toBe(true);
    expect(h.fake.state.message(interaction.channelId, interaction.originalMessageId ?? '')?.content).toBe(
      copy.disabledHere,
    );
    expect(h.emulator.requests).toHaveLength(0);
    const dm = h.fake.dmChannelId('carol');
    h.fake.userSays({ user: 'carol', channelId: dm, content: 'hello there' });
    await eventually(() => h.botMessages(dm).length > 0, { timeoutMs: 20_000, what: 'the DM answered' });
  });
});
