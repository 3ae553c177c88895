import { copy } from '@genbot/core/copy';
import { buttonId, parseButtonId } from '@genbot/core/results';
import { versionRef } from '@genbot/core/store';
import { type ButtonPress, ResultPresses } from '@genbot/core/jobs';
import { createLogger } from '@genbot/core/log';
import { afterEach, describe, expect, it } from 'vitest';
import { imagineJob, type Rig, startRig } from './harness.js';
import { jobFinished } from '../support/job-finished.js';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

let nextPress = 1;

function pressOf(current: Rig, label: string, upload = current.platform.uploads.at(-1), userId = 'U2'): ButtonPress {
  const button = upload?.buttons.find((candidate) => candidate.label === label);
  if (button === undefined || upload === undefined) throw new Error(`no ${label} button`);
  return {
    jobId: `slack-act-test-${nextPress++}`,
    buttonId: button.id,
    platform: 'slack',
    workspaceId: 'T1',
    channelId: 'C1',
    userId,
    target: { channelId: 'C1', threadId: upload.messageId },
    message: { id: upload.messageId, bySelf: true },
  };
}

function presses(current: Rig): ResultPresses {
  return new ResultPresses({
    versions: current.store.versions,
    intake: current.intake,
    logger: createLogger({ level: 'silent' }),
  });
}

describe('buttons under results, on the jobs floor', () => {
  it('puts buttons on every result and runs Vary, Edit, Undo and Re-roll as jobs of the presser', async () => {
    rig = await startRig();
    const made = imagineJob('a lighthouse at dusk');
    await rig.intake.submit(made);
    await jobFinished(rig.store, made.id);
    const first = rig.platform.uploads[0]!;
    expect(first.buttons.map((button) => button.label)).toEqual(
      first.files.length === 1
        ? ['Re-roll', 'Vary', 'Edit']
        : ['Re-roll', ...first.files.map((_, i) => `Vary ${i + 1}`), ...first.files.map((_, i) => `Edit ${i + 1}`)],
    );

    const vary = pressOf(rig, first.files.length === 1 ? 'Vary' : 'Vary 1');
    expect(await presses(rig).press(vary)).toMatchObject({ kind: 'started', duplicate: false });
    await jobFinished(rig.store, vary.jobId);
    const varied = rig.platform.uploads[1]!;
    expect(varied.target).toEqual({ channelId: 'C1', threadId: first.messageId });
    expect(varied.comment).toBe('🔀 v2 · from v1 · variation');
    expect(varied.buttons.map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit', 'Undo']);
    expect(await rig.store.versions.get({ jobId: vary.jobId, index: 0 })).toMatchObject({
      origin: 'varied',
      number: 2,
      parent: { jobId: made.id, index: 0 },
      messageId: varied.messageId,
    });

    const edit = pressOf(rig, 'Edit');
    const form = await presses(rig).press(edit);
    if (form.kind !== 'form') throw new Error(`expected a form, got ${form.kind}`);
    const submitted = { ...edit, jobId: 'slack-form-test-1', state: form.form.state, instruction: 'make it blue' };
    expect(await presses(rig).submitForm(submitted)).toMatchObject({ kind: 'started' });
    await jobFinished(rig.store, submitted.jobId);
    const edited = rig.platform.uploads[2]!;
    expect(edited.comment).toBe('🖌️ v3 · from v2 · “make it blue”');

    const undo = pressOf(rig, 'Undo');
    expect(await presses(rig).press(undo)).toMatchObject({ kind: 'started' });
    await jobFinished(rig.store, undo.jobId);
    const restored = rig.platform.uploads[3]!;
    expect(restored.comment).toBe('↩️ v2 again · undo of v3');
    expect(restored.files[0]?.bytes).toEqual(varied.files[0]?.bytes);
    expect(restored.buttons.map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit', 'Undo']);

    const reroll = pressOf(rig, 'Re-roll', edited);
    await presses(rig).press(reroll);
    await jobFinished(rig.store, reroll.jobId);
    // The same edit of v2 again: a new version of the tree, numbered after every one before it.
    expect(rig.platform.uploads[4]?.comment).toBe('🖌️ v4 · from v2 · “make it blue”');

    // Vary, Edit and Re-roll made one image each; Undo called no model.
    const { today } = await rig.store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U2' });
    expect(today.images).toBe(3);
    expect((await rig.store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U1' })).today.images).toBe(
      first.files.length,
    );
  });

  it('tells a second press of a running button privately, and runs one job', async () => {
    rig = await startRig({ process: false });
    rig.queue.process(rig.worker.handle, { concurrency: { image: 1, stream: 1 }, platforms: rig.worker.platforms });
    const made = imagineJob('a slow boat');
    await rig.intake.submit(made);
    await jobFinished(rig.store, made.id);
    const press = pressOf(rig, rig.platform.uploads[0]!.files.length === 1 ? 'Vary' : 'Vary 1');
    const again = { ...press, jobId: 'slack-act-test-again' };
    const [one, two] = await Promise.all([presses(rig).press(press), presses(rig).press(again)]);
    expect([one.kind, two.kind].sort()).toEqual(['refused', 'started']);
    expect([one, two].find((answer) => answer.kind === 'refused')).toEqual({
      kind: 'refused',
      answer: copy.alreadyRunning,
    });
    const started = one.kind === 'started' ? press.jobId : again.jobId;
    await jobFinished(rig.store, started);
    expect(rig.platform.uploads).toHaveLength(2);
    const later = { ...press, jobId: 'slack-act-test-later' };
    expect(await presses(rig).press(later)).toMatchObject({ kind: 'started' });
  });

  it('answers a press on an image whose result never finished posting, once the wait for it is over', async () => {
    rig = await startRig({ postedWaitMs: 200, process: false });
    const made = imagineJob('a boat that never showed');
    await rig.intake.submit(made);
    // Recorded before its upload, which then failed: no message or file id will ever come.
    await rig.store.versions.record({
      jobId: made.id,
      index: 7,
      platform: 'slack',
      workspaceId: 'T1',
      channelId: 'C1',
      threadId: undefined,
      mimeType: 'image/png',
      sizeBytes: 10,
      sha256: '0'.repeat(64),
      prompt: 'a boat that never showed',
    });
    const thread = { channelId: 'C1', threadId: '1700.1' };
    const press: ButtonPress = {
      jobId: 'slack-act-test-unposted',
      buttonId: buttonId('vary', versionRef(made.id, 7)),
      platform: 'slack',
      workspaceId: 'T1',
      channelId: 'C1',
      userId: 'U2',
      target: thread,
      message: { id: '1700.1', bySelf: true },
    };
    expect(await presses(rig).press(press)).toMatchObject({ kind: 'started' });
    rig.queue.process(rig.worker.handle, { concurrency: { image: 4, stream: 4 }, platforms: rig.worker.platforms });
    await jobFinished(rig.store, press.jobId);
    const inThread = [...rig.platform.messages.values()].filter(
      (message) => message.target.threadId === thread.threadId,
    );
    expect(inThread.map((message) => message.text)).toEqual([copy.versionNotPosted]);
    expect(rig.platform.uploads.filter((upload) => upload.target.threadId === thread.threadId)).toHaveLength(0);
  });

  it('counts a press against the presser’s image quota, privately refused past it', async () => {
    rig = await startRig({ quota: { imagesPerDay: 1 } });
    const made = imagineJob('a quiet lake');
    await rig.intake.submit(made);
    await jobFinished(rig.store, made.id);
    const press = pressOf(rig, rig.platform.uploads[0]!.files.length === 1 ? 'Vary' : 'Vary 1', undefined, 'U1');
    const refused = await presses(rig).press(press);
    expect(refused.kind).toBe('refused');
    expect(refused.kind === 'refused' && refused.answer).toMatch(/^🛑 You've used your 1 image for today/);
    expect(parseButtonId(press.buttonId)?.action).toBe('vary');
    expect(await presses(rig).press({ ...press, jobId: 'slack-act-other', userId: 'U3' })).toMatchObject({
      kind: 'started',
    });
  });

  it('runs a Re-roll with the settings of the time of the press: a new job of its own', async () => {
    rig = await startRig();
    const made = imagineJob('a lighthouse at dusk');
    await rig.intake.submit(made);
    await jobFinished(rig.store, made.id);
    expect(rig.platform.uploads[0]?.files).toHaveLength(1);
    const place = { platform: 'slack', workspaceId: 'T1', channelId: 'C1' } as const;
    await rig.settings.change({ place, level: 'channel', name: 'images', value: 2, by: 'UADMIN' });
    await rig.settings.change({ place, level: 'channel', name: 'image_model', value: 'img-b', by: 'UADMIN' });
    const reroll = pressOf(rig, 'Re-roll');
    expect(await presses(rig).press(reroll)).toMatchObject({ kind: 'started' });
    await jobFinished(rig.store, reroll.jobId);
    expect(rig.platform.uploads[1]?.files).toHaveLength(2);
    const drawn = rig.emulator.requests.filter((request) => request.path.includes(':generateContent'));
    expect(drawn.map((request) => request.path.includes('/models/img-b:'))).toEqual([false, true]);
  });
});
