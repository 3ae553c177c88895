import { copy } from '@genbot/core/copy';
import { JobScheduler } from '@genbot/core/scheduling';
import type { DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@genbot/test-servers';
import { everythingSaid, SECRETS, startHarness, type Harness, storedResultOf } from './support/harness.js';
import { answered, labelsOf, originalText, press, resultOf } from './support/results.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.stop();
});

function imagine(user: string, prompt: string): DiscordInteraction {
  return h.fake.userRunsCommand({ user, channelId: h.channelId, name: 'imagine', options: { prompt } });
}

async function grayness(bytes: Buffer | undefined): Promise<number> {
  const [red, green, blue] = (await sharp(bytes).stats()).channels.map((channel) => channel.mean);
  return Math.abs((red ?? 0) - (green ?? 0)) + Math.abs((green ?? 0) - (blue ?? 0));
}

function generateRequests(): number {
  return h.emulator.requests.filter((request) => request.path.includes(':generateContent')).length;
}

/** Presses the button and waits for its result: a new message, the answer to the press. */
async function pressForResult(user: string, message: DiscordMessage, label: string) {
  const started = press(h.fake, user, message, label);
  const interaction = await answered(h.fake, started);
  expect([interaction.responseType, interaction.ephemeral]).toEqual([5, false]);
  return { interaction, result: await storedResultOf(h, started) };
}

describe('Discord: buttons under results', () => {
  let v1: DiscordMessage;
  const prompt = 'a lighthouse at dusk';

  it('/imagine’s answer is the result itself: the images, the prompt and Re-roll, Vary and Edit', async () => {
    const started = imagine('ada', prompt);
    v1 = await storedResultOf(h, started);
    expect(v1.content).toBe(copy.imageComment(prompt));
    expect(labelsOf(v1)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit()]);
    // The progress line was there first, and the job left one message.
    expect(v1.history.some((version) => version.content === copy.imagining(prompt))).toBe(true);
    const job = await eventually(async () => {
      const found = await h.store.jobs.get(`dc-int-${started.id}`);
      return found?.state === 'finished' ? found : undefined;
    });
    expect(job.outcome).toBe('done');
    // The done line would only have hidden the result's own text.
    expect(v1.content).toBe(copy.imageComment(prompt));
    expect(h.fake.state.interaction(started.id)?.followUpMessageIds).toEqual([]);
    const [version] = await h.store.versions.byMessage('discord', h.channelId, v1.id);
    expect(version).toMatchObject({ number: 1, origin: 'generated', fileId: v1.attachments[0]?.id });
  });

  it('Vary answers the press with a new result under the pressed one, which keeps its images and buttons', async () => {
    const before = { content: v1.content, components: v1.components, edits: v1.history.length };
    const { interaction, result } = await pressForResult('bob', v1, copy.buttonVary());
    expect(result.id).not.toBe(v1.id);
    expect(result).toMatchObject({ type: 19, reference: { messageId: v1.id } });
    expect(result.content).toBe(copy.variedComment(2, 1));
    expect(labelsOf(result)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit(), copy.buttonUndo]);
    expect({ content: v1.content, components: v1.components, edits: v1.history.length }).toEqual(before);
    // The job counts for whoever pressed.
    const job = await h.store.jobs.get(`dc-int-${interaction.id}`);
    expect(job).toMatchObject({ kind: 'vary', userId: h.fake.state.user('bob').id });
  });

  it('Edit opens a form; its instruction edits that image into a new result, and Undo shows v1 again', async () => {
    const opened = await answered(h.fake, press(h.fake, 'bob', v1, copy.buttonEdit()));
    expect(opened.responseType).toBe(9);
    expect(opened.modal).toMatchObject({
      title: copy.editFormTitleVersion(1),
      inputs: [{ customId: 'instruction', label: copy.editFormLabel }],
    });
    const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it grayscale' } });
    expect((await answered(h.fake, submit)).ephemeral).toBe(false);
    const edited = await storedResultOf(h, submit);
    expect(edited).toMatchObject({ type: 19, reference: { messageId: v1.id } });
    // v2 is the variation before it: versions count per image, in the order they are made.
    expect(edited.content).toBe(copy.editedComment(3, 1, 'make it grayscale'));
    expect(await grayness(edited.attachments[0]?.bytes)).toBeLessThan(8);
    expect(await grayness(v1.attachments[0]?.bytes)).toBeGreaterThan(8);

    const requests = generateRequests();
    const { result: undone } = await pressForResult('ada', edited, copy.buttonUndo);
    expect(undone.content).toBe(copy.restoredComment(1, 3));
    expect(undone.attachments[0]?.bytes).toEqual(v1.attachments[0]?.bytes);
    expect(labelsOf(undone)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit()]);
    // Undo calls no model.
    expect(generateRequests()).toBe(requests);
  });

  it('Re-roll asks again with the same prompt, for whoever pressed', async () => {
    const requests = generateRequests();
    const { result } = await pressForResult('cy', v1, copy.buttonReroll);
    expect(result.content).toBe(copy.rerollComment(prompt));
    expect(generateRequests()).toBe(requests + 1);
    const asked = h.emulator.requests.filter((request) => request.path.includes(':generateContent')).at(-1);
    expect(JSON.stringify(asked?.body)).toContain(prompt);
  });

  it('Edit image on a result, and a mention replying to one, continue that image’s versions', async () => {
    const run = h.fake.userRunsMessageCommand({
      user: 'cy',
      channelId: h.channelId,
      messageId: v1.id,
      name: 'Edit image',
    });
    const opened = await answered(h.fake, run);
    const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'add a moon' } });
    expect((await answered(h.fake, submit)).ephemeral).toBe(true);
    const byCommand = await h.fake.waitFor(
      () =>
        h
          .botMessages(h.channelId)
          .find((message) => message.reference?.messageId === v1.id && message.content.includes('add a moon')),
      15_000,
    );
    expect(byCommand.content).toBe(copy.editedComment(4, 1, 'add a moon'));
    expect(labelsOf(byCommand)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit(), copy.buttonUndo]);
    await eventually(async () =>
      (await h.store.versions.byMessage('discord', h.channelId, byCommand.id)).length > 0 ? true : undefined,
    );

    const mention = h.fake.userSays({
      user: 'cy',
      channelId: h.channelId,
      content: `${h.mention} make it night`,
      replyTo: byCommand.id,
    });
    const byMention = await h.fake.waitFor(
      () =>
        h
          .botMessages(h.channelId)
          .find((message) => message.reference?.messageId === mention.id && message.attachments.length > 0),
      15_000,
    );
    expect(byMention.content).toBe(copy.editedComment(5, 4, 'make it night'));
  });

  it('an Edit form Discord takes too late (10062) is logged as late, not as a failure; the next press opens it', async () => {
    const late = h.fake.lateCallbacks({ times: 1 });
    const first = press(h.fake, 'bob', v1, copy.buttonEdit());
    await h.fake.waitFor((state) => (state.interaction(first.id)?.status === 'expired' ? true : undefined));
    late.off();
    await eventually(async () => (h.logs.some((line) => line.includes('came too late')) ? true : undefined));
    const failures = h.logs.filter((line) => line.includes(first.id) && JSON.parse(line).level >= 50);
    expect(failures).toEqual([]);
    const again = await answered(h.fake, press(h.fake, 'bob', v1, copy.buttonEdit()));
    expect([again.responseType, again.modal?.title]).toEqual([9, copy.editFormTitleVersion(1)]);
  });

  it('names the images when a result has several, and Vary 2 varies the second', async () => {
    const started = imagine('ada', 'two kites [images:2]');
    const pair = await storedResultOf(h, started);
    expect(pair.attachments).toHaveLength(2);
    expect(labelsOf(pair)).toEqual([
      copy.buttonReroll,
      copy.buttonVary(1),
      copy.buttonVary(2),
      copy.buttonEdit(1),
      copy.buttonEdit(2),
    ]);
    const opened = await answered(h.fake, press(h.fake, 'bob', pair, copy.buttonEdit(2)));
    expect(opened.modal?.title).toBe(copy.editFormTitleImage(2));
    const { interaction } = await pressForResult('bob', pair, copy.buttonVary(2));
    const [made] = await h.store.versions.byMessage(
      'discord',
      h.channelId,
      h.fake.state.interaction(interaction.id)?.originalMessageId ?? '',
    );
    expect(made?.parent).toEqual({ jobId: `dc-int-${started.id}`, index: 1 });
  });

  it('answers a press whose job ran past the interaction token’s 15 minutes with a plain channel message', async () => {
    const started = imagine('ada', 'a long queue');
    const result = await storedResultOf(h, started);
    const [shown] = await h.store.versions.byMessage('discord', h.channelId, result.id);
    const before = new Set(h.botMessages(h.channelId).map((message) => message.id));
    // As ingress took it, but its job only ran once the token had expired (a long queue).
    const answer = await h.jobs.presses.press({
      jobId: 'dc-int-1000000000000000001',
      buttonId: `gb1:v:${shown?.ref ?? ''}`,
      platform: 'discord',
      channelId: h.channelId,
      userId: h.fake.state.user('bob').id,
      target: { channelId: h.channelId },
      interaction: { token: 'expired-token', expiresAt: new Date(Date.now() - 1_000) },
      message: { id: result.id, bySelf: true },
    });
    expect(answer).toMatchObject({ kind: 'started', duplicate: false });
    const posted = await h.fake.waitFor(
      () =>
        h
          .botMessages(h.channelId)
          .find(
            (message) => !before.has(message.id) && message.attachments.length > 0 && message.components.length > 0,
          ),
      15_000,
    );
    expect(posted.content).toBe(copy.variedComment(2, 1));
    expect(posted).toMatchObject({ webhookId: null, interaction: null, type: 0 });
    expect(posted.attachments).toHaveLength(1);
    expect(labelsOf(posted)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit(), copy.buttonUndo]);
  });

  it('takes a second press of the same button by the same person while the first runs as one job, told privately', async () => {
    const slow = 'a slow sunrise [fault:slow=2500]';
    const first = await storedResultOf(h, imagine('ada', slow));
    const requests = generateRequests();
    const one = press(h.fake, 'bob', first, copy.buttonReroll);
    await answered(h.fake, one);
    const two = press(h.fake, 'bob', first, copy.buttonReroll);
    const told = await answered(h.fake, two);
    expect([told.responseType, told.ephemeral, originalText(h.fake, told)]).toEqual([4, true, copy.alreadyRunning]);
    // Someone else pressing it is their own job.
    const other = await answered(h.fake, press(h.fake, 'cy', first, copy.buttonReroll));
    expect([other.responseType, other.ephemeral]).toEqual([5, false]);
    await resultOf(h.fake, one, 20_000);
    await resultOf(h.fake, other, 20_000);
    expect(generateRequests()).toBe(requests + 2);
    for (const said of everythingSaid(h)) for (const secret of SECRETS) expect(said).not.toContain(secret);
  });
});

describe('Discord: a press that waits in line', () => {
  let queued: Harness;

  beforeAll(async () => {
    queued = await startHarness({ scheduler: new JobScheduler({ image: { concurrency: 1 } }) });
  });

  afterAll(async () => {
    await queued?.stop();
  });

  it('shows its place in line in the answer to the press, then the result there', async () => {
    const run = (user: string, prompt: string) =>
      queued.fake.userRunsCommand({ user, channelId: queued.channelId, name: 'imagine', options: { prompt } });
    const v1 = await storedResultOf(queued, run('ada', 'a small boat'));
    const slow = 'a slow lighthouse [fault:slow=2500]';
    const busy = run('ada', slow);
    await queued.fake.waitFor((state) => {
      const current = state.interaction(busy.id);
      const text = current?.originalMessageId == null ? undefined : originalText(queued.fake, current);
      return text === copy.imagining(slow) ? true : undefined;
    }, 10_000);
    const vary = press(queued.fake, 'bob', v1, copy.buttonVary());
    const varied = await storedResultOf(queued, vary);
    const shown = [...varied.history.map((version) => version.content), varied.content];
    expect(shown).toContain(copy.varyQueued(1, 1));
    expect(shown.indexOf(copy.varyQueued(1, 1))).toBeLessThan(shown.indexOf(copy.varying(1)));
    expect(varied.content).toBe(copy.variedComment(2, 1));
  });
});

describe('Discord: a press counts for whoever pressed', () => {
  let limited: Harness;

  beforeAll(async () => {
    limited = await startHarness({ quota: { imagesPerDay: 1 } });
  });

  afterAll(async () => {
    await limited?.stop();
  });

  it('lets another person vary a result on their own quota, and refuses them privately once it is used', async () => {
    const started = limited.fake.userRunsCommand({
      user: 'ada',
      channelId: limited.channelId,
      name: 'imagine',
      options: { prompt: 'a paper crane' },
    });
    const result = await storedResultOf(limited, started);
    // ada's one image is used; bob's is not.
    const vary = press(limited.fake, 'bob', result, copy.buttonVary());
    await storedResultOf(limited, vary);
    const requests = limited.emulator.requests.length;
    const again = await answered(limited.fake, press(limited.fake, 'bob', result, copy.buttonReroll));
    expect([again.responseType, again.ephemeral]).toEqual([4, true]);
    expect(originalText(limited.fake, again)).toMatch(/^🛑 You've used your 1 image for today\./);
    expect(limited.emulator.requests).toHaveLength(requests);
    // /usage tells bob his image.
    const usage = await answered(
      limited.fake,
      limited.fake.userRunsCommand({ user: 'bob', channelId: limited.channelId, name: 'usage' }),
    );
    expect(originalText(limited.fake, usage)).toMatch(/^\*\*Today:\*\* 1 image, /);
  });
});
