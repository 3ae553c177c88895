import { copy } from '@genbot/core/copy';
import type { DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingSaid, SECRETS, startHarness, type Harness } from './support/harness.js';
import { resultOf } from './support/results.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.stop();
});

function original(interaction: DiscordInteraction): DiscordMessage {
  const message =
    interaction.originalMessageId === null
      ? undefined
      : h.fake.state.message(interaction.channelId, interaction.originalMessageId);
  if (message === undefined) throw new Error('no original response');
  return message;
}

function followUps(interaction: DiscordInteraction): DiscordMessage[] {
  return interaction.followUpMessageIds.flatMap((id) => h.fake.state.message(interaction.channelId, id) ?? []);
}

/** Runs /imagine and waits for its result: the original response, holding the images and their buttons. */
async function imagined(
  options: Record<string, string>,
  timeoutMs = 15_000,
): Promise<{ interaction: DiscordInteraction; result: DiscordMessage }> {
  const started = h.fake.userRunsCommand({ user: 'ada', channelId: h.channelId, name: 'imagine', options });
  const result = await resultOf(h.fake, started, timeoutMs);
  const interaction = h.fake.state.interaction(started.id);
  if (interaction === undefined) throw new Error(`no interaction ${started.id}`);
  return { interaction, result };
}

/** Runs /imagine and waits until its original response stops saying it is working. */
async function runImagine(options: Record<string, string>, timeoutMs = 15_000): Promise<DiscordInteraction> {
  const started = h.fake.userRunsCommand({ user: 'ada', channelId: h.channelId, name: 'imagine', options });
  return h.fake.waitFor((state) => {
    const interaction = state.interaction(started.id);
    if (interaction?.originalMessageId == null) return undefined;
    const content = state.message(interaction.channelId, interaction.originalMessageId)?.content ?? '';
    return content !== '' && content !== copy.imagining(options.prompt ?? '') ? interaction : undefined;
  }, timeoutMs);
}

function ratio(size: { width?: number | undefined; height?: number | undefined }): number {
  return (size.width ?? 0) / (size.height ?? 1);
}

describe('/imagine on Discord', () => {
  it('registers /imagine with a required prompt and the aspect ratios as choices', () => {
    const command = h.fake.state.guildCommands.find((candidate) => candidate.name === 'imagine');
    expect(command?.options.map((option) => [option.name, option.required ?? false])).toEqual([
      ['prompt', true],
      ['aspect_ratio', false],
    ]);
    expect(command?.options[1]?.choices?.map((choice) => choice.value)).toContain('16:9');
  });

  it('registers /usage and answers it privately from the usage ledger', async () => {
    expect(h.fake.state.guildCommands.map((command) => command.name)).toEqual([
      'imagine',
      'usage',
      'Edit image',
      'genbot',
    ]);
    const started = h.fake.userRunsCommand({ user: 'carol', channelId: h.channelId, name: 'usage' });
    const interaction = await h.fake.waitFor((state) =>
      state.interaction(started.id)?.status === 'acknowledged' ? state.interaction(started.id) : undefined,
    );
    expect([interaction.responseType, interaction.ephemeral]).toEqual([4, true]);
    const answer = h.fake.state.message(interaction.channelId, interaction.originalMessageId ?? '');
    const carol = { platform: 'discord', userId: h.fake.state.user('carol').id, workspaceId: h.fake.guildId } as const;
    expect(answer?.content).toBe(await h.jobs.usage.answer(carol));
    expect(answer?.content).toMatch(/^\*\*Today:\*\* /);
  });

  it('shows a progress reply naming the prompt, then the images as attachments at the aspect ratio in its place', async () => {
    const prompt = 'a lighthouse at dusk [images:2]';
    const { interaction, result } = await imagined({ prompt, aspect_ratio: '16:9' });
    // The fake expires an interaction left unanswered for Discord's 3 s: acknowledged means in time.
    expect(interaction.status).toBe('acknowledged');
    expect(interaction.responseType).toBe(5);

    expect(result.id).toBe(interaction.originalMessageId);
    expect(result.history.map((version) => version.content)).toContain(copy.imagining(prompt));
    expect(result.content).toBe(copy.imageComment(prompt));
    expect(followUps(interaction)).toEqual([]);
    expect(result.attachments).toHaveLength(2);
    for (const attachment of result.attachments) {
      expect(attachment.filename).toMatch(/^a-lighthouse-at-dusk-\d-[0-9a-f]{6}\.png$/);
      const metadata = await sharp(attachment.bytes).metadata();
      expect(metadata.format).toBe('png');
      expect(ratio(metadata)).toBeCloseTo(16 / 9, 1);
    }
  });

  it('uses the service’s format and a square by default', async () => {
    const { result } = await imagined({ prompt: 'a red fox [format:webp]' });
    const attachment = result.attachments[0];
    expect(attachment?.filename).toMatch(/\.webp$/);
    const metadata = await sharp(attachment?.bytes).metadata();
    expect(metadata.format).toBe('webp');
    expect(ratio(metadata)).toBeCloseTo(1, 2);
  });

  it('is acknowledged within the 3 s window even when the service takes 10 s, and the images still arrive', async () => {
    const prompt = 'a slow sunrise [fault:slow=10000]';
    const { interaction, result } = await imagined({ prompt, aspect_ratio: '9:16' }, 30_000);
    // Acknowledged, not expired: within the fake's 3 s, while the images took 10 s.
    expect(interaction.status).toBe('acknowledged');
    expect(Date.now() - interaction.createdAt).toBeGreaterThanOrEqual(10_000);
    expect(result.content).toBe(copy.imageComment(prompt));
    const attachment = result.attachments[0];
    expect(ratio(await sharp(attachment?.bytes).metadata())).toBeCloseTo(9 / 16, 1);
  });

  it('ends a service failure (503 after retries) in a short human message', async () => {
    const interaction = await runImagine({ prompt: 'a storm [fault:503]' });
    const content = original(interaction).content;
    expect(content).toMatch(/^⚠️ Couldn't generate “a storm \[fault:503\]”: .+/);
    expect(content).toMatch(/try again/i);
    expect(content).not.toMatch(/\bat .+\(.+:\d+:\d+\)|Error:|503 Service|stack/);
    expect(followUps(interaction)).toEqual([]);
  });

  it('says which prompt was too large to upload, the limit, and what may help', async () => {
    const interaction = await runImagine({ prompt: 'a huge mural [mb:11]' }, 30_000);
    expect(original(interaction).content).toBe(
      '⚠️ The image for “a huge mural [mb:11]” was larger than this channel takes (10.0 MiB). A smaller aspect ratio may fit.',
    );
    expect(followUps(interaction)).toEqual([]);
  });

  it('ends a safety block in a short human message', async () => {
    const interaction = await runImagine({ prompt: 'something blocked [fault:safety]' });
    const content = original(interaction).content;
    expect(content).toMatch(/^⚠️ Couldn't generate “something blocked \[fault:safety\]”: .+/);
    expect(content).not.toMatch(/Error:|stack|\{/);
    expect(followUps(interaction)).toEqual([]);
  });

  it('answers a blank prompt without calling the service', async () => {
    const before = h.emulator.requests.length;
    const started = h.fake.userRunsCommand({
      user: 'ada',
      channelId: h.channelId,
      name: 'imagine',
      options: { prompt: '   ' },
    });
    const interaction = await h.fake.waitFor((state) => {
      const found = state.interaction(started.id);
      return found?.originalMessageId != null && original(found).content !== '' ? found : undefined;
    });
    expect(original(interaction).content).toBe(copy.emptyPrompt);
    expect((original(interaction).flags & 64) !== 0).toBe(true);
    expect(h.emulator.requests.length).toBe(before);
  });

  it('never puts the token or the API key in a log line or a message', () => {
    expect(h.logs.length).toBeGreaterThan(0);
    for (const text of everythingSaid(h)) for (const secret of SECRETS) expect(text).not.toContain(secret);
  });
});
