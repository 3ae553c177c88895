import { copy } from '@genbot/core/copy';
import type { DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, storedResultOf, type Harness } from './support/harness.js';
import { answered, labelsOf, press } from './support/results.js';

/**
 * The app installed to a person's account, used in a server the bot is not in:
 * everything goes through the interaction, through the real discord.js.
 */

let h: Harness;

beforeAll(async () => {
  // Global commands, as production registers them: only those reach a user install.
  h = await startHarness({ registerCommands: {} });
});

afterAll(async () => {
  await h?.stop();
});

const EPHEMERAL = 64;
const MAX_FOLLOW_UPS = 5;

function imagine(user: string, channelId: string, prompt: string): DiscordInteraction {
  return h.fake.userRunsCommand({ user, channelId, name: 'imagine', options: { prompt } });
}

/** Every message in the channel came through an interaction: the bot never called on the channel itself. */
function expectOnlyInteractionAnswers(channelId: string): void {
  const messages = h.fake.state.messages(channelId).filter((message) => message.author.id === h.fake.botUser.id);
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages) expect(message.interaction).not.toBeNull();
  expect(h.fake.state.botRequests.filter((call) => call.path.startsWith(`/channels/${channelId}`))).toEqual([]);
}

function followUps(started: DiscordInteraction): number {
  return h.fake.state.interaction(started.id)?.followUpMessageIds.length ?? 0;
}

function refusedCalls(): string[] {
  return h.logs.filter((line) => line.includes('Missing Access') || line.includes('40094'));
}

async function redSquare(user: string, channelId: string): Promise<DiscordMessage> {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 220, g: 30, b: 30 } } })
    .png()
    .toBuffer();
  return h.fake.userSays({
    user,
    channelId,
    content: 'my red square',
    attachments: [{ filename: 'square.png', bytes: png }],
  });
}

describe('Discord: user installs, in a server the bot is not in', () => {
  it('registers /imagine, /usage and Edit image for server and user installs, in servers and every DM', () => {
    // `/genbot` is for server installs alone: a person's own install cannot administer a server.
    const registered = h.fake.state.globalCommands
      .filter((command) => command.name !== 'genbot')
      .map((command) => ({
        name: command.name,
        integration_types: command.integration_types,
        contexts: command.contexts,
      }));
    expect(registered).toEqual(
      ['imagine', 'usage', 'Edit image'].map((name) => ({ name, integration_types: [0, 1], contexts: [0, 1, 2] })),
    );
  });

  it('answers /imagine through the interaction alone; its buttons work the same way', async () => {
    const elsewhere = h.fake.elsewhereChannelId('their-server');
    const started = imagine('ada', elsewhere, 'a lighthouse');
    const result = await storedResultOf(h, started);
    expect(result.channelId).toBe(elsewhere);
    expect(result.flags & EPHEMERAL).toBe(0);
    expect(labelsOf(result)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit()]);

    const rerolled = await storedResultOf(h, press(h.fake, 'ada', result, copy.buttonReroll));
    expect(rerolled.channelId).toBe(elsewhere);
    expect(rerolled.attachments.length).toBeGreaterThan(0);
    // Vary reads the result's image back: from the press's own message, not the channel.
    const varied = await storedResultOf(h, press(h.fake, 'ada', rerolled, copy.buttonVary()));
    expect(varied.attachments.length).toBeGreaterThan(0);
    // Edit opens its form; the edit is the form's own answer.
    const opened = await answered(h.fake, press(h.fake, 'ada', varied, copy.buttonEdit()));
    expect(opened.responseType).toBe(9);
    const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it blue' } });
    const edited = await storedResultOf(h, submit);
    expect(edited.channelId).toBe(elsewhere);
    expect(edited.attachments.length).toBeGreaterThan(0);
    expectOnlyInteractionAnswers(elsewhere);
    expect(followUps(started)).toBeLessThanOrEqual(MAX_FOLLOW_UPS);
    expect(refusedCalls()).toEqual([]);
  });

  it('edits a message’s image with Edit image, the result in the form’s own answer', async () => {
    const elsewhere = h.fake.elsewhereChannelId('photo-server');
    const photo = await redSquare('bob', elsewhere);
    const run = h.fake.userRunsMessageCommand({
      user: 'ada',
      channelId: elsewhere,
      messageId: photo.id,
      name: 'Edit image',
    });
    const opened = await answered(h.fake, run);
    expect(opened.responseType).toBe(9);
    const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it grayscale' } });
    const result = await storedResultOf(h, submit);
    expect(result.channelId).toBe(elsewhere);
    const image = sharp(result.attachments[0]?.bytes);
    expect(await image.metadata()).toMatchObject({ width: 40, height: 30 });
    const [red, green] = (await image.stats()).channels.map((channel) => channel.mean);
    expect(Math.abs((red ?? 0) - (green ?? 0))).toBeLessThan(8);
    expectOnlyInteractionAnswers(elsewhere);
    expect(refusedCalls()).toEqual([]);
  });

  it('answers privately where the server forbids external apps', async () => {
    const strict = h.fake.elsewhereChannelId('strict-server', { externalApps: false });
    const started = imagine('cy', strict, 'a quiet pond');
    const result = await storedResultOf(h, started);
    expect(result.flags & EPHEMERAL).toBe(EPHEMERAL);
    const answer = await answered(h.fake, started);
    expect(answer.ephemeral).toBe(true);
    expectOnlyInteractionAnswers(strict);
    expect(refusedCalls()).toEqual([]);
  });

  it('answers /usage there privately', async () => {
    const elsewhere = h.fake.elsewhereChannelId('usage-server');
    const run = h.fake.userRunsCommand({ user: 'ada', channelId: elsewhere, name: 'usage' });
    const answer = await answered(h.fake, run);
    expect([answer.responseType, answer.ephemeral]).toEqual([4, true]);
  });
});
