import type { DiscordAttachment, DiscordFake, DiscordMessage, SlackFake, SlackMessage } from '@genbot/fakes';

/** What the page renders: one channel of each fake, plain JSON, no bytes (files are fetched by URL). */
export interface PlaygroundSnapshot {
  version: number;
  /** True once shutdown started: the page stops offering actions. */
  closing: boolean;
  service: ServiceInfo;
  slack: SlackSnapshot;
  discord: DiscordSnapshot;
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
  editCount: number;
  streaming: boolean;
  files: FileView[];
  /** Replies in its thread, on a thread parent. */
  replyCount: number;
  /** Ephemeral: only visible to the person. */
  ephemeral?: boolean;
}

export interface SlackSnapshot {
  channel: { id: string; name: string };
  botUserId: string;
  botName: string;
  users: { id: string; name: string; displayName: string }[];
  messages: SlackMessageView[];
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
}

export interface DiscordSnapshot {
  channel: { id: string; name: string };
  botUserId: string;
  botName: string;
  commands: { name: string; description: string; options: { name: string; type: number; required: boolean; choices: { name: string; value: string | number }[] }[] }[];
  messages: DiscordMessageView[];
  threads: { id: string; name: string; messages: DiscordMessageView[] }[];
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

function isImageType(mimetype: string): boolean {
  return mimetype.startsWith('image/');
}

export function slackSnapshot(fake: SlackFake, channelId: string, viewerId: string): SlackSnapshot {
  const { workspace, identity } = fake;
  const channel = workspace.channels.get(channelId);
  const users = [...workspace.users.values()];
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
    if (m.threadTs !== undefined && m.threadTs !== m.ts) replyCounts.set(m.threadTs, (replyCounts.get(m.threadTs) ?? 0) + 1);
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
    });
  }
  messages.sort((a, b) => Number(a.ts) - Number(b.ts));
  return {
    channel: { id: channelId, name: channel?.name ?? channelId },
    botUserId: identity.botUserId,
    botName: workspace.users.get(identity.botUserId)?.name ?? 'genbot',
    users: users.filter((u) => !u.isBot).map((u) => ({ id: u.id, name: u.name, displayName: u.displayName })),
    messages,
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

export function discordSnapshot(fake: DiscordFake, channelId: string): DiscordSnapshot {
  const { state } = fake;
  const channel = state.channel(channelId);
  const threads = state.threads.filter((t) => t.parentId === channelId);
  const threadIds = new Set(threads.map((t) => t.id));
  const view = (m: DiscordMessage): DiscordMessageView => {
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
      ...(m.interaction !== null && { command: { name: m.interaction.commandName, user: commandUser?.username ?? 'someone' } }),
      files: m.attachments.map((a) => attachmentView(m.channelId, a)),
      ...(threadIds.has(m.id) && { threadId: m.id }),
    };
  };
  const commands = [...state.guildCommands, ...state.globalCommands].filter((c) => c.type === 1);
  const seen = new Set<string>();
  return {
    channel: { id: channelId, name: channel?.name ?? channelId },
    botUserId: state.botUser.id,
    botName: state.botUser.username,
    commands: commands
      .filter((c) => (seen.has(c.name) ? false : (seen.add(c.name), true)))
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
  };
}

/**
 * A cheap fingerprint of the Discord guild (the fake has no change events): message count, edits,
 * content lengths, flags and attachments of every channel and thread, plus commands.
 */
export function discordFingerprint(fake: DiscordFake, channelId: string): string {
  const { state } = fake;
  let count = 0;
  let sum = 0;
  const channels = [channelId, ...state.threads.filter((t) => t.parentId === channelId).map((t) => t.id)];
  for (const id of channels) {
    for (const m of state.messages(id)) {
      count += 1;
      sum += m.history.length * 7 + m.content.length * 3 + m.flags + m.attachments.length * 11;
      sum %= 1_000_000_007;
    }
  }
  return `${channels.length}:${count}:${sum}:${state.guildCommands.length + state.globalCommands.length}`;
}

/** A one-line preview of a replied-to message, mentions shown as names. */
function excerpt(fake: DiscordFake, message: DiscordMessage): string {
  const text = message.content
    .replace(/<@!?(\d+)>/g, (whole, id: string) => `@${fake.state.findUser(id)?.username ?? 'unknown-user'}`)
    .replace(/\s+/g, ' ')
    .trim();
  if (text !== '') return text.length > 90 ? `${text.slice(0, 89)}…` : text;
  return message.attachments.length > 0 ? 'Click to see attachment' : '';
}
