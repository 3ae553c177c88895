import { copy } from '@genbot/core/copy';
import type { DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, everythingSaid, SECRETS, startHarness, type Harness } from './support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.stop();
});

async function redSquare(user: string): Promise<DiscordMessage> {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 220, g: 30, b: 30 } } })
    .png()
    .toBuffer();
  return h.fake.userSays({
    user,
    channelId: h.channelId,
    content: 'my red square',
    attachments: [{ filename: 'square.png', bytes: png }],
  });
}

/** Waits for the bot's first answer to an interaction. */
function answered(started: DiscordInteraction): Promise<DiscordInteraction> {
  return h.fake.waitFor((state) => {
    const current = state.interaction(started.id);
    return current?.status === 'acknowledged' ? current : undefined;
  });
}

function content(interaction: DiscordInteraction): string | undefined {
  return interaction.originalMessageId === null
    ? undefined
    : h.fake.state.message(interaction.channelId, interaction.originalMessageId)?.content;
}

/** Runs Edit image on the message and waits for the form the bot opens. */
async function openForm(user: string, message: DiscordMessage): Promise<DiscordInteraction> {
  const run = h.fake.userRunsMessageCommand({
    user,
    channelId: h.channelId,
    messageId: message.id,
    name: 'Edit image',
  });
  const opened = await answered(run);
  expect(opened.responseType).toBe(9);
  return opened;
}

function repliesTo(message: DiscordMessage): DiscordMessage[] {
  return h.botMessages(h.channelId).filter((reply) => reply.reference?.messageId === message.id);
}

describe('Discord: the Edit image message command', () => {
  it('is registered as a message command with the others', () => {
    expect(h.fake.state.guildCommands.map((command) => [command.name, command.type])).toEqual([
      ['imagine', 1],
      ['usage', 1],
      ['Edit image', 3],
      ['genbot', 1],
    ]);
  });

  it('asks for the instruction in a form, then replies to the message with the edited image; progress stays private', async () => {
    const photo = await redSquare('bob');
    const opened = await openForm('ada', photo);
    expect(opened.modal).toMatchObject({
      title: copy.editFormTitle,
      inputs: [{ customId: 'instruction', label: copy.editFormLabel, required: true }],
    });

    const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it grayscale' } });
    const progress = await answered(submit);
    expect([progress.responseType, progress.ephemeral]).toEqual([5, true]);
    const reply = await h.fake.waitFor(
      () => repliesTo(photo).find((message) => message.attachments.length > 0),
      15_000,
    );
    expect(reply).toMatchObject({ type: 19, reference: { messageId: photo.id } });
    expect(reply.flags & 64).toBe(0);
    const image = sharp(reply.attachments[0]?.bytes);
    expect(await image.metadata()).toMatchObject({ width: 40, height: 30 });
    const [red, green] = (await image.stats()).channels.map((channel) => channel.mean);
    expect(Math.abs((red ?? 0) - (green ?? 0))).toBeLessThan(8);
    // The form's own answer is the person's progress, ending in the done line; the reply is the one public message.
    const done = copy.editDone('make it grayscale', { uploaded: 1, tooLarge: 0 });
    await h.fake.waitFor(() => (content(progress) === done ? true : undefined), 10_000);
    expect(repliesTo(photo)).toHaveLength(1);
    // An edit of its own, straight to the image model: no conversation was asked for it.
    expect(await h.store.jobs.get(`dc-form-${opened.id}`)).toMatchObject({ kind: 'message-edit' });
    expect(chatRequests(h.emulator)).toEqual([]);
    for (const said of everythingSaid(h)) for (const secret of SECRETS) expect(said).not.toContain(secret);
  });

  it('answers Edit image on a message without an image privately, with no form', async () => {
    const words = h.fake.userSays({ user: 'bob', channelId: h.channelId, content: 'just words' });
    const run = h.fake.userRunsMessageCommand({
      user: 'ada',
      channelId: h.channelId,
      messageId: words.id,
      name: 'Edit image',
    });
    const answer = await answered(run);
    expect([answer.responseType, answer.ephemeral, content(answer)]).toEqual([4, true, copy.editCommandNoImage]);
  });

  it('makes a form submitted twice one edit, and tells the second submit privately', async () => {
    const photo = await redSquare('bob');
    const opened = await openForm('ada', photo);
    const requests = h.emulator.requests.length;
    // Both sent before the bot answered either: the form was still open for the second.
    const first = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it blue' } });
    const second = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it blue' } });
    const [firstAnswer, secondAnswer] = await Promise.all([answered(first), answered(second)]);
    const answers = [firstAnswer, secondAnswer].map((answer) => [answer.responseType, answer.ephemeral]);
    expect(answers).toContainEqual([5, true]);
    expect(answers).toContainEqual([4, true]);
    const told = [firstAnswer, secondAnswer].find((answer) => answer.responseType === 4);
    expect(told && content(told)).toBe(copy.formAlreadySent);
    await h.fake.waitFor(() => repliesTo(photo).find((message) => message.attachments.length > 0), 15_000);
    const edits = h.emulator.requests.slice(requests).filter((request) => request.path.includes(':generateContent'));
    expect(edits).toHaveLength(1);
    expect(repliesTo(photo)).toHaveLength(1);
  });

  it('answers a form whose message was deleted meanwhile privately, and sends nothing', async () => {
    const photo = await redSquare('bob');
    const opened = await openForm('ada', photo);
    h.fake.userDeletes({ channelId: h.channelId, messageId: photo.id });
    const requests = h.emulator.requests.length;
    const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it blue' } });
    const answer = await answered(submit);
    expect([answer.responseType, answer.ephemeral, content(answer)]).toEqual([4, true, copy.editCommandMessageGone]);
    expect(h.emulator.requests).toHaveLength(requests);
  });

  it('answers an instruction of spaces privately', async () => {
    const photo = await redSquare('bob');
    const opened = await openForm('ada', photo);
    const spaces = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: '   ' } });
    const answer = await answered(spaces);
    expect([answer.ephemeral, content(answer)]).toEqual([true, copy.emptyInstruction]);
  });
});
