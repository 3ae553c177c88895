import { copy } from '@genbot/core/copy';
import type { SlackFake, SlackMessage } from '@genbot/fakes';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImageVersionStore, Store } from '@genbot/core/store';
import { openStore } from '@genbot/store';
import { startJobsHarness, type JobsHarness } from './support/jobs-harness.js';
import { buttonsOf, pressButton, results, shownText } from './support/result-messages.js';
import { eventually } from '@genbot/test-servers';
import { jobFinished } from '../support/job-finished.js';

let harness: JobsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const CHANNEL = 'C1';

/** The store's parts as plain properties, so a test can put one of its own in their place. */
function pickStore(store: Store): Store {
  return {
    jobs: store.jobs,
    versions: store.versions,
    usage: store.usage,
    settings: store.settings,
    threads: store.threads,
    installations: store.installations,
    sweep: (options) => store.sweep(options),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

/** Imagines `prompt` as U1 and resolves with the result's file message once its job finished. */
async function imagined(h: JobsHarness, prompt: string): Promise<SlackMessage> {
  const run = await h.slack.userRunsCommand({ user: 'U1', channel: CHANNEL, command: '/imagine', text: prompt });
  const id = `slack-cmd-${run.triggerId}`;
  await jobFinished(h.store, id);
  const found = results(h.slack, CHANNEL).at(-1);
  if (found === undefined) throw new Error('no result');
  return found;
}

/** The result in the thread of `result` after `count` others, once its versions know the message that shows them. */
async function nthInThread(h: JobsHarness, result: SlackMessage, count: number): Promise<SlackMessage> {
  const found = await h.slack.waitFor(() => results(h.slack, CHANNEL, result.ts)[count], 30_000);
  await eventually(async () =>
    (await h.store.versions.byMessage('slack', CHANNEL, found.ts)).length > 0 ? true : undefined,
  );
  return found;
}

/** The bot's messages in the channel itself (`threadTs` undefined), or the replies in one thread. */
function botMessages(slack: SlackFake, threadTs?: string): SlackMessage[] {
  const inChannel = (message: SlackMessage) => message.threadTs === undefined || message.threadTs === message.ts;
  return slack.workspace
    .botMessages(slack.identity.botUserId, { channel: CHANNEL })
    .filter((message) =>
      threadTs === undefined ? inChannel(message) : message.threadTs === threadTs && message.ts !== threadTs,
    );
}

function ephemeralFor(slack: SlackFake, user: string, text: string) {
  return slack.waitFor(
    (ws) => ws.ephemerals.find((ephemeral) => ephemeral.user === user && ephemeral.text === text),
    30_000,
  );
}

describe('buttons under Slack results (real Bolt, the fake, a SQLite store)', () => {
  it('puts Re-roll, Vary and Edit on the result’s file message, which the version records', async () => {
    harness = await startJobsHarness();
    const result = await imagined(harness, 'a red kite');
    expect(shownText(result)).toBe('🎨 “a red kite”');
    expect(buttonsOf(result).map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit']);
    const shown = await harness.store.versions.byMessage('slack', CHANNEL, result.ts);
    expect(shown.map((version) => [version.index, version.fileId])).toEqual([[0, result.fileIds[0]]]);
  });

  it('leaves one message per job: the progress message gives way to the result, after /imagine and after a press', async () => {
    harness = await startJobsHarness();
    const { slack } = harness;
    const result = await imagined(harness, 'a red kite');
    // The channel holds the result alone; the progress message was shown while it worked, then deleted.
    await slack.waitFor(() => (botMessages(slack).length === 1 ? true : undefined));
    expect(botMessages(slack).map((message) => message.ts)).toEqual([result.ts]);
    expect(slack.workspace.deleted.map((message) => message.text)).toEqual([copy.imagining('a red kite')]);

    const press = await pressButton(slack, result, 'Vary');
    await jobFinished(harness.store, `slack-act-${press.triggerId}`);
    const varied = await nthInThread(harness, result, 0);
    await slack.waitFor(() => (botMessages(slack, result.ts).length === 1 ? true : undefined));
    expect(botMessages(slack, result.ts).map((message) => message.ts)).toEqual([varied.ts]);
    expect(botMessages(slack).map((message) => message.ts)).toEqual([result.ts]);
    expect(slack.workspace.deleted.at(-1)?.threadTs).toBe(result.ts);
  });

  it('points at the result from the progress message when Slack refuses to delete it', async () => {
    harness = await startJobsHarness();
    const { slack } = harness;
    slack.rateLimit({ method: 'chat.delete', failNext: 1 });
    const result = await imagined(harness, 'a blue kite');
    await slack.waitFor(() =>
      botMessages(slack).some((message) => message.text === copy.resultBelow) ? true : undefined,
    );
    expect(botMessages(slack).map((message) => shownText(message))).toEqual([copy.resultBelow, shownText(result)]);
  });

  it('numbers versions per image in the order they are made: two variations of v1 are v2 and v3', async () => {
    harness = await startJobsHarness();
    const { slack } = harness;
    const first = await imagined(harness, 'a paper boat');
    await jobFinished(harness.store, `slack-act-${(await pressButton(slack, first, 'Vary')).triggerId}`);
    const v2 = await nthInThread(harness, first, 0);
    await jobFinished(harness.store, `slack-act-${(await pressButton(slack, first, 'Vary')).triggerId}`);
    const v3 = await nthInThread(harness, first, 1);
    expect([shownText(v2), shownText(v3)]).toEqual([copy.variedComment(2, 1), copy.variedComment(3, 1)]);
    // Undo on v3 shows v1 again, under its own number; Vary on v2 goes on counting in the tree.
    await pressButton(slack, v3, 'Undo');
    expect(shownText(await nthInThread(harness, first, 2))).toBe(copy.restoredComment(1, 3));
    await pressButton(slack, v2, 'Vary');
    expect(shownText(await nthInThread(harness, first, 3))).toBe(copy.variedComment(4, 2));
  });

  it('a press that comes as the result shows, before its versions know where it is, is served once they do', async () => {
    const store = await openStore('sqlite::memory:');
    // Holds the record that tells where the first result's image is, until the press is in.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inner = store.versions;
    const versions: ImageVersionStore = {
      record: async (version) => {
        if (version.fileId !== undefined && version.parent === undefined) await held;
        return inner.record(version);
      },
      get: (key) => inner.get(key),
      byRef: (ref) => inner.byRef(ref),
      byMessage: (platform, channel, message) => inner.byMessage(platform, channel, message),
      latestInThread: (platform, channel, thread) => inner.latestInThread(platform, channel, thread),
    };
    harness = await startJobsHarness({ store: { ...pickStore(store), versions } });
    const { slack } = harness;
    await slack.userRunsCommand({ user: 'U1', channel: CHANNEL, command: '/imagine', text: 'a red kite' });
    const shown = await slack.waitFor(() => results(slack, CHANNEL)[0], 30_000);
    const press = await pressButton(slack, shown, 'Vary');
    const pressJob = `slack-act-${press.triggerId}`;
    // Taken as a job (not refused as a gone button) while the result's record still waits.
    await eventually(async () => ((await harness!.store.jobs.get(pressJob)) === undefined ? undefined : true));
    expect(slack.workspace.ephemerals.map((ephemeral) => ephemeral.text)).not.toContain(copy.buttonGone);
    expect(results(slack, CHANNEL, shown.ts)).toEqual([]);
    release();
    const varied = await nthInThread(harness, shown, 0);
    expect(shownText(varied)).toBe(copy.variedComment(2, 1));
    await jobFinished(harness.store, pressJob);
    expect((await harness.store.jobs.get(pressJob))?.outcome).toBe('done');
  });

  it('numbers Vary and Edit when the result has several images, and names the image in Edit’s form', async () => {
    harness = await startJobsHarness();
    const { slack } = harness;
    const result = await imagined(harness, 'two kites [images:2]');
    expect(buttonsOf(result).map((button) => button.label)).toEqual([
      'Re-roll',
      'Vary 1',
      'Vary 2',
      'Edit 1',
      'Edit 2',
    ]);
    await pressButton(slack, result, 'Edit 2');
    const form = await slack.waitFor(() => slack.views.find((view) => view.open));
    expect(form.view).toMatchObject({ title: { text: copy.editFormTitleImage(2) } });
  });

  it('Vary, Edit (with its form), Undo and Re-roll each answer in the result’s thread, for whoever pressed', async () => {
    harness = await startJobsHarness();
    const { slack } = harness;
    const first = await imagined(harness, 'a lighthouse at dawn');

    await pressButton(slack, first, 'Vary');
    const varied = await nthInThread(harness, first, 0);
    expect(shownText(varied)).toBe('🔀 v2 · from v1 · variation');
    expect(buttonsOf(varied).map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit', 'Undo']);
    // The clicked result keeps its images and its buttons.
    expect(slack.workspace.message(CHANNEL, first.ts)?.blocks).toEqual(first.blocks);
    // Its progress was shown in that thread too, then gave way to the result.
    const progress = await slack.waitFor((ws) => ws.deleted.find((message) => message.threadTs === first.ts));
    expect(progress.text).toBe(copy.varying(1));

    await pressButton(slack, varied, 'Edit');
    const form = await slack.waitFor(() => slack.views.find((view) => view.open && view.user === 'U2'));
    expect(form.view).toMatchObject({
      title: { text: copy.editFormTitleVersion(2) },
      submit: { text: copy.editFormSubmit },
    });
    const empty = await slack.userSubmitsView({ user: 'U2', viewId: form.id, text: '   ' });
    expect(empty).toMatchObject({ closed: false, errors: { instruction: copy.emptyInstruction } });
    const sent = await slack.userSubmitsView({ user: 'U2', viewId: form.id, text: 'make it blue' });
    expect(sent.closed).toBe(true);
    const edited = await nthInThread(harness, first, 1);
    expect(shownText(edited)).toBe('🖌️ v3 · from v2 · “make it blue”');

    const servedBefore = harness.emulator.requests.length;
    await pressButton(slack, edited, 'Undo');
    const restored = await nthInThread(harness, first, 2);
    expect(shownText(restored)).toBe('↩️ v2 again · undo of v3');
    expect(slack.workspace.files.get(restored.fileIds[0] ?? '')?.bytes).toEqual(
      slack.workspace.files.get(varied.fileIds[0] ?? '')?.bytes,
    );
    expect(harness.emulator.requests).toHaveLength(servedBefore);
    expect(buttonsOf(restored).map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit', 'Undo']);

    // The same edit of v2 again: a new version, the tree's next number.
    await pressButton(slack, edited, 'Re-roll');
    const rerolled = await nthInThread(harness, first, 3);
    expect(shownText(rerolled)).toBe('🖌️ v4 · from v2 · “make it blue”');

    // Vary, Edit and Re-roll made an image each, counted for the presser; Undo called no model.
    await eventually(async () => {
      const { today } = await harness!.store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U2' });
      return today.images === 3 ? true : undefined;
    });
    expect(
      (await harness.store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U1' })).today.images,
    ).toBe(1);
  });

  it('a form sent twice is one job, and the second sending is told so privately', async () => {
    harness = await startJobsHarness();
    const { slack } = harness;
    const first = await imagined(harness, 'a quiet harbour');
    await pressButton(slack, first, 'Edit');
    const form = await slack.waitFor(() => slack.views.find((view) => view.open));
    await Promise.all([
      slack.userSubmitsView({ user: 'U2', viewId: form.id, text: 'add a moon' }),
      slack.userSubmitsView({ user: 'U2', viewId: form.id, text: 'add a moon' }),
    ]);
    await ephemeralFor(slack, 'U2', copy.formAlreadySent);
    await nthInThread(harness, first, 0);
    await eventually(async () => ((await harness!.store.jobs.unfinished(['slack'])).length === 0 ? true : undefined));
    expect(await harness.store.jobs.get(`slack-form-${form.id}`)).toMatchObject({ kind: 'edit', outcome: 'done' });
    expect(results(slack, CHANNEL, first.ts)).toHaveLength(1);
  });
});
