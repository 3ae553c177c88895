import { z } from 'zod';
import type {
  DiscordAttachment,
  DiscordCommand,
  DiscordFake,
  DiscordMessage,
  SlackFake,
  SlackMessage,
} from '@genbot/fakes';
import { blocksText } from './blocks-text.js';
import type { DiscordDmView, SlackDmView } from './direct-messages.js';
import { discordForm, type FormView, slackForm } from './form-views.js';

export { blocksText } from './blocks-text.js';
export type { FormPart, FormView } from './form-views.js';

/** What the page renders: one channel of each fake, plain JSON, no bytes (files are fetched by URL). */
export interface PlaygroundSnapshot {
  version: number;
  /** True once shutdown started: the page stops offering actions. */
  closing: boolean;
  service: ServiceInfo;
  slack: SlackSnapshot;
  discord: DiscordSnapshot;
  /** Each person's DM with the Slack app (the agent view's Messages tab) and their Home tab. */
  slackDms: SlackDmView[];
  /** Each person's DM with the Discord bot, once opened. */
  discordDms: DiscordDmView[];
  modelsUsed: ModelsUsed;
}

/** The model the latest chat and image call named, once there was one. */
export interface ModelsUsed {
  chat?: string;
  image?: string;
}

export interface ServiceInfo {
  /** `emulator` or the host of the real service; never a key. */
  label: string;
  emulated: boolean;
  chatModel?: string;
  imageModel?: string;
}

export interface FileView {
  id: string;
  name: string;
  mimetype: string;
  size: number;
  isImage: boolean;
  /** Same-origin URL of the bytes; `?download=1` asks for an attachment. */
  url: string;
}

export interface SlackMessageView {
  ts: string;
  threadTs?: string;
  userId?: string;
  author: string;
  isBot: boolean;
  text: string;
  /** The text is standard Markdown (`markdown_text`, native streams), not mrkdwn. */
  markdown?: boolean;
  editCount: number;
  streaming: boolean;
  files: FileView[];
  /** Replies in its thread, on a thread parent. */
  replyCount: number;
  /** Ephemeral: only visible to the person. */
  ephemeral?: boolean;
  /** Whom an ephemeral message is for (alice or bob): the page shows it to them alone. */
  for?: string;
  /** The buttons of its actions blocks (a result's Re-roll, Vary, Edit, Undo). */
  buttons: ButtonView[];
}

export interface ButtonView {
  label: string;
  /** Slack's `action_id` or Discord's `custom_id`: what the press sends back. */
  id: string;
  /** The actions block or action row it sits in, from 0: the page keeps the rows apart. */
  row: number;
}

export interface SlackSnapshot {
  channel: { id: string; name: string };
  botUserId: string;
  botName: string;
  users: { id: string; name: string; displayName: string }[];
  /** The people who type in the page, and what Slack says they are in the workspace (users.info). */
  people: PersonView[];
  messages: SlackMessageView[];
  forms: FormView[];
}

/** A person of the page and their role where they type: an admin may change the bot's settings. */
export interface PersonView {
  name: string;
  role: 'admin' | 'member';
}

export interface DiscordMessageView {
  id: string;
  channelId: string;
  authorId: string;
  author: string;
  isBot: boolean;
  content: string;
  editCount: number;
  loading: boolean;
  ephemeral: boolean;
  /** Whom an ephemeral message is for: the person whose interaction it answers. */
  for?: string;
  replyTo?: { id: string; author: string; excerpt: string };
  command?: { name: string; user: string };
  files: FileView[];
  /** ID of the thread started from this message, if any. */
  threadId?: string;
  buttons: ButtonView[];
}

export interface DiscordSnapshot {
  channel: { id: string; name: string };
  botUserId: string;
  botName: string;
  commands: CommandView[];
  /** The people who type in the page, and whether their member permissions include Manage Server. */
  people: PersonView[];
  messages: DiscordMessageView[];
  threads: { id: string; name: string; messages: DiscordMessageView[] }[];
  forms: FormView[];
  /** Message commands (right-click -> Apps), such as Edit image. */
  messageCommands: string[];
}

export interface CommandOptionView {
  name: string;
  /** Discord's option type: 1 a subcommand (with its own `options`), 3 a string, 4 an integer, 5 a boolean, 10 a number. */
  type: number;
  required: boolean;
  choices: { name: string; value: string | number }[];
  /** A subcommand's options. */
  options?: CommandOptionView[];
}

export interface CommandView {
  name: string;
  description: string;
  options: CommandOptionView[];
}

const EPHEMERAL = 1 << 6;
const LOADING = 1 << 7;

const slackButton = z.looseObject({
  type: z.literal('button'),
  action_id: z.string(),
  text: z.looseObject({ text: z.string() }),
});
const slackActions = z.looseObject({ type: z.literal('actions'), elements: z.array(z.unknown()) });

/** The buttons of a Slack message's actions blocks, in order. */
export function slackButtons(blocks: unknown[] | undefined): ButtonView[] {
  return (blocks ?? [])
    .filter((block) => slackActions.safeParse(block).success)
    .flatMap((block, row) =>
      slackActions.parse(block).elements.flatMap((element) => {
        const button = slackButton.safeParse(element);
        return button.success ? [{ label: button.data.text.text, id: button.data.action_id, row }] : [];
      }),
    );
}

const discordButton = z.looseObject({
  type: z.literal(2),
  custom_id: z.string(),
  label: z.string().optional(),
  disabled: z.boolean().optional(),
});
const discordRow = z.looseObject({ type: z.literal(1), components: z.array(z.unknown()) });

/** The enabled buttons of a Discord message's action rows (link buttons carry no custom_id). */
export function discordButtons(components: unknown[]): ButtonView[] {
  return components
    .filter((component) => discordRow.safeParse(component).success)
    .flatMap((component, row) =>
      discordRow.parse(component).components.flatMap((inner) => {
        const button = discordButton.safeParse(inner);
        return button.success && button.data.disabled !== true
          ? [{ label: button.data.label ?? button.data.custom_id, id: button.data.custom_id, row }]
          : [];
      }),
    );
}

function isImageType(mimetype: string): boolean {
  return mimetype.startsWith('image/');
}

/**
 * A Slack channel's (or DM's) messages as the page shows them, with the ephemerals there for
 * `viewerIds` (each marked with whom it is for: the page shows it to that person only).
 */
export function slackMessageViews(
  fake: SlackFake,
  channelId: string,
  viewerIds: readonly string[],
): SlackMessageView[] {
  const { workspace, identity } = fake;
  const nameOf = (m: SlackMessage): string => {
    if (m.user !== undefined) {
      const user = workspace.users.get(m.user);
      return user?.displayName ?? user?.name ?? m.user;
    }
    return m.username ?? m.botId ?? 'unknown';
  };
  const inChannel = workspace.messages.filter((m) => m.channel === channelId);
  const replyCounts = new Map<string, number>();
  for (const m of inChannel) {
    if (m.threadTs !== undefined && m.threadTs !== m.ts)
      replyCounts.set(m.threadTs, (replyCounts.get(m.threadTs) ?? 0) + 1);
  }
  const messages: SlackMessageView[] = inChannel.map((m) => {
    const text = m.text !== '' ? m.text : blocksText(m.blocks);
    return {
      ts: m.ts,
      ...(m.threadTs !== undefined && { threadTs: m.threadTs }),
      ...(m.user !== undefined && { userId: m.user }),
      author: nameOf(m),
      isBot: m.botId !== undefined,
      text,
      ...(m.format === 'markdown' && { markdown: true }),
      editCount: m.edits.length,
      streaming: m.stream?.state === 'streaming',
      files: m.fileIds.flatMap((id) => {
        const file = workspace.files.get(id);
        if (!file || file.bytes === undefined) return [];
        return [
          {
            id: file.id,
            name: file.name,
            mimetype: file.mimetype,
            size: file.bytes.length,
            isImage: isImageType(file.mimetype),
            url: `/api/slack/files/${encodeURIComponent(file.id)}`,
          },
        ];
      }),
      replyCount: replyCounts.get(m.ts) ?? 0,
      buttons: slackButtons(m.blocks),
    };
  });
  // Ephemeral answers (a slash command's acknowledgement, a form's confirmation) to the people using the page.
  for (const e of workspace.ephemerals) {
    if (e.channel !== channelId || !viewerIds.includes(e.user)) continue;
    const person = workspace.users.get(e.user)?.name;
    messages.push({
      ts: e.ts,
      ...(e.threadTs !== undefined && { threadTs: e.threadTs }),
      author: workspace.users.get(identity.botUserId)?.name ?? 'genbot',
      isBot: true,
      text: e.text !== '' ? e.text : blocksText(e.blocks),
      editCount: 0,
      streaming: false,
      files: [],
      replyCount: 0,
      ephemeral: true,
      ...(person !== undefined && { for: person }),
      buttons: [],
    });
  }
  messages.sort((a, b) => Number(a.ts) - Number(b.ts));
  return messages;
}

/** `people`: the Slack users the page types as, by name and ID. */
export function slackSnapshot(
  fake: SlackFake,
  channelId: string,
  people: readonly { name: string; id: string }[],
): SlackSnapshot {
  const { workspace, identity } = fake;
  const channel = workspace.channels.get(channelId);
  const users = [...workspace.users.values()];
  const messages = slackMessageViews(
    fake,
    channelId,
    people.map((person) => person.id),
  );
  return {
    channel: { id: channelId, name: channel?.name ?? channelId },
    botUserId: identity.botUserId,
    botName: workspace.users.get(identity.botUserId)?.name ?? 'genbot',
    users: users.filter((u) => !u.isBot).map((u) => ({ id: u.id, name: u.name, displayName: u.displayName })),
    people: people.map(({ name, id }) => {
      const role = workspace.users.get(id)?.role;
      return { name, role: role === undefined || role === 'member' ? 'member' : 'admin' };
    }),
    messages,
    forms: fake.views.flatMap((shown) => {
      const person = workspace.users.get(shown.user)?.name;
      const form = shown.open && person !== undefined ? slackForm(shown, person) : undefined;
      return form === undefined ? [] : [form];
    }),
  };
}

function attachmentView(channelId: string, attachment: DiscordAttachment): FileView {
  return {
    id: attachment.id,
    name: attachment.filename,
    mimetype: attachment.contentType,
    size: attachment.size,
    isImage: isImageType(attachment.contentType),
    url: `/api/discord/attachments/${encodeURIComponent(channelId)}/${encodeURIComponent(attachment.id)}`,
  };
}

/** A Discord message as the page shows it; `threadIds`: the messages threads were started from. */
export function discordMessageView(
  fake: DiscordFake,
  m: DiscordMessage,
  threadIds: ReadonlySet<string>,
): DiscordMessageView {
  const { state } = fake;
  const referenced = m.reference === null ? undefined : state.message(m.reference.channelId, m.reference.messageId);
  const commandUser = m.interaction === null ? undefined : state.findUser(m.interaction.userId);
  return {
    id: m.id,
    channelId: m.channelId,
    authorId: m.author.id,
    author: m.author.username,
    isBot: m.author.bot,
    content: m.content,
    editCount: m.history.length,
    loading: (m.flags & LOADING) !== 0,
    ephemeral: (m.flags & EPHEMERAL) !== 0,
    ...((m.flags & EPHEMERAL) !== 0 && commandUser !== undefined && { for: commandUser.username }),
    ...(m.reference !== null && {
      replyTo: {
        id: m.reference.messageId,
        author: referenced?.author.username ?? 'unknown',
        excerpt: referenced === undefined ? '(deleted)' : excerpt(fake, referenced),
      },
    }),
    ...(m.interaction?.commandName !== undefined && {
      command: { name: m.interaction.commandName, user: commandUser?.username ?? 'someone' },
    }),
    files: m.attachments.map((a) => attachmentView(m.channelId, a)),
    ...(threadIds.has(m.id) && { threadId: m.id }),
    buttons: discordButtons(m.components),
  };
}

const subcommandOptions = z.array(
  z.looseObject({
    type: z.number(),
    name: z.string(),
    required: z.boolean().optional(),
    choices: z.array(z.looseObject({ name: z.string(), value: z.union([z.string(), z.number()]) })).optional(),
  }),
);

/** An option as the page offers it; a subcommand's (type 1) with its own options. */
function optionView(option: DiscordCommand['options'][number]): CommandOptionView {
  const nested = option.type === 1 ? subcommandOptions.safeParse(option.options ?? []) : undefined;
  return {
    name: option.name,
    type: option.type,
    required: option.required === true,
    choices: (option.choices ?? []).map((choice) => ({ name: choice.name, value: choice.value })),
    ...(nested?.success === true && { options: nested.data.map(optionView) }),
  };
}

/** The Discord guild's Manage Server permission (bit 5). */
const MANAGE_GUILD = 1n << 5n;

/** `people`: the usernames the page types as. */
export function discordSnapshot(fake: DiscordFake, channelId: string, people: readonly string[]): DiscordSnapshot {
  const { state } = fake;
  const channel = state.channel(channelId);
  const threads = state.threads.filter((t) => t.parentId === channelId);
  const threadIds = new Set(threads.map((t) => t.id));
  const view = (m: DiscordMessage): DiscordMessageView => discordMessageView(fake, m, threadIds);
  const commands = [...state.guildCommands, ...state.globalCommands].filter((c) => c.type === 1);
  const seen = new Set<string>();
  return {
    channel: { id: channelId, name: channel?.name ?? channelId },
    botUserId: state.botUser.id,
    botName: state.botUser.username,
    commands: commands
      .filter((c) => {
        if (seen.has(c.name)) return false;
        seen.add(c.name);
        return true;
      })
      .map((c) => ({ name: c.name, description: c.description, options: c.options.map(optionView) })),
    people: people.map((name) => {
      const user = state.user(name);
      return { name, role: (state.grantedPermissions(user.id) & MANAGE_GUILD) !== 0n ? 'admin' : 'member' };
    }),
    messages: state.messages(channelId).map(view),
    threads: threads.map((t) => ({ id: t.id, name: t.name, messages: state.messages(t.id).map(view) })),
    forms: state.interactions.flatMap((interaction) => {
      const modal = interaction.modal;
      if (modal === null || modal.closedBy !== null) return [];
      return [discordForm(interaction.id, interaction.user.username, modal)];
    }),
    messageCommands: [
      ...new Set([...state.guildCommands, ...state.globalCommands].filter((c) => c.type === 3).map((c) => c.name)),
    ],
  };
}

/**
 * A cheap fingerprint of the Discord guild (the fake has no change events): message count, edits,
 * content lengths, flags and attachments of every channel, thread and DM, plus commands.
 */
export function discordFingerprint(fake: DiscordFake, channelId: string): string {
  const { state } = fake;
  let count = 0;
  let sum = 0;
  const channels = [
    channelId,
    ...state.threads.filter((t) => t.parentId === channelId).map((t) => t.id),
    ...state.dmChannels.map((dm) => dm.id),
  ];
  for (const id of channels) {
    for (const m of state.messages(id)) {
      count += 1;
      sum += m.history.length * 7 + m.content.length * 3 + m.flags + m.attachments.length * 11;
      sum %= 1_000_000_007;
    }
  }
  // Modals live on interactions, not messages: an opened or closed form changes the page too.
  const forms = state.interactions.filter(
    (interaction) => interaction.modal !== null && interaction.modal.closedBy === null,
  );
  return `${channels.length}:${count}:${sum}:${state.guildCommands.length + state.globalCommands.length}:${forms.map((i) => i.id).join(',')}`;
}

/** A one-line preview of a replied-to message, mentions shown as names. */
function excerpt(fake: DiscordFake, message: DiscordMessage): string {
  const text = message.content
    .replace(/<@!?(\d+)>/g, (_whole, id: string) => `@${fake.state.findUser(id)?.username ?? 'unknown-user'}`)
    .replace(/\s+/g, ' ')
    .trim();
  if (text !== '') return text.length > 90 ? `${text.slice(0, 89)}…` : text;
  return message.attachments.length > 0 ? 'Click to see attachment' : '';
}
