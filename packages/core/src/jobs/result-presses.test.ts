import { describe, expect, it } from 'vitest';
import { MemoryVersions, version } from '../../testing/memory-versions.js';
import { copy } from '../copy/copy.js';
import { buttonId } from '../results/button-id.js';
import { versionRef } from '../store/index.js';
import type { ChatJob } from './chat-job.js';
import type { IntakeResult, JobIntake } from './job-intake.js';
import { type ButtonPress, ResultPresses } from './result-presses.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** The JobIntake port as small as it gets: jobs kept by id, one unfinished job per active key. */
class KeptJobs implements JobIntake {
  readonly jobs: ChatJob[] = [];
  refuseWith: string | undefined;

  async submit(job: ChatJob): Promise<IntakeResult> {
    if (this.refuseWith !== undefined) return { accepted: false, answer: this.refuseWith };
    if (this.jobs.some((kept) => kept.id === job.id)) return { accepted: true, duplicate: true };
    if (job.activeKey !== undefined && this.jobs.some((kept) => kept.activeKey === job.activeKey)) {
      return { accepted: false, answer: copy.alreadyRunning };
    }
    this.jobs.push(job);
    return { accepted: true, duplicate: false, position: 0 };
  }
}

async function setUp() {
  const versions = new MemoryVersions();
  await versions.record(version('slack-cmd-1', 0));
  await versions.record(version('slack-btn-2', 0, { parent: { jobId: 'slack-cmd-1', index: 0 } }));
  const intake = new KeptJobs();
  return { intake, presses: new ResultPresses({ versions, intake, logger: silent }) };
}

function press(button: string, overrides: Partial<ButtonPress> = {}): ButtonPress {
  return {
    jobId: 'slack-act-T1',
    buttonId: button,
    platform: 'slack',
    workspaceId: 'T1',
    channelId: 'C1',
    userId: 'U2',
    target: { channelId: 'C1', threadId: '1700.1' },
    message: { id: 'M-slack-cmd-1', bySelf: true },
    ...overrides,
  };
}

describe('ResultPresses', () => {
  it('starts a job for the presser pointing at the version, in the result’s thread', async () => {
    const { intake, presses } = await setUp();
    const answer = await presses.press(press(buttonId('vary', versionRef('slack-cmd-1', 0))));
    expect(answer).toEqual({ kind: 'started', duplicate: false, position: 0 });
    expect(intake.jobs[0]).toMatchObject({
      id: 'slack-act-T1',
      userId: 'U2',
      threadId: '1700.1',
      input: {
        kind: 'vary',
        action: { version: { jobId: 'slack-cmd-1', index: 0 }, userId: 'U2', target: { threadId: '1700.1' } },
      },
    });
  });

  it('makes a second press of the same button by the same person, while the first runs, a private answer', async () => {
    const { intake, presses } = await setUp();
    const button = buttonId('reroll', versionRef('slack-cmd-1', 0));
    await presses.press(press(button));
    expect(await presses.press(press(button, { jobId: 'slack-act-T2' }))).toEqual({
      kind: 'refused',
      answer: copy.alreadyRunning,
    });
    expect(await presses.press(press(button, { jobId: 'slack-act-T3', userId: 'U3' }))).toMatchObject({
      kind: 'started',
    });
    expect(intake.jobs.map((job) => job.id)).toEqual(['slack-act-T1', 'slack-act-T3']);
  });

  it('answers forged, stale and foreign buttons privately, starting nothing', async () => {
    const { intake, presses } = await setUp();
    const gone = { kind: 'refused', answer: copy.buttonGone };
    expect(await presses.press(press('gb1:v:not-a-ref'))).toEqual(gone);
    expect(await presses.press(press(buttonId('vary', versionRef('swept-job', 0))))).toEqual(gone);
    expect(await presses.press(press(buttonId('vary', versionRef('slack-cmd-1', 0)), { platform: 'discord' }))).toEqual(
      gone,
    );
    expect(await presses.press(press(buttonId('undo', versionRef('slack-cmd-1', 0))))).toEqual({
      kind: 'refused',
      answer: copy.nothingToUndo,
    });
    expect(intake.jobs).toEqual([]);
  });

  it('honours a press only on the bot’s own result of the version, in its channel: else a private answer, nothing started', async () => {
    const { intake, presses } = await setUp();
    const vary = buttonId('vary', versionRef('slack-cmd-1', 0));
    const refused = { kind: 'refused', answer: copy.pressNotOnResult };
    // A copy of the button on somebody else's message, in the same channel or another; Edit does not open its form.
    expect(await presses.press(press(vary, { message: { id: 'M-slack-cmd-1', bySelf: false } }))).toEqual(refused);
    const edit = buttonId('edit', versionRef('slack-cmd-1', 0));
    expect(await presses.press(press(edit, { message: { id: 'M-other', bySelf: false } }))).toEqual(refused);
    const elsewhere = { channelId: 'C9', target: { channelId: 'C9', threadId: '1800.1' } };
    expect(await presses.press(press(vary, { ...elsewhere, message: { id: 'M-other', bySelf: false } }))).toEqual(
      refused,
    );
    // The bot's own message, but in another channel, or another of its messages in the version's channel.
    expect(await presses.press(press(vary, { ...elsewhere, message: { id: 'M-slack-cmd-1', bySelf: true } }))).toEqual(
      refused,
    );
    expect(await presses.press(press(vary, { message: { id: 'M-slack-btn-2', bySelf: true } }))).toEqual(refused);
    expect(intake.jobs).toEqual([]);
    // The form of an Edit pressed in another channel, or on another message, is refused on submit.
    const form = { ...press(edit), state: edit, instruction: 'make it blue' };
    expect(await presses.submitForm({ ...form, ...elsewhere })).toEqual(refused);
    expect(await presses.submitForm({ ...form, messageId: 'M-slack-btn-2' })).toEqual(refused);
    expect(intake.jobs).toEqual([]);
    expect(await presses.submitForm({ ...form, messageId: 'M-slack-cmd-1' })).toMatchObject({ kind: 'started' });
  });

  it('takes a press on the result before its message id was recorded (just posted) by its channel', async () => {
    const versions = new MemoryVersions();
    await versions.record(version('slack-cmd-1', 0, { messageId: undefined, fileId: undefined }));
    const intake = new KeptJobs();
    const presses = new ResultPresses({ versions, intake, logger: silent });
    const vary = buttonId('vary', versionRef('slack-cmd-1', 0));
    expect(await presses.press(press(vary, { message: { id: 'M-new', bySelf: true } }))).toMatchObject({
      kind: 'started',
    });
    expect(
      await presses.press(
        press(vary, {
          jobId: 'slack-act-T9',
          channelId: 'C9',
          target: { channelId: 'C9' },
          message: { id: 'M-new', bySelf: true },
        }),
      ),
    ).toEqual({ kind: 'refused', answer: copy.pressNotOnResult });
    expect(intake.jobs).toHaveLength(1);
  });

  it('opens the edit form before reading anything, then validates and starts the edit on submit', async () => {
    const { intake, presses } = await setUp();
    const button = buttonId('edit', versionRef('slack-btn-2', 0));
    const answer = await presses.press(press(button));
    expect(answer).toEqual({
      kind: 'form',
      form: {
        title: 'Edit image',
        label: copy.editFormLabel,
        placeholder: copy.editFormPlaceholder,
        submit: 'Edit',
        maxLength: 2000,
        state: button,
      },
    });
    const submission = { ...press(button), jobId: 'slack-form-V1', state: button, instruction: '   ' };
    expect(await presses.submitForm(submission)).toEqual({ kind: 'invalid', error: copy.emptyInstruction });
    expect(await presses.submitForm({ ...submission, instruction: ' make it blue ' })).toMatchObject({
      kind: 'started',
    });
    expect(intake.jobs[0]?.input).toMatchObject({ kind: 'edit', action: { instruction: 'make it blue' } });
    expect(await presses.submitForm({ ...submission, instruction: 'make it blue' })).toEqual({
      kind: 'refused',
      answer: copy.formAlreadySent,
    });
    expect(intake.jobs).toHaveLength(1);
  });

  it('refuses a form whose record went while it was open, and one it did not open', async () => {
    const { presses } = await setUp();
    const stale = buttonId('edit', versionRef('swept-job', 0));
    const submission = { ...press(stale), state: stale, instruction: 'make it blue' };
    expect(await presses.submitForm(submission)).toEqual({ kind: 'refused', answer: copy.buttonGone });
    const vary = buttonId('vary', versionRef('slack-cmd-1', 0));
    expect(await presses.submitForm({ ...submission, state: vary })).toEqual({
      kind: 'refused',
      answer: copy.buttonGone,
    });
  });

  it('passes the intake’s refusal (quota, restart) on as the private answer', async () => {
    const { intake, presses } = await setUp();
    intake.refuseWith = copy.restarting;
    expect(await presses.press(press(buttonId('vary', versionRef('slack-cmd-1', 0))))).toEqual({
      kind: 'refused',
      answer: copy.restarting,
    });
  });
});
