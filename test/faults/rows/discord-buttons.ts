import { copy } from '@genbot/core/copy';
import { openStore } from '@genbot/store';
import { eventually } from '@genbot/test-servers';
import { expect } from 'vitest';
import { type Harness, storedResultOf } from '../../discord/support/harness.js';
import { answered, buttonsOf, originalText, press, resultOf } from '../../discord/support/results.js';

export interface DiscordButtonRowContext {
  /** The Discord bot on the jobs floor: its results carry buttons. */
  h: Harness;
  /** The row's own channel. */
  channelId: string;
  /** A channel of no row, where a row may carry a result's buttons. */
  elsewhereId: string;
  /** The bot's store, to open as another replica would. */
  databaseUrl: string;
}

/** One line of the button fault table on Discord: bad input at a button or its form, and what the presser sees. */
export interface DiscordButtonRow {
  name: string;
  run(ctx: DiscordButtonRowContext): Promise<void>;
}

const USER = 'ada';

async function imagined(h: Harness, channelId: string, prompt: string) {
  const started = h.fake.userRunsCommand({ user: USER, channelId, name: 'imagine', options: { prompt } });
  return { started, result: await storedResultOf(h, started) };
}

function modelCalls(h: Harness): number {
  return h.emulator.requests.filter((request) => request.path.includes(':generateContent')).length;
}

/** A press answered privately with `text`, and nothing sent to the service meanwhile. */
async function expectPrivateAnswer(h: Harness, started: ReturnType<typeof press>, text: string): Promise<void> {
  const answer = await answered(h.fake, started);
  expect([answer.responseType, answer.ephemeral, originalText(h.fake, answer)]).toEqual([4, true, text]);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Posts, as the bot, a message whose buttons carry these ids: what an older deploy or a forger might leave. */
async function botMessageWithButtons(h: Harness, channelId: string, ids: readonly string[]): Promise<string> {
  const response = await fetch(`${h.fake.apiUrl}/v10/channels/${channelId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bot ${h.fake.botToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      content: 'an old result',
      components: [{ type: 1, components: ids.map((id) => ({ type: 2, style: 2, custom_id: id, label: id })) }],
    }),
  });
  const message = (await response.json()) as { id: string };
  return message.id;
}

export const discordButtonRows: DiscordButtonRow[] = [
  {
    name: 'buttons with ids the bot did not make (forged, or of another shape): a short private answer, nothing sent',
    async run(ctx) {
      const { h, channelId } = ctx;
      const ids = ['gb1:v:AAAAAAAAAAAAAAAA', 'gb1:x:AAAAAAAAAAAAAAAA', 'not-ours'];
      const messageId = await botMessageWithButtons(h, channelId, ids);
      const calls = modelCalls(h);
      for (const customId of ids) {
        const started = h.fake.userClicks({ user: USER, channelId, messageId, customId });
        await expectPrivateAnswer(h, started, copy.buttonGone);
      }
      expect(modelCalls(h)).toBe(calls);
    },
  },
  {
    name: 'a result’s button copied onto another app’s message, another of the bot’s, or into another channel: a short private answer, nothing sent',
    async run(ctx) {
      const { h, channelId, elsewhereId } = ctx;
      const { result } = await imagined(h, channelId, 'a private garden');
      const ids = buttonsOf(result).map((button) => button.id);
      const copies = [
        h.fake.appPosts({ app: 'copycat', channelId: elsewhereId, content: 'look', buttonIds: ids }).id,
        h.fake.appPosts({ app: 'copycat', channelId, content: 'and here', buttonIds: ids }).id,
      ];
      const onOwn = [
        { channelId: elsewhereId, messageId: await botMessageWithButtons(h, elsewhereId, ids) },
        { channelId, messageId: await botMessageWithButtons(h, channelId, ids) },
      ];
      const calls = modelCalls(h);
      const edit = buttonsOf(result).find((button) => button.label === copy.buttonEdit())?.id;
      for (const where of [
        { channelId: elsewhereId, messageId: copies[0] ?? '' },
        { channelId, messageId: copies[1] ?? '' },
      ]) {
        // Edit opens no form either: the answer is the refusal itself.
        for (const customId of ids) {
          await expectPrivateAnswer(h, h.fake.userClicks({ user: USER, ...where, customId }), copy.pressNotOnResult);
        }
      }
      for (const where of onOwn) {
        for (const customId of ids.filter((id) => id !== edit)) {
          await expectPrivateAnswer(h, h.fake.userClicks({ user: USER, ...where, customId }), copy.pressNotOnResult);
        }
        // On the bot's own message Edit's form opens at once, as on a result; its submit is refused.
        const opened = await answered(h.fake, h.fake.userClicks({ user: USER, ...where, customId: edit ?? '' }));
        expect(opened.responseType).toBe(9);
        const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it blue' } });
        await expectPrivateAnswer(h, submit, copy.pressNotOnResult);
      }
      expect(modelCalls(h)).toBe(calls);
      // No image reached the other channel, and no new result this one.
      const images = (id: string) => h.fake.state.messages(id).filter((message) => message.attachments.length > 0);
      expect(images(elsewhereId)).toEqual([]);
      expect(images(channelId)).toEqual([result]);
      // The result itself still answers its own buttons.
      const vary = press(h.fake, USER, result, copy.buttonVary());
      await resultOf(h.fake, vary);
      expect(modelCalls(h)).toBe(calls + 1);
    },
  },
  {
    name: 'a button whose record is past retention: a short private answer, nothing sent; Edit’s form too',
    async run(ctx) {
      const { h, channelId } = ctx;
      const { result } = await imagined(h, channelId, 'a kite past its time');
      // The hourly sweep, keeping a day, on a replica whose clock is a day and a minute on: the result's versions go.
      const later = await openStore(ctx.databaseUrl, { now: () => new Date(Date.now() + DAY_MS + 60_000) });
      try {
        await later.sweep({ olderThanDays: 1 });
      } finally {
        await later.close();
      }
      expect(await h.store.versions.byMessage('discord', channelId, result.id)).toEqual([]);
      const calls = modelCalls(h);
      await expectPrivateAnswer(h, press(h.fake, USER, result, copy.buttonVary()), copy.buttonGone);
      // Edit opens its form at once; the record is checked on submit.
      const opened = await answered(h.fake, press(h.fake, USER, result, copy.buttonEdit()));
      expect(opened.responseType).toBe(9);
      const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it blue' } });
      await expectPrivateAnswer(h, submit, copy.buttonGone);
      expect(modelCalls(h)).toBe(calls);
      // The result itself is left as it was.
      expect(buttonsOf(result)).toHaveLength(3);
    },
  },
  {
    name: 'an edit form submitted twice before the bot answered: one edit, the second told privately',
    async run(ctx) {
      const { h, channelId } = ctx;
      const { result } = await imagined(h, channelId, 'a red door');
      const opened = await answered(h.fake, press(h.fake, USER, result, copy.buttonEdit()));
      const calls = modelCalls(h);
      const first = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it blue' } });
      const second = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it blue' } });
      const answers = await Promise.all([answered(h.fake, first), answered(h.fake, second)]);
      const publicAnswer = answers.find((answer) => !answer.ephemeral);
      const privateAnswer = answers.find((answer) => answer.ephemeral);
      expect(publicAnswer?.responseType).toBe(5);
      expect(privateAnswer && originalText(h.fake, privateAnswer)).toBe(copy.formAlreadySent);
      if (publicAnswer === undefined) throw new Error('no public answer');
      const edited = await resultOf(h.fake, publicAnswer);
      expect(edited.content).toBe(copy.editedComment(2, 1, 'make it blue'));
      expect(modelCalls(h)).toBe(calls + 1);
    },
  },
  {
    name: 'an Edit form with only spaces (Discord keeps Submit off only while it is empty): a short private answer',
    async run(ctx) {
      const { h, channelId } = ctx;
      const { result } = await imagined(h, channelId, 'a white wall');
      const opened = await answered(h.fake, press(h.fake, USER, result, copy.buttonEdit()));
      const calls = modelCalls(h);
      const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: '   ' } });
      await expectPrivateAnswer(h, submit, copy.emptyInstruction);
      expect(modelCalls(h)).toBe(calls);
    },
  },
  {
    name: 'a press delivered twice (a gateway resume): one job, answered once',
    async run(ctx) {
      const { h, channelId } = ctx;
      const { result } = await imagined(h, channelId, 'a green boat');
      const calls = modelCalls(h);
      const started = press(h.fake, USER, result, copy.buttonVary());
      await answered(h.fake, started);
      h.fake.redeliver({ interactionId: started.id });
      await resultOf(h.fake, started);
      await eventually(async () => (await h.store.jobs.get(`dc-int-${started.id}`))?.state === 'finished', {
        what: 'the Vary job finished',
      });
      expect(modelCalls(h)).toBe(calls + 1);
      expect(h.fake.state.interaction(started.id)?.followUpMessageIds).toEqual([]);
      expect(h.fake.state.refusals.filter((refusal) => refusal.code === 40060)).toHaveLength(0);
    },
  },
  {
    name: 'Edit’s form answered too late (Discord’s 3 s passed): nothing is posted, and the next press opens it',
    async run(ctx) {
      const { h, channelId } = ctx;
      const { result } = await imagined(h, channelId, 'a yellow tent');
      const late = h.fake.lateCallbacks({ times: 1 });
      const first = press(h.fake, USER, result, copy.buttonEdit());
      await h.fake.waitFor((state) => state.interaction(first.id)?.status === 'expired');
      late.off();
      const messages = h.fake.state.messages(channelId).length;
      const again = await answered(h.fake, press(h.fake, USER, result, copy.buttonEdit()));
      expect(again.responseType).toBe(9);
      expect(h.fake.state.messages(channelId)).toHaveLength(messages);
    },
  },
  {
    name: 'Undo of a version whose message was deleted: the new result says the image was deleted',
    async run(ctx) {
      const { h, channelId } = ctx;
      const { result: v1 } = await imagined(h, channelId, 'a blue bird');
      const opened = await answered(h.fake, press(h.fake, USER, v1, copy.buttonEdit()));
      const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it red' } });
      const v2 = await storedResultOf(h, submit);
      // A moderator deletes the first result.
      h.fake.userDeletes({ channelId, messageId: v1.id });
      const calls = modelCalls(h);
      const undo = press(h.fake, USER, v2, copy.buttonUndo);
      const answer = await answered(h.fake, undo);
      expect([answer.responseType, answer.ephemeral]).toEqual([5, false]);
      const said = copy.fileUnavailable(copy.versionName(1), 'deleted');
      await h.fake.waitFor(() => (originalText(h.fake, answer) === said ? true : undefined), 15_000);
      expect(modelCalls(h)).toBe(calls);
    },
  },
];
