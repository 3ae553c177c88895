import { copy } from '@genbot/core/copy';
import type { OperatorSettings } from '@genbot/core/settings';
import type { SlackFake, SlackView } from '@genbot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startJobsHarness, type JobsHarness } from './support/jobs-harness.js';

/** Two models of each kind to choose from, and the operator's budgets: what a workspace may only lower. */
const OPERATOR: OperatorSettings = {
  chatModels: ['claude-e2e', 'claude-e2e-large'],
  imageModels: ['gemini-image-e2e', 'gemini-image-e2e-pro'],
  chatModel: 'claude-e2e',
  imageModel: 'gemini-image-e2e',
  systemPrompt: undefined,
  budgetImagesPerDay: 100,
  budgetChatTokensPerDay: 50_000,
};

/** U1 a member, U2 a workspace admin, U3 an owner, U7 a member the operator made an admin (ADMIN_USER_IDS). */
const MEMBER = 'U1';
const ADMIN = 'U2';
const OWNER = 'U3';
const OPERATORS_ADMIN = 'U7';

let harness: JobsHarness;
let slack: SlackFake;

beforeAll(async () => {
  harness = await startJobsHarness({ settings: { operator: OPERATOR, adminUserIds: [OPERATORS_ADMIN] } });
  slack = harness.slack;
  slack.workspace.setRole(ADMIN, 'admin');
  slack.workspace.addUser({ id: OWNER, name: 'carol', role: 'owner' });
  slack.workspace.addUser({ id: OPERATORS_ADMIN, name: 'gus' });
});
afterAll(async () => {
  await harness.close();
});

/** `/genbot TEXT` by `user` in `channel`: the private answer it was acknowledged with. */
async function genbot(user: string, channel: string, text: string): Promise<string> {
  const before = slack.workspace.ephemerals.length;
  const run = await slack.userRunsCommand({ user, channel, command: '/genbot', text });
  expect(run.delivery.attempts[0]?.acked).toBe(true);
  const answer = slack.workspace.ephemerals
    .slice(before)
    .find((each) => each.user === user && each.source === 'command_ack');
  if (answer === undefined) throw new Error(`/genbot ${text}: no private answer`);
  return answer.text;
}

/** What the store holds for a channel and its workspace, by setting. */
async function stored(channelId: string) {
  return harness.store.settings.place({ platform: 'slack', workspaceId: 'T1', channelId });
}

/** How many changes are recorded for a channel and its workspace. */
async function changeCount(channelId: string): Promise<number> {
  return (await harness.store.settings.changes({ platform: 'slack', workspaceId: 'T1', channelId }, 1_000)).length;
}

/** The latest private answer `user` got in `channel` from the bot's chat.postEphemeral. */
function posted(user: string, channel: string, after: number) {
  return slack.waitFor((ws) =>
    ws.ephemerals
      .slice(after)
      .find((each) => each.user === user && each.channel === channel && each.source === 'chat.postEphemeral'),
  );
}

/** Opens the settings form as `user` in `channel`; resolves with the modal. */
async function openForm(user: string, channel: string): Promise<SlackView> {
  const before = new Set(slack.views.map((view) => view.id));
  const acksBefore = slack.workspace.ephemerals.length;
  await slack.userRunsCommand({ user, channel, command: '/genbot', text: '' });
  const view = await slack.waitFor(() => slack.views.find((each) => !before.has(each.id) && each.open));
  expect(view.user).toBe(user);
  const answered = slack.workspace.ephemerals.slice(acksBefore).filter((each) => each.source === 'command_ack');
  expect(answered).toEqual([]);
  return view;
}

const block = z.looseObject({ type: z.string(), block_id: z.string().optional() });
const option = z.looseObject({ text: z.looseObject({ text: z.string() }), value: z.string() });
const select = z.looseObject({ type: z.literal('static_select'), options: z.array(option), initial_option: option });
const textInput = z.looseObject({
  type: z.literal('plain_text_input'),
  max_length: z.number().optional(),
  initial_value: z.string().optional(),
  placeholder: z.looseObject({ text: z.string() }),
});
const input = z.looseObject({ type: z.literal('input'), element: z.unknown() });

function blocksOf(view: SlackView) {
  return z.array(block).parse(view.view.blocks);
}

function blockOf(view: SlackView, id: string) {
  const found = blocksOf(view).find((each) => each.block_id === id);
  if (found === undefined) throw new Error(`no block ${id}`);
  return found;
}

const selectOf = (view: SlackView, id: string) => select.parse(input.parse(blockOf(view, id)).element);
const textInputOf = (view: SlackView, id: string) => textInput.parse(input.parse(blockOf(view, id)).element);
const value = (text: string) => ({ value: text });

describe('/genbot on Slack (real Bolt, the fake, a SQLite store)', () => {
  it("shows an admin's /usage the workspace's use and its budget beside their own; a member sees their own", async () => {
    const usage = async (user: string): Promise<string> => {
      const before = slack.workspace.ephemerals.length;
      await slack.userRunsCommand({ user, channel: 'C-usage', command: '/usage', text: '' });
      const answer = slack.workspace.ephemerals.slice(before).find((each) => each.user === user);
      if (answer === undefined) throw new Error('/usage: no private answer');
      return answer.text;
    };
    const admin = await usage(ADMIN);
    expect(admin).toContain('This workspace today:');
    expect(admin).toContain('Left of the daily budget:');
    expect(await usage(OPERATORS_ADMIN)).toContain('This workspace today:');
    expect(await usage(MEMBER)).not.toContain('This workspace');
  });

  it("gives an admin's Home tab the way into the workspace's settings; a member's has none", async () => {
    await slack.userOpensApp({ user: MEMBER, tab: 'home' });
    const members = await slack.waitFor(() => slack.aiApps.homeTab(MEMBER));
    expect(JSON.stringify(members.view)).not.toContain(copy.homeSettingsButton);

    await slack.userOpensApp({ user: ADMIN, tab: 'home' });
    const admins = await slack.waitFor(() => slack.aiApps.homeTab(ADMIN));
    expect(JSON.stringify(admins.view)).toContain(copy.homeSettingsButton);
    const before = new Set(slack.views.map((view) => view.id));
    await slack.userPressesInHomeTab({ user: ADMIN, actionId: 'genbot-settings-home' });
    const form = await slack.waitFor(() => slack.views.find((each) => !before.has(each.id) && each.open));
    expect(form.user).toBe(ADMIN);
    // The workspace's form: its budgets are there.
    expect(JSON.stringify(form.view)).toContain('budget_images_per_day');
  });

  it('lets a workspace admin set and reset a channel setting; anyone sees it with show', async () => {
    const set = await genbot(ADMIN, 'C2', 'set images 3');
    expect(set).toBe('✅ `images` in this channel is now `3` (was not set).');
    expect((await stored('C2')).images).toEqual({ channel: 3 });

    const shown = await genbot(MEMBER, 'C2', 'show');
    expect(shown).toContain('• `images`: `3` _(set for this channel)_');
    expect(shown).toContain(`UTC, <@${ADMIN}>: \`images\` in this channel → \`3\``);
    expect(shown).toContain('_Only admins can change these._');
    expect(shown).toMatch(/^\*genbot's settings in this channel\*/);

    expect(await genbot(ADMIN, 'C2', 'reset images')).toBe(
      '✅ `images` in this channel is reset (was `3`); it is now default.',
    );
    expect((await stored('C2')).images?.channel).toBeUndefined();
  });

  it('lets owners and ADMIN_USER_IDS change settings; a member is refused privately and nothing changes', async () => {
    expect(await genbot(OWNER, 'C3', 'set chat_model claude-e2e-large')).toContain('is now `claude-e2e-large`');
    expect(await genbot(OPERATORS_ADMIN, 'C3', 'set image_model gemini-image-e2e-pro')).toContain(
      'is now `gemini-image-e2e-pro`',
    );
    const count = await changeCount('C3');
    expect(await genbot(MEMBER, 'C3', 'set images 2')).toBe(copy.settingsNotAllowed('channel', 'slack'));
    expect(await genbot(MEMBER, 'C3', 'set images 2 --workspace')).toBe(copy.settingsNotAllowed('workspace', 'slack'));
    expect(await genbot(MEMBER, 'C3', 'reset chat_model')).toBe(copy.settingsNotAllowed('channel', 'slack'));
    expect(await changeCount('C3')).toBe(count);
    expect((await stored('C3')).chat_model).toEqual({ channel: 'claude-e2e-large' });
  });

  it('answers values that do not fit with what would, and changes nothing', async () => {
    const count = await changeCount('C4');
    const answers = [
      await genbot(ADMIN, 'C4', 'set colour blue'),
      await genbot(ADMIN, 'C4', 'set images 7'),
      await genbot(ADMIN, 'C4', 'set chat_model gpt-imaginary'),
      await genbot(ADMIN, 'C4', `set system_prompt ${'x'.repeat(4_001)}`),
      await genbot(ADMIN, 'C4', 'set budget_images_per_day 500 --workspace'),
      await genbot(ADMIN, 'C4', 'set budget_images_per_day 50'),
      await genbot(ADMIN, 'C4', 'frobnicate'),
    ];
    expect(answers[0]).toContain('There is no setting `colour`.');
    expect(answers.slice(1, 6)).toEqual([
      copy.settingOutOfRange('images', 1, 4),
      copy.settingNotOneOf('chat_model', OPERATOR.chatModels),
      copy.settingTooLong('system_prompt', 4_001, 4_000),
      copy.settingOutOfRange('budget_images_per_day', 0, 100),
      copy.settingWorkspaceOnly('budget_images_per_day', 'slack'),
    ]);
    expect(answers[6]).toBe(copy.genbotHelp);
    expect(await changeCount('C4')).toBe(count);
  });

  it('shows a member the settings instead of the form, and opens no modal', async () => {
    const views = slack.views.length;
    const answer = await genbot(MEMBER, 'C5', '');
    expect(answer).toMatch(/^\*genbot's settings in this channel\*/);
    expect(slack.views.length).toBe(views);
  });

  it('opens the form for an admin: each setting with what it inherits and from where; saving twice changes once', async () => {
    await genbot(ADMIN, 'C6', 'set image_model gemini-image-e2e-pro --workspace');
    const form = await openForm(ADMIN, 'C6');
    expect(blocksOf(form).map((each) => each.block_id ?? each.type)).toEqual([
      'section',
      'level',
      'chat_model',
      'image_model',
      'system_prompt',
      'aspect_ratio',
      'images',
      'enabled',
    ]);
    expect(selectOf(form, 'chat_model').initial_option.text.text).toBe('Inherit: claude-e2e (default)');
    expect(selectOf(form, 'image_model').initial_option.text.text).toBe(
      'Inherit: gemini-image-e2e-pro (from the workspace)',
    );
    expect(
      selectOf(form, 'image_model')
        .options.map((each) => each.value)
        .slice(1),
    ).toEqual(OPERATOR.imageModels);
    expect(textInputOf(form, 'system_prompt')).toMatchObject({
      max_length: 3_000,
      placeholder: { text: 'Inherit: the built-in prompt (default)' },
    });

    const values = {
      images: { value: '2' },
      enabled: { value: 'off' },
      system_prompt: { value: 'Answer in haiku.' },
    };
    const count = await changeCount('C6');
    const acks = slack.workspace.ephemerals.length;
    const first = await slack.userSubmitsView({ user: ADMIN, viewId: form.id, values });
    expect(first.closed).toBe(true);
    expect((await posted(ADMIN, 'C6', acks)).text).toBe(
      '✅ Saved: `system_prompt` → `Answer in haiku.`, `images` → `2`, `enabled` → `off`.',
    );
    expect(await changeCount('C6')).toBe(count + 3);
    const saved = await stored('C6');
    expect([saved.images?.channel, saved.enabled?.channel, saved.system_prompt?.channel]).toEqual([
      2,
      false,
      'Answer in haiku.',
    ]);

    const again = slack.workspace.ephemerals.length;
    const second = await slack.userSubmitsView({ user: ADMIN, viewId: form.id, values });
    expect(second.closed).toBe(true);
    expect((await posted(ADMIN, 'C6', again)).text).toBe(copy.settingsUnchanged);
    expect(await changeCount('C6')).toBe(count + 3);

    // Opened again, the form holds the channel's own values; Inherit resets one.
    const reopened = await openForm(ADMIN, 'C6');
    expect(selectOf(reopened, 'images').initial_option.value).toBe('2');
    expect(textInputOf(reopened, 'system_prompt').initial_value).toBe('Answer in haiku.');
    const inherit = selectOf(reopened, 'images').options[0]?.value ?? '';
    const reset = slack.workspace.ephemerals.length;
    await slack.userSubmitsView({ user: ADMIN, viewId: reopened.id, values: { images: value(inherit) } });
    expect((await posted(ADMIN, 'C6', reset)).text).toBe('✅ Saved: `images` reset.');
    expect((await stored('C6')).images?.channel).toBeUndefined();
  });

  it('switches an admin’s form to the workspace, with its budgets; a budget above BUDGET_* stays in the form as an error', async () => {
    const form = await openForm(ADMIN, 'C7');
    await slack.userActsInView({ user: ADMIN, viewId: form.id, actionId: 'genbot-settings-level', value: 'workspace' });
    await slack.waitFor(() => (form.history.length === 2 ? true : undefined));
    expect(
      blocksOf(form)
        .map((each) => each.block_id)
        .slice(-2),
    ).toEqual(['budget_images_per_day', 'budget_chat_tokens_per_day']);
    expect(textInputOf(form, 'budget_images_per_day').placeholder.text).toBe('Inherit: 100 (default)');

    const count = await changeCount('C7');
    const refused = await slack.userSubmitsView({
      user: ADMIN,
      viewId: form.id,
      values: { budget_images_per_day: value('500'), budget_chat_tokens_per_day: value('lots') },
    });
    expect(refused).toMatchObject({
      closed: false,
      errors: {
        budget_images_per_day: 'budget_images_per_day takes a whole number from 0 to 100. Nothing changed.',
        budget_chat_tokens_per_day:
          'budget_chat_tokens_per_day takes a whole number from 0 to 50,000. Nothing changed.',
      },
    });
    expect(await changeCount('C7')).toBe(count);

    const acks = slack.workspace.ephemerals.length;
    const saved = await slack.userSubmitsView({
      user: ADMIN,
      viewId: form.id,
      values: { budget_images_per_day: value('40'), budget_chat_tokens_per_day: value('') },
    });
    expect(saved.closed).toBe(true);
    expect((await posted(ADMIN, 'C7', acks)).text).toBe('✅ Saved: `budget_images_per_day` → `40`.');
    expect((await stored('C7')).budget_images_per_day).toEqual({ workspace: 40 });
  });

  it('opens the workspace’s form in a DM, with no channel level to switch to', async () => {
    const dm = slack.openDm(OWNER);
    expect(await genbot(OWNER, dm, 'set images 2')).toBe(copy.settingsNotInDm('slack'));
    const form = await openForm(OWNER, dm);
    const ids = blocksOf(form).map((each) => each.block_id ?? each.type);
    expect(ids).not.toContain('level');
    expect(ids).toContain('budget_chat_tokens_per_day');
    const acks = slack.workspace.ephemerals.length;
    await slack.userSubmitsView({ user: OWNER, viewId: form.id, values: { aspect_ratio: value('16:9') } });
    expect((await posted(OWNER, dm, acks)).text).toBe('✅ Saved: `aspect_ratio` → `16:9`.');
    expect((await stored(dm)).aspect_ratio).toEqual({ workspace: '16:9' });
  });

  it('keeps a system prompt longer than a Slack input holds when the form is saved', async () => {
    const long = `Be thorough. ${'y'.repeat(3_400)}`;
    expect(await genbot(ADMIN, 'C9', `set system_prompt ${long}`)).toContain('is now');
    const form = await openForm(ADMIN, 'C9');
    expect(blockOf(form, 'system_prompt').type).toBe('section');
    const acks = slack.workspace.ephemerals.length;
    await slack.userSubmitsView({ user: ADMIN, viewId: form.id, values: { images: value('4') } });
    expect((await posted(ADMIN, 'C9', acks)).text).toBe('✅ Saved: `images` → `4`.');
    expect((await stored('C9')).images?.channel).toBe(4);
    expect((await stored('C9')).system_prompt?.channel).toBe(long);
  });

  it('tells the admin privately when the form could not open in time', async () => {
    const restore = slack.expireTriggers();
    try {
      const acks = slack.workspace.ephemerals.length;
      const views = slack.views.length;
      await slack.userRunsCommand({ user: ADMIN, channel: 'C12', command: '/genbot', text: '' });
      expect((await posted(ADMIN, 'C12', acks)).text).toBe(copy.settingsModal.notOpened);
      expect(slack.views.length).toBe(views);
    } finally {
      restore();
    }
  });

  it('refuses a forged submission for another channel, or someone else’s form, with nothing changed', async () => {
    const form = await openForm(ADMIN, 'C10');
    const metadata = String(form.view.private_metadata);
    const [body, mac] = metadata.split('.');
    const place = z.record(z.string(), z.unknown()).parse(JSON.parse(Buffer.from(body ?? '', 'base64url').toString()));
    const elsewhere = Buffer.from(JSON.stringify({ ...place, c: 'C11' })).toString('base64url');
    const countC11 = await changeCount('C11');
    const countC10 = await changeCount('C10');

    const tampered = await slack.userSubmitsView({
      user: ADMIN,
      viewId: form.id,
      values: { enabled: value('off') },
      forged: { privateMetadata: `${elsewhere}.${mac}` },
    });
    expect(tampered).toMatchObject({ closed: false, updated: true });
    expect(JSON.stringify(form.view.blocks)).toContain('This form could not be checked.');

    const reopened = await openForm(ADMIN, 'C10');
    const borrowed = await slack.userSubmitsView({
      user: MEMBER,
      viewId: reopened.id,
      values: { enabled: value('off') },
      forged: {},
    });
    expect(borrowed).toMatchObject({ closed: false, updated: true });
    expect(await changeCount('C11')).toBe(countC11);
    expect(await changeCount('C10')).toBe(countC10);
  });
});
