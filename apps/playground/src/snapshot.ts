import { z } from 'zod';
import type { DiscordAttachment, DiscordFake, DiscordMessage, SlackFake, SlackMessage } from '@genbot/fakes';
import type { DiscordDmView, SlackDmView } from './direct-messages.js';

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

/** A form the bot opened for a person (Slack modal, Discord modal), until it is sent or closed. */
export interface FormView {
  /** Slack's view id, or the Discord interaction that answered with the modal. */
  id: string;
  /** alice or bob. */
  person: string;
  title: string;
  submit: string;
  inputs: { id: string; label: string; required: boolean; maxLength: number }[];
}

export interface SlackSnapshot {
  channel: { id: string; name: string };
  botUserId: string;
  botName: string;
  users: { id: string; name: string; displayName: string }[];
  messages: SlackMessageView[];
  forms: FormView[];
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
  commands: {
    name: string;
    description: string;
    options: { name: string; type: number; required: boolean; choices: { name: string; value: string | number }[] }[];
  }[];
  messages: DiscordMessageView[];
  threads: { id: string; name: string; messages: DiscordMessageView[] }[];
  forms: FormView[];
  /** Message commands (right-click -> Apps), such as Edit image. */
  messageCommands: string[];
}

const EPHEMERAL = 1 << 6;
const LOADING = 1 << 7;

/** Text of Slack blocks, for bot messages whose content lives there (section, markdown, context). */
export function blocksText(blocks: unknown[] | undefined): string {
  if (!Array.isArray(blocks)) return '';
  const parts: string[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (record.type === 'markdown' && typeof record.text === 'string') {
      parts.push(record.text);
      return;
    }
    if ((record.type === 'mrkdwn' || record.type === 'plain_text') && typeof record.text === 'string') {
      parts.push(record.text);
      return;
    }
    if (record.type === 'image' || record.type === 'actions') return;
    for (const value of Object.values(record)) {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === 'object') visit(value);
    }
  };
  blocks.forEach(visit);
  return parts.join('\n');
}

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

const plainText = z.looseObject({ text: z.string() });
const slackInput = z.looseObject({
  type: z.literal('input'),
  block_id: z.string(),
  label: plainText,
  optional: z.boolean().optional(),
  element: z.looseObject({ action_id: z.string(), max_length: z.number().optional() }),
});
const slackModal = z.looseObject({
  title: plainText.optional(),
  submit: plainText.optional(),
  blocks: z.array(z.unknown()).default([]),
});

function slackForm(id: string, person: string, view: unknown): FormView | undefined {
  const modal = slackModal.safeParse(view);
  if (!modal.success) return undefined;
  const inputs = modal.data.blocks.flatMap((block) => {
    const input = slackInput.safeParse(block);
    return input.success
      ? [
          {
            id: input.data.block_id,
            label: input.data.label.text,
            required: input.data.optional !== true,
            maxLength: input.data.element.max_length ?? 3000,
          },
        ]
      : [];
  });
  return {
    id,
    person,
    title: modal.data.title?.text ?? 'Form',
    submit: modal.data.submit?.text ?? 'Submit',
    inputs,
  };
}

function isImageType(mimetype: string): boolean {
  return mimetype.startsWith('image/');
}

/** A Slack channel's (or DM's) messages as the page shows them, with the ephemerals `viewerId` sees there. */
export function slackMessageViews(fake: SlackFake, channelId: string, viewerId: string): SlackMessageView[] {
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
  // Ephemeral answers (a slash command's acknowledgement) to the person using the page.
  for (const e of workspace.ephemerals) {
    if (e.channel !== channelId || e.user !== viewerId) continue;
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
      buttons: [],
    });
  }
  messages.sort((a, b) => Number(a.ts) - Number(b.ts));
  return messages;
}

export function slackSnapshot(fake: SlackFake, channelId: string, viewerId: string): SlackSnapshot {
  const { workspace, identity } = fake;
  const channel = workspace.channels.get(channelId);
  const users = [...workspace.users.values()];
  const messages = slackMessageViews(fake, channelId, viewerId);
  return {
    channel: { id: channelId, name: channel?.name ?? channelId },
    botUserId: identity.botUserId,
    botName: workspace.users.get(identity.botUserId)?.name ?? 'genbot',
    users: users.filter((u) => !u.isBot).map((u) => ({ id: u.id, name: u.name, displayName: u.displayName })),
    messages,
    forms: fake.views.flatMap((shown) => {
      const person = workspace.users.get(shown.user)?.name;
      const form = shown.open && person !== undefined ? slackForm(shown.id, person, shown.view) : undefined;
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

export function discordSnapshot(fake: DiscordFake, channelId: string): DiscordSnapshot {
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
      .map((c) => ({
        name: c.name,
        description: c.description,
        options: c.options.map((o) => ({
          name: o.name,
          type: o.type,
          required: o.required === true,
          choices: (o.choices ?? []).map((choice) => ({ name: choice.name, value: choice.value })),
        })),
      })),
    messages: state.messages(channelId).map(view),
    threads: threads.map((t) => ({ id: t.id, name: t.name, messages: state.messages(t.id).map(view) })),
    forms: state.interactions.flatMap((interaction) => {
      const modal = interaction.modal;
      if (modal === null || modal.closedBy !== null) return [];
      return [
        {
          id: interaction.id,
          person: interaction.user.username,
          title: modal.title,
          submit: 'Submit',
          inputs: modal.inputs.map((input) => ({
            id: input.customId,
            label: input.label,
            required: input.required,
            maxLength: input.maxLength,
          })),
        },
      ];
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
