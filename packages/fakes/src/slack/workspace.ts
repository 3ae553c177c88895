import type { SlackIds } from './ids.js';

export interface SlackUser {
  id: string;
  name: string;
  realName: string;
  displayName: string;
  isBot: boolean;
  /** Set for bot users: the `bot_id` their messages carry. */
  botId?: string;
  /** The person's role in the workspace, as users.info tells it (`is_admin`, `is_owner`); default a member. */
  role?: SlackRole;
}

/** Slack's workspace roles that users.info shows: an owner is an admin too, the primary owner an owner. */
export type SlackRole = 'member' | 'admin' | 'owner' | 'primary_owner';

export interface SlackChannel {
  id: string;
  name: string;
  isIm: boolean;
  isPrivate: boolean;
  /** For a DM: the other party. */
  imUser?: string;
  created: number;
  /** The workspace it belongs to, when not the fake's own (installs into several workspaces). */
  teamId?: string;
}

/** One earlier version of a message, kept when `chat.update` or a stream changed it. */
export interface MessageVersion {
  text: string;
  blocks?: unknown[];
  /** When this version was replaced (ms since epoch). */
  replacedAtMs: number;
}

export interface SlackMessage {
  channel: string;
  ts: string;
  /** Set on replies (the parent's ts) and, once it has replies, on the parent itself. */
  threadTs?: string;
  user?: string;
  botId?: string;
  subtype?: string;
  /** Display name of a foreign bot (`subtype: 'bot_message'`). */
  username?: string;
  text: string;
  /**
   * `markdown` when the text came as standard Markdown (`markdown_text`, native
   * streams) rather than mrkdwn, which Slack renders differently.
   */
  format?: 'markdown';
  blocks?: unknown[];
  /** IDs into `workspace.files`. */
  fileIds: string[];
  /** Earlier versions, oldest first; empty when never edited. */
  edits: MessageVersion[];
  edited?: { user: string; ts: string };
  /** Native streaming (`chat.startStream`): open until `chat.stopStream`. */
  stream?: {
    state: 'streaming' | 'stopped';
    recipientUserId?: string;
    recipientTeamId?: string;
    /** The chunks other than text the stream received (task and plan updates, blocks), in order. */
    chunks?: StreamChunk[];
  };
  updatedAtMs: number;
}

/** A task's state as a `task_update` chunk gives it; Slack shows a task's latest update as its card. */
export type StreamTaskStatus = 'pending' | 'in_progress' | 'complete' | 'error';

/**
 * A chunk of a native stream that is not its text, with `at`: how much of the
 * message's text came before it (in the default `timeline` display, task
 * cards stand among the text where they arrived).
 */
export type StreamChunk = { at: number } & (
  | {
      type: 'task_update';
      id: string;
      title: string;
      status: StreamTaskStatus;
      details?: string;
      output?: string;
      sources?: unknown[];
    }
  | { type: 'plan_update'; title: string }
  | { type: 'blocks'; blocks: unknown[] }
);

export interface EphemeralMessage {
  channel: string;
  /** Who sees it. */
  user: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks?: unknown[];
  source: 'chat.postEphemeral' | 'response_url' | 'command_ack';
}

export interface SlackFile {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  /** The bytes as uploaded; `undefined` until the upload URL received them. */
  bytes?: Buffer;
  declaredLength: number;
  user: string;
  created: number;
  altText?: string;
  /** Where `files.completeUploadExternal` (or a user's message) shared it. */
  channel?: string;
  threadTs?: string;
  initialComment?: string;
  /** ts of the message that carries the file. */
  messageTs?: string;
  completed: boolean;
  /**
   * How messages show the file when it is not simply visible: a Slack Connect
   * stub to look up with files.info (`check_file_info`), hidden by a free
   * plan's history limit, deleted (`tombstone`), or kept outside Slack.
   */
  access?: FileAccessMode;
}

export type FileAccessMode = 'check_file_info' | 'hidden_by_limit' | 'tombstone' | 'external';

export interface AssistantStatus {
  channel: string;
  threadTs: string;
  status: string;
  /** `loading_messages`, which Slack rotates through while the status is up. */
  loadingMessages?: string[];
  atMs: number;
}

export interface NewMessage {
  channel: string;
  threadTs?: string;
  user?: string;
  botId?: string;
  subtype?: string;
  username?: string;
  text: string;
  format?: SlackMessage['format'];
  blocks?: unknown[];
  fileIds?: string[];
  stream?: SlackMessage['stream'];
}

export interface MessagePatch {
  text?: string;
  /** The format of a new `text`: an edit with mrkdwn `text` makes the message mrkdwn again. */
  format?: SlackMessage['format'] | 'mrkdwn';
  blocks?: unknown[];
  editedBy?: string;
  stream?: SlackMessage['stream'];
}

type ChangeListener = () => void;

/**
 * The in-memory Slack workspace: users, channels, messages (with threads and edit history), files
 * with their bytes, ephemeral messages and assistant statuses. Pure state, no I/O; every mutation
 * notifies listeners so `waitFor` can re-check without polling.
 */
export class SlackWorkspace {
  readonly teamId: string;
  readonly users = new Map<string, SlackUser>();
  readonly channels = new Map<string, SlackChannel>();
  /** Every message ever posted and not deleted, in posting order. */
  readonly messages: SlackMessage[] = [];
  /** Messages removed by `chat.delete`, kept so tests can see what was there. */
  readonly deleted: SlackMessage[] = [];
  readonly files = new Map<string, SlackFile>();
  readonly ephemerals: EphemeralMessage[] = [];
  readonly statuses: AssistantStatus[] = [];
  readonly #ids: SlackIds;
  readonly #listeners = new Set<ChangeListener>();

  constructor(teamId: string, ids: SlackIds) {
    this.teamId = teamId;
    this.#ids = ids;
  }

  nextTs(): string {
    return this.#ids.nextTs();
  }

  nextId(prefix: string, width?: number): string {
    return this.#ids.next(prefix, width);
  }

  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells listeners that state changed; called by every mutator here and by the fake's handlers. */
  changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  addUser(user: Omit<SlackUser, 'realName' | 'displayName' | 'isBot'> & Partial<SlackUser>): SlackUser {
    const full: SlackUser = {
      realName: user.name,
      displayName: user.name,
      isBot: false,
      ...user,
    };
    this.users.set(full.id, full);
    this.changed();
    return full;
  }

  /** Makes a person a member, admin or owner of the workspace: users.info shows it from the next call. */
  setRole(userId: string, role: SlackRole): void {
    const user = this.users.get(userId);
    if (user === undefined) throw new Error(`slack fake: no user ${userId}`);
    user.role = role;
    this.changed();
  }

  addChannel(channel: Omit<SlackChannel, 'isIm' | 'isPrivate' | 'created'> & Partial<SlackChannel>): SlackChannel {
    const full: SlackChannel = {
      isIm: channel.id.startsWith('D'),
      isPrivate: false,
      created: Math.floor(Date.now() / 1000),
      ...channel,
    };
    this.channels.set(full.id, full);
    this.changed();
    return full;
  }

  /** Channel by ID, by name (`general` or `#general`), or the DM with a user ID (opened on demand). */
  resolveChannel(ref: string): SlackChannel | undefined {
    const byId = this.channels.get(ref);
    if (byId) return byId;
    const name = ref.startsWith('#') ? ref.slice(1) : ref;
    for (const channel of this.channels.values()) if (!channel.isIm && channel.name === name) return channel;
    if (this.users.has(ref)) return this.openIm(ref);
    return undefined;
  }

  openIm(userId: string): SlackChannel {
    for (const channel of this.channels.values()) if (channel.isIm && channel.imUser === userId) return channel;
    return this.addChannel({ id: this.nextId('D'), name: userId, isIm: true, imUser: userId });
  }

  post(input: NewMessage): SlackMessage {
    const message: SlackMessage = {
      channel: input.channel,
      ts: this.nextTs(),
      text: input.text,
      fileIds: input.fileIds ?? [],
      edits: [],
      updatedAtMs: Date.now(),
      ...(input.threadTs !== undefined && { threadTs: input.threadTs }),
      ...(input.user !== undefined && { user: input.user }),
      ...(input.botId !== undefined && { botId: input.botId }),
      ...(input.subtype !== undefined && { subtype: input.subtype }),
      ...(input.username !== undefined && { username: input.username }),
      ...(input.format !== undefined && { format: input.format }),
      ...(input.blocks !== undefined && { blocks: input.blocks }),
      ...(input.stream !== undefined && { stream: input.stream }),
    };
    if (message.threadTs !== undefined) {
      const parent = this.message(message.channel, message.threadTs);
      if (parent && parent.threadTs === undefined) parent.threadTs = parent.ts;
    }
    this.messages.push(message);
    this.changed();
    return message;
  }

  message(channel: string, ts: string): SlackMessage | undefined {
    return this.messages.find((m) => m.channel === channel && m.ts === ts);
  }

  /** Applies an edit, keeping the previous version in `edits`. */
  update(message: SlackMessage, patch: MessagePatch): SlackMessage {
    const now = Date.now();
    const textChanges = patch.text !== undefined || patch.blocks !== undefined;
    if (textChanges) {
      message.edits.push({
        text: message.text,
        ...(message.blocks !== undefined && { blocks: message.blocks }),
        replacedAtMs: now,
      });
      if (patch.text !== undefined) message.text = patch.text;
      if (patch.format === 'markdown') message.format = 'markdown';
      else if (patch.format === 'mrkdwn') delete message.format;
      if (patch.blocks !== undefined) message.blocks = patch.blocks;
    }
    if (patch.editedBy !== undefined) message.edited = { user: patch.editedBy, ts: this.nextTs() };
    if (patch.stream !== undefined) message.stream = patch.stream;
    message.updatedAtMs = now;
    this.changed();
    return message;
  }

  remove(message: SlackMessage): void {
    const index = this.messages.indexOf(message);
    if (index >= 0) this.messages.splice(index, 1);
    this.deleted.push(message);
    this.changed();
  }

  /** The parent followed by its replies, oldest first; empty when the parent does not exist. */
  thread(channel: string, threadTs: string): SlackMessage[] {
    const parent = this.message(channel, threadTs);
    if (!parent) return [];
    const replies = this.messages.filter((m) => m.channel === channel && m.threadTs === threadTs && m.ts !== threadTs);
    return [parent, ...replies];
  }

  /** Top-level messages of a channel (thread replies excluded), newest first, as conversations.history lists them. */
  history(channel: string): SlackMessage[] {
    return this.messages
      .filter((m) => m.channel === channel && (m.threadTs === undefined || m.threadTs === m.ts))
      .reverse();
  }

  addEphemeral(ephemeral: Omit<EphemeralMessage, 'ts'>): EphemeralMessage {
    const full = { ...ephemeral, ts: this.nextTs() };
    this.ephemerals.push(full);
    this.changed();
    return full;
  }

  addFile(file: SlackFile): SlackFile {
    this.files.set(file.id, file);
    this.changed();
    return file;
  }

  setStatus(status: AssistantStatus): void {
    this.statuses.push(status);
    this.changed();
  }

  /** Messages posted by the bot user `botUserId`, in posting order, optionally within one thread. */
  botMessages(botUserId: string, where: { channel?: string; threadTs?: string } = {}): SlackMessage[] {
    return this.messages.filter(
      (m) =>
        m.user === botUserId &&
        m.botId !== undefined &&
        (where.channel === undefined || m.channel === where.channel) &&
        (where.threadTs === undefined || m.threadTs === where.threadTs),
    );
  }
}
