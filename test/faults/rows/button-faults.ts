import { copy } from '@genbot/core/copy';
import type { RecordedRequest } from '@genbot/emulator';
import type { SlackMessage } from '@genbot/fakes';
import { eventually } from '@genbot/test-servers';
import { expect } from 'vitest';
import type { JobsHarness } from '../../slack/support/jobs-harness.js';
import { buttonsOf, pressButton, results, shownText } from '../../slack/support/result-messages.js';

export interface ButtonRowContext {
  h: JobsHarness;
  /** The row's own channel. */
  channel: string;
  /** What reached the service since the row began. */
  requests(): RecordedRequest[];
}

/** One line of the button fault table: bad input at a button or its form, and what the presser sees. */
export interface ButtonRow {
  name: string;
  run(ctx: ButtonRowContext): Promise<void>;
}

/** /imagine as U1 in the row's channel (or `channel`); the result once its job finished (its versions recorded). */
async function imagined(ctx: ButtonRowContext, prompt: string, channel = ctx.channel): Promise<SlackMessage> {
  const run = await ctx.h.slack.userRunsCommand({ user: 'U1', channel, command: '/imagine', text: prompt });
  await eventually(async () => (await ctx.h.store.jobs.get(`slack-cmd-${run.triggerId}`))?.state === 'finished', {
    timeoutMs: 30_000,
    what: `the /imagine of “${prompt}” finished`,
  });
  const result = results(ctx.h.slack, channel).at(-1);
  if (result === undefined) throw new Error('no result');
  return result;
}

/** The private answer `user` got in the channel (the row's, or `channel`) with exactly this text. */
function privately(ctx: ButtonRowContext, user: string, text: string, channel = ctx.channel) {
  return ctx.h.slack.waitFor(
    (ws) => ws.ephemerals.find((e) => e.channel === channel && e.user === user && e.text === text),
    30_000,
  );
}

/** Nothing runs and nothing is unfinished: every job of the row ended. */
async function settledJobs(ctx: ButtonRowContext): Promise<void> {
  await eventually(async () => (await ctx.h.store.jobs.unfinished(['slack'])).length === 0, {
    timeoutMs: 30_000,
    what: 'every Slack job finished',
  });
}

export const buttonFaultRows: ButtonRow[] = [
  {
    name: 'forged button id (not one the bot made): a private answer, nothing sent, no job',
    async run(ctx) {
      const result = await imagined(ctx, 'a lantern');
      const before = ctx.requests().length;
      for (const forged of ['gb1:v:AAAAAAAAAAAAAAAA', 'gb1:zz', 'somebody-elses-button']) {
        await ctx.h.slack.userPresses({
          user: 'U2',
          channel: ctx.channel,
          ts: result.ts,
          actionId: forged,
          forgedValue: forged,
        });
      }
      await ctx.h.slack.waitFor(
        (ws) => ws.ephemerals.filter((e) => e.channel === ctx.channel && e.text === copy.buttonGone).length === 2,
        30_000,
      );
      await settledJobs(ctx);
      expect(ctx.requests()).toHaveLength(before);
      expect(results(ctx.h.slack, ctx.channel, result.ts)).toEqual([]);
    },
  },
  {
    name: 'a result’s button copied onto a message the bot did not make, or into another channel: a private answer, nothing sent, no job',
    async run(ctx) {
      const result = await imagined(ctx, 'a private garden');
      const elsewhere = `${ctx.channel}X`;
      const there = await imagined(ctx, 'a public square', elsewhere);
      const before = ctx.requests().length;
      const viewsBefore = ctx.h.slack.views.length;
      const copied = (label: string) => buttonsOf(result).find((button) => button.label === label)?.actionId ?? '';
      // A person's message in another channel and in the result's own, carrying the result's buttons.
      const theirs = await ctx.h.slack.userSays({ user: 'U3', channel: elsewhere, text: 'look what I found' });
      const nextToIt = await ctx.h.slack.userSays({ user: 'U3', channel: ctx.channel, text: 'and here' });
      // The bot's own result in the other channel, carrying this result's buttons.
      const presses = [
        { channel: elsewhere, ts: theirs.ts, label: 'Vary' },
        { channel: elsewhere, ts: theirs.ts, label: 'Edit' },
        { channel: ctx.channel, ts: nextToIt.ts, label: 'Re-roll' },
        { channel: elsewhere, ts: there.ts, label: 'Vary' },
      ];
      for (const { channel, ts, label } of presses) {
        const actionId = copied(label);
        await ctx.h.slack.userPresses({ user: 'U2', channel, ts, actionId, forgedValue: actionId });
      }
      const refusals = (channel: string) =>
        ctx.h.slack.workspace.ephemerals.filter(
          (e) => e.channel === channel && e.user === 'U2' && e.text === copy.pressNotOnResult,
        ).length;
      await ctx.h.slack.waitFor(() => refusals(elsewhere) === 3 && refusals(ctx.channel) === 1, 30_000);
      expect(ctx.h.slack.views).toHaveLength(viewsBefore);
      // On the bot's own message Edit's form opens at once, as on a result; its submit is refused.
      const edit = copied('Edit');
      await ctx.h.slack.userPresses({
        user: 'U2',
        channel: elsewhere,
        ts: there.ts,
        actionId: edit,
        forgedValue: edit,
      });
      const form = await ctx.h.slack.waitFor(() =>
        ctx.h.slack.views.find((view, index) => index >= viewsBefore && view.open && view.user === 'U2'),
      );
      expect(await ctx.h.slack.userSubmitsView({ user: 'U2', viewId: form.id, text: 'make it blue' })).toMatchObject({
        closed: true,
      });
      await ctx.h.slack.waitFor(() => refusals(elsewhere) === 4, 30_000);
      await settledJobs(ctx);
      expect(ctx.requests()).toHaveLength(before);
      expect(results(ctx.h.slack, elsewhere)).toEqual([there]);
      expect(results(ctx.h.slack, ctx.channel)).toEqual([result]);
      // The result itself still answers its own buttons.
      await pressButton(ctx.h.slack, result, 'Vary');
      await ctx.h.slack.waitFor(() => results(ctx.h.slack, ctx.channel, result.ts)[0], 30_000);
      await settledJobs(ctx);
      expect(ctx.requests().length - before).toBe(1);
    },
  },
  {
    name: 'stale button (its record gone past retention): a private answer, nothing sent',
    async run(ctx) {
      const result = await imagined(ctx, 'a paper boat');
      await ctx.h.store.sweep({ olderThanDays: 0 });
      const before = ctx.requests().length;
      await pressButton(ctx.h.slack, result, 'Vary');
      await privately(ctx, 'U2', copy.buttonGone);
      await pressButton(ctx.h.slack, result, 'Edit');
      const form = await ctx.h.slack.waitFor(() => ctx.h.slack.views.find((view) => view.open && view.user === 'U2'));
      const sent = await ctx.h.slack.userSubmitsView({ user: 'U2', viewId: form.id, text: 'make it blue' });
      expect(sent.closed).toBe(true);
      await ctx.h.slack.waitFor(
        (ws) => ws.ephemerals.filter((e) => e.channel === ctx.channel && e.text === copy.buttonGone).length === 2,
        30_000,
      );
      await settledJobs(ctx);
      expect(ctx.requests()).toHaveLength(before);
    },
  },
  {
    name: 'the same button pressed twice while the first press runs: one job, the second told privately',
    async run(ctx) {
      const result = await imagined(ctx, 'a slow sunrise [fault:slow=1500]');
      const before = ctx.requests().length;
      await pressButton(ctx.h.slack, result, 'Re-roll');
      await pressButton(ctx.h.slack, result, 'Re-roll');
      await privately(ctx, 'U2', copy.alreadyRunning);
      await ctx.h.slack.waitFor(() => results(ctx.h.slack, ctx.channel, result.ts)[0], 30_000);
      await settledJobs(ctx);
      expect(results(ctx.h.slack, ctx.channel, result.ts)).toHaveLength(1);
      expect(ctx.requests().length - before).toBe(1);
    },
  },
  {
    name: 'a form submitted twice: one edit, the second sending told privately',
    async run(ctx) {
      const result = await imagined(ctx, 'a tall tree');
      await pressButton(ctx.h.slack, result, 'Edit');
      const form = await ctx.h.slack.waitFor(() => ctx.h.slack.views.find((view) => view.open && view.user === 'U2'));
      await ctx.h.slack.userSubmitsView({ user: 'U2', viewId: form.id, text: 'add snow' });
      await ctx.h.slack.userSubmitsView({ user: 'U2', viewId: form.id, text: 'add snow' });
      await privately(ctx, 'U2', copy.formAlreadySent);
      await ctx.h.slack.waitFor(() => results(ctx.h.slack, ctx.channel, result.ts)[0], 30_000);
      await settledJobs(ctx);
      expect(results(ctx.h.slack, ctx.channel, result.ts).map(shownText)).toEqual(['🖌️ v2 · from v1 · “add snow”']);
    },
  },
  {
    name: 'an empty instruction: the form stays open with the error, nothing sent',
    async run(ctx) {
      const result = await imagined(ctx, 'a red door');
      const before = ctx.requests().length;
      await pressButton(ctx.h.slack, result, 'Edit');
      const form = await ctx.h.slack.waitFor(() => ctx.h.slack.views.find((view) => view.open && view.user === 'U2'));
      const sent = await ctx.h.slack.userSubmitsView({ user: 'U2', viewId: form.id, text: ' \n ' });
      expect(sent).toMatchObject({ closed: false, errors: { instruction: copy.emptyInstruction } });
      await settledJobs(ctx);
      expect(ctx.requests()).toHaveLength(before);
    },
  },
  {
    name: 'the form takes too long to open (trigger expired): a private answer, nothing sent',
    async run(ctx) {
      const result = await imagined(ctx, 'a blue bird');
      const before = ctx.requests().length;
      const viewsBefore = ctx.h.slack.views.length;
      const restore = ctx.h.slack.expireTriggers();
      try {
        await pressButton(ctx.h.slack, result, 'Edit');
        await privately(ctx, 'U2', copy.formTimedOut);
      } finally {
        restore();
      }
      expect(ctx.h.slack.views).toHaveLength(viewsBefore);
      expect(ctx.requests()).toHaveLength(before);
    },
  },
  {
    name: 'a version whose file was deleted on the platform: Vary says so in the thread, nothing sent',
    async run(ctx) {
      const result = await imagined(ctx, 'a green hill');
      ctx.h.slack.userDeletesFile(result.fileIds[0] ?? '');
      const before = ctx.requests().length;
      await pressButton(ctx.h.slack, result, 'Vary');
      const answer = copy.fileUnavailable(copy.versionName(1), 'deleted');
      await ctx.h.slack.waitFor(
        (ws) => ws.botMessages('UBOT', { channel: ctx.channel, threadTs: result.ts }).find((m) => m.text === answer),
        30_000,
      );
      await settledJobs(ctx);
      expect(ctx.requests()).toHaveLength(before);
      expect(results(ctx.h.slack, ctx.channel, result.ts)).toEqual([]);
    },
  },
  {
    name: 'Undo on a first version (a hand-made payload): a private answer, nothing shown',
    async run(ctx) {
      const result = await imagined(ctx, 'a white cat');
      const vary = buttonsOf(result).find((button) => button.label === 'Vary');
      const undo = (vary?.actionId ?? '').replace(/^gb1:v:/, 'gb1:u:');
      await ctx.h.slack.userPresses({
        user: 'U2',
        channel: ctx.channel,
        ts: result.ts,
        actionId: undo,
        forgedValue: undo,
      });
      await privately(ctx, 'U2', copy.nothingToUndo);
      await settledJobs(ctx);
      expect(results(ctx.h.slack, ctx.channel, result.ts)).toEqual([]);
    },
  },
  {
    name: 'a press with a bad signature: refused with 401, nothing happens',
    async run(ctx) {
      const result = await imagined(ctx, 'a grey stone');
      const vary = buttonsOf(result).find((button) => button.label === 'Vary');
      const press = await ctx.h.slack.userPresses({
        user: 'U2',
        channel: ctx.channel,
        ts: result.ts,
        actionId: vary?.actionId ?? '',
        signature: 'invalid',
      });
      expect(press.delivery.attempts[0]).toMatchObject({ acked: false, status: 401 });
      await settledJobs(ctx);
      expect(results(ctx.h.slack, ctx.channel, result.ts)).toEqual([]);
    },
  },
];
