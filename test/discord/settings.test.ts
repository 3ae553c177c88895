import { copy } from '@genbot/core/copy';
import type { OperatorSettings, SettingsPlace } from '@genbot/core/settings';
import type { DiscordInteraction, DiscordMessage, DiscordUserRef } from '@genbot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobFinished } from '../support/job-finished.js';
import { CHAT_MODEL, type Harness, IMAGE_MODEL, startHarness } from './support/harness.js';

const LARGE_CHAT_MODEL = 'e2e-chat-model-large';
const OTHER_IMAGE_MODEL = 'e2e-image-model-2';
const OPERATOR: OperatorSettings = {
  chatModels: [CHAT_MODEL, LARGE_CHAT_MODEL],
  imageModels: [IMAGE_MODEL, OTHER_IMAGE_MODEL],
  chatModel: CHAT_MODEL,
  imageModel: IMAGE_MODEL,
  systemPrompt: undefined,
  budgetImagesPerDay: 100,
  budgetChatTokensPerDay: 50_000,
};
/** In ADMIN_USER_IDS, with no Discord permission of their own. */
const OPERATOR_ADMIN = { username: 'ops', id: '912345678901234567' };

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    fake: { guild: { channels: ['general', 'random', 'art', 'forms', 'threads', 'forged', 'budgets', 'talks'] } },
    // Global, as production registers: the bot's DM offers only global commands.
    registerCommands: {},
    operator: OPERATOR,
    adminUserIds: [OPERATOR_ADMIN.id],
  });
});

afterAll(async () => {
  await h?.stop();
});

function placeOf(channel: string): SettingsPlace {
  return { platform: 'discord', workspaceId: h.fake.guildId, channelId: h.fake.channelId(channel) };
}

/** Every recorded change of a channel and the server, newest first. */
function changesIn(channel: string) {
  return h.store.settings.changes(placeOf(channel), 100);
}

/** A channel's own recorded changes, the server's left out. */
async function ownChanges(channel: string) {
  return (await changesIn(channel)).filter((change) => change.scope.level === 'channel');
}

async function answerTo(interaction: DiscordInteraction): Promise<DiscordMessage> {
  return h.fake.waitFor(() => {
    const id = interaction.originalMessageId;
    return id === null ? undefined : h.fake.state.message(interaction.channelId, id);
  });
}

/** `/genbot <subcommand>` in a channel (by name) or a DM (by id); its private answer. */
async function genbot(
  user: DiscordUserRef,
  channel: string,
  subcommand: string,
  options: Record<string, string> = {},
): Promise<DiscordMessage> {
  const channelId = h.fake.state.channel(channel)?.id ?? h.fake.channelId(channel);
  const run = h.fake.userRunsCommand({ user, channelId, name: 'genbot', subcommand, options });
  const answer = await answerTo(run);
  expect(run.ephemeral).toBe(true);
  return answer;
}

/** `/genbot settings`, which opens a modal: the interaction that holds it. */
async function openForm(user: DiscordUserRef, channel: string, options: Record<string, string> = {}) {
  const run = h.fake.userRunsCommand({
    user,
    channelId: h.fake.channelId(channel),
    name: 'genbot',
    subcommand: 'settings',
    options,
  });
  await h.fake.waitFor(() => run.status === 'acknowledged');
  return run;
}

/** Submits the modal an interaction opened; the submit and its private answer. */
async function submit(opened: DiscordInteraction, values: Record<string, string>, forgedCustomId?: string) {
  const sent = h.fake.userSubmitsModal({
    interactionId: opened.id,
    values,
    ...(forgedCustomId === undefined ? {} : { forgedCustomId }),
  });
  const answer = await answerTo(sent);
  expect(sent.ephemeral).toBe(true);
  return { sent, answer };
}

/** The labels of an answer's buttons, by custom id. */
function buttonsOf(message: DiscordMessage): { customId: string; label: string }[] {
  const rows = message.components as { components: { custom_id: string; label: string }[] }[];
  return rows.flatMap((row) => row.components.map((button) => ({ customId: button.custom_id, label: button.label })));
}

describe('/genbot on Discord', () => {
  it('is registered for server installs in servers and the bot DM, with no permission hint', () => {
    const command = h.fake.state.globalCommands.find((each) => each.name === 'genbot');
    expect(command).toMatchObject({
      integration_types: [0],
      contexts: [0, 1],
      default_member_permissions: null,
    });
    expect(command?.options.map((option) => option.name)).toEqual(['settings', 'show', 'set', 'reset']);
    // A person's own install (in a server the bot is not in) is offered no /genbot.
    expect(() =>
      h.fake.userRunsCommand({
        user: 'ana',
        channelId: h.fake.elsewhereChannelId('their-server'),
        name: 'genbot',
        subcommand: 'show',
      }),
    ).toThrow(/not registered/);
  });

  it("takes a thread's settings to be its channel's", async () => {
    h.fake.grantPermissions('tom', ['ManageChannels']);
    const thread = h.fake.createThread({ channelId: h.fake.channelId('talks'), name: 'a conversation' });
    const set = await genbot('tom', thread.id, 'set', { name: 'images', value: '2' });
    expect(set.content).toContain('`images` in this channel is now `2`');
    expect((await h.jobs.settings.resolve(placeOf('talks'))).values.images).toBe(2);

    // A mention and an /imagine in the thread are accepted under the channel's settings.
    const mention = h.fake.userSays({ user: 'tom', channelId: thread.id, content: `${h.mention} hello in a thread` });
    const imagine = h.fake.userRunsCommand({
      user: 'tom',
      channelId: thread.id,
      name: 'imagine',
      options: { prompt: 'a kite' },
    });
    for (const id of [`dc-msg-${mention.id}`, `dc-int-${imagine.id}`]) {
      const job = await jobFinished(h.store, id, 30_000);
      expect(job.input, id).toMatchObject({ settings: { images: 2 } });
    }
  });

  it("shows /usage by a Manage Server member the server's use and budget beside their own; others their own", async () => {
    const usage = async (user: DiscordUserRef): Promise<string> => {
      const run = h.fake.userRunsCommand({ user, channelId: h.fake.channelId('random'), name: 'usage' });
      return (await answerTo(run)).content;
    };
    h.fake.grantPermissions('uma', ['ManageGuild']);
    const admin = await usage('uma');
    expect(admin).toContain('This server today:');
    expect(admin).toContain('Left of the daily budget:');
    h.fake.grantPermissions('vic', ['ManageChannels']);
    expect(await usage('vic')).not.toContain('This server');
    expect(await usage(OPERATOR_ADMIN)).toContain('This server today:');
  });

  it('shows anyone the settings privately; changing them takes Manage Channels, asked on every call', async () => {
    const shown = await genbot('ana', 'general', 'show');
    expect(shown.content).toContain(`\`chat_model\`: \`${CHAT_MODEL}\` _(default)_`);
    expect(shown.content).toContain('_Only admins can change these._');

    const refused = await genbot('ana', 'general', 'set', { name: 'images', value: '3' });
    expect(refused.content).toBe(copy.settingsNotAllowed('channel', 'discord'));
    expect(await changesIn('general')).toEqual([]);

    h.fake.grantPermissions('ana', ['ManageChannels']);
    const set = await genbot('ana', 'general', 'set', { name: 'images', value: '3' });
    expect(set.content).toContain('`images` in this channel is now `3`');
    expect((await h.jobs.settings.resolve(placeOf('general'))).values.images).toBe(3);
    const again = await genbot('ana', 'general', 'show');
    expect(again.content).toContain('`images`: `3` _(set for this channel)_');
    expect(again.content).toContain('/genbot settings');

    // Taken back, the right is gone at the next call: nothing is remembered.
    h.fake.grantPermissions('ana', []);
    const reset = await genbot('ana', 'general', 'reset', { name: 'images' });
    expect(reset.content).toBe(copy.settingsNotAllowed('channel', 'discord'));
    expect((await h.jobs.settings.resolve(placeOf('general'))).values.images).toBe(3);
  });

  it('keeps the server scope for Manage Server and ADMIN_USER_IDS', async () => {
    h.fake.grantPermissions('chan', ['ManageChannels']);
    const refused = await genbot('chan', 'random', 'set', { name: 'aspect_ratio', value: '16:9', scope: 'server' });
    expect(refused.content).toBe(copy.settingsNotAllowed('workspace', 'discord'));
    expect((await h.jobs.settings.resolve(placeOf('random'))).values.aspect_ratio).toBeUndefined();

    h.fake.grantPermissions('boss', ['ManageGuild']);
    const set = await genbot('boss', 'random', 'set', { name: 'aspect_ratio', value: '16:9', scope: 'server' });
    expect(set.content).toContain('`aspect_ratio` for the whole server is now `16:9`');
    // Manage Server changes any channel too.
    const channel = await genbot('boss', 'random', 'set', { name: 'images', value: '2' });
    expect(channel.content).toContain('`images` in this channel is now `2`');

    const ops = await genbot(OPERATOR_ADMIN, 'random', 'reset', { name: 'aspect_ratio', scope: 'server' });
    expect(ops.content).toContain('`aspect_ratio` for the whole server is reset');
    expect(await changesIn('random')).toMatchObject([
      { name: 'aspect_ratio', by: OPERATOR_ADMIN.id, value: undefined },
      { name: 'images', by: h.fake.state.user('boss').id },
      { name: 'aspect_ratio', value: '16:9' },
    ]);
  });

  it('answers what would fit to bad values, and changes nothing', async () => {
    h.fake.grantPermissions('owl', ['ManageGuild']);
    const before = (await changesIn('art')).length;
    const answers = [
      [{ name: 'images', value: '7' }, copy.settingOutOfRange('images', 1, 4)],
      [{ name: 'chat_model', value: 'gpt-x' }, copy.settingNotOneOf('chat_model', OPERATOR.chatModels)],
      [{ name: 'system_prompt', value: 'x'.repeat(4_001) }, copy.settingTooLong('system_prompt', 4_001, 4_000)],
      [
        { name: 'budget_images_per_day', value: '101', scope: 'server' },
        copy.settingOutOfRange('budget_images_per_day', 0, 100),
      ],
      [{ name: 'budget_images_per_day', value: '10' }, copy.settingWorkspaceOnly('budget_images_per_day', 'discord')],
    ] as const;
    for (const [options, answer] of answers) {
      expect((await genbot('owl', 'art', 'set', options)).content).toBe(answer);
    }
    expect(await changesIn('art')).toHaveLength(before);
    // An unknown setting never reaches the bot: Discord's client offers the listed names only.
    expect(() =>
      h.fake.userRunsCommand({
        user: 'owl',
        channelId: h.fake.channelId('art'),
        name: 'genbot',
        subcommand: 'set',
        options: { name: 'colour', value: 'red' },
      }),
    ).toThrow(/not a choice/);
  });

  it('works in the bot DM for show; the DM has no settings to change', async () => {
    const dm = h.fake.dmChannelId('dee');
    const shown = await genbot('dee', dm, 'show');
    expect(shown.content).toContain("genbot's settings in this DM");
    expect((await genbot('dee', dm, 'set', { name: 'images', value: '2' })).content).toBe(
      copy.settingsNotInDm('discord'),
    );
    expect((await genbot(OPERATOR_ADMIN, h.fake.dmChannelId(OPERATOR_ADMIN), 'settings')).content).toBe(
      copy.settingsNotInDm('discord'),
    );
  });
});

describe('/genbot settings: the form', () => {
  it("opens the channel's chat settings, says what is inherited and from where, and saves only what changed", async () => {
    h.fake.grantPermissions('head', ['ManageGuild']);
    await genbot('head', 'forms', 'set', { name: 'chat_model', value: LARGE_CHAT_MODEL, scope: 'server' });
    h.fake.grantPermissions('mod', ['ManageChannels']);

    const opened = await openForm('mod', 'forms');
    expect(opened.modal).toMatchObject({
      title: copy.discordSettings.title('channel', 'chat'),
      order: ['enabled', 'chat_model', 'system_prompt'],
      selects: [
        { customId: 'enabled', options: [{ value: '(inherit)', default: true }, { value: 'on' }, { value: 'off' }] },
        {
          customId: 'chat_model',
          options: [
            { label: `Inherit: ${LARGE_CHAT_MODEL} (from the server)`, default: true },
            { value: CHAT_MODEL, default: false },
            { value: LARGE_CHAT_MODEL, default: false },
          ],
        },
      ],
      inputs: [{ customId: 'system_prompt', style: 2, required: false, maxLength: 4_000 }],
    });

    const { sent: saved, answer } = await submit(opened, {
      enabled: 'off',
      chat_model: CHAT_MODEL,
      system_prompt: 'Be brief.',
    });
    expect(answer.content).toBe(
      copy.settingsSaved([
        { name: 'chat_model', level: 'channel', platform: 'discord', previous: undefined, value: CHAT_MODEL },
        { name: 'system_prompt', level: 'channel', platform: 'discord', previous: undefined, value: 'Be brief.' },
        { name: 'enabled', level: 'channel', platform: 'discord', previous: undefined, value: false },
      ]),
    );
    // Manage Channels alone: the two parts of this channel's form, no server button.
    expect(buttonsOf(answer).map((button) => button.label)).toEqual([
      copy.discordSettings.openChat,
      copy.discordSettings.openImages,
    ]);
    const resolved = await h.jobs.settings.resolve(placeOf('forms'));
    expect([resolved.values.enabled, resolved.values.chat_model, resolved.values.system_prompt]).toEqual([
      false,
      CHAT_MODEL,
      'Be brief.',
    ]);
    const changes = (await changesIn('forms')).length;

    // The same form again (a second opening, filled the same): nothing changes.
    const second = await openForm('mod', 'forms');
    expect(second.modal?.selects.find((select) => select.customId === 'enabled')?.options).toMatchObject([
      { label: 'Inherit', default: false },
      { value: 'on', default: false },
      { value: 'off', default: true },
    ]);
    const resent = await submit(second, { enabled: 'off', chat_model: CHAT_MODEL, system_prompt: 'Be brief.' });
    expect(resent.answer.content).toBe(copy.settingsUnchanged);
    // The first submit delivered again by the gateway: answered once, nothing changes.
    h.fake.redeliver({ interactionId: saved.id });
    await h.fake.waitFor(() =>
      h.logs.some((line) => line.includes(saved.id) && line.includes('interaction answered before')),
    );
    expect(await changesIn('forms')).toHaveLength(changes);
  });

  it('opens the image settings from the button under the answer, and leaves the chat settings as they are', async () => {
    h.fake.grantPermissions('pix', ['ManageChannels']);
    const opened = await openForm('pix', 'art', { page: 'chat' });
    const { answer } = await submit(opened, { system_prompt: 'Draw boldly.' });
    const images = buttonsOf(answer).find((button) => button.label === copy.discordSettings.openImages);

    const press = h.fake.userClicks({
      user: 'pix',
      channelId: h.fake.channelId('art'),
      messageId: answer.id,
      customId: images?.customId ?? '',
    });
    await h.fake.waitFor(() => press.modal);
    expect(press.modal?.order).toEqual(['image_model', 'aspect_ratio', 'images']);
    const second = await submit(press, { image_model: OTHER_IMAGE_MODEL, images: '4' });
    expect(second.answer.content).toContain('`image_model` → `e2e-image-model-2`, `images` → `4`');
    const resolved = await h.jobs.settings.resolve(placeOf('art'));
    expect([resolved.values.system_prompt, resolved.values.image_model, resolved.values.images]).toEqual([
      'Draw boldly.',
      OTHER_IMAGE_MODEL,
      4,
    ]);
  });

  it("gives the server's form to Manage Server alone, budgets checked against BUDGET_*", async () => {
    h.fake.grantPermissions('lead', ['ManageChannels']);
    const refused = await genbot('lead', 'budgets', 'settings', { scope: 'server' });
    expect(refused.content).toBe(copy.settingsNotAllowed('workspace', 'discord'));

    h.fake.grantPermissions('lead', ['ManageGuild']);
    const opened = await openForm('lead', 'budgets', { scope: 'server', page: 'images' });
    expect(opened.modal).toMatchObject({
      title: copy.discordSettings.title('workspace', 'images'),
      order: ['image_model', 'aspect_ratio', 'images', 'budget_images_per_day'],
    });
    const before = (await changesIn('budgets')).length;
    const { answer } = await submit(opened, { budget_images_per_day: '101', images: '2' });
    expect(answer.content).toBe(
      copy.discordSettings.notSaved([copy.settingOutOfRange('budget_images_per_day', 0, 100)]),
    );
    expect(await changesIn('budgets')).toHaveLength(before);
    // Manage Server also gets the way to this channel's own form.
    expect(buttonsOf(answer).map((button) => button.label)).toContain(copy.discordSettings.openChannel);

    const retry = await openForm('lead', 'budgets', { scope: 'server', page: 'images' });
    const fits = await submit(retry, { budget_images_per_day: '40' });
    expect(fits.answer.content).toContain('`budget_images_per_day` → `40`');
    expect((await h.jobs.settings.resolve(placeOf('general'))).values.budget_images_per_day).toBe(40);
  });

  it('checks the rights again at submission, and refuses a form naming another channel', async () => {
    h.fake.grantPermissions('sly', ['ManageChannels']);
    const opened = await openForm('sly', 'forged');
    h.fake.grantPermissions('sly', []);
    const late = await submit(opened, { enabled: 'off' });
    expect(late.answer.content).toBe(copy.settingsNotAllowed('channel', 'discord'));
    expect(await ownChanges('forged')).toEqual([]);

    // Manage Channels here, and a form opened here sent back naming #threads: nothing changes anywhere.
    h.fake.grantPermissions('sly', ['ManageChannels']);
    const again = await openForm('sly', 'forged');
    const threads = h.fake.channelId('threads');
    const forged = await submit(again, { enabled: 'off' }, `gbs:chat:c:${threads}`);
    expect(forged.answer.content).toBe(copy.discordSettings.otherChannel);
    expect(await ownChanges('forged')).toEqual([]);
    expect(await ownChanges('threads')).toEqual([]);
  });
});
