import { createLogger } from '@genbot/core/log';
import type { SettingLevel, SettingName, SettingsPlace } from '@genbot/core/settings';
import type { JsonValue } from '@genbot/core/store';
import type { DiscordInteraction } from '@genbot/fakes';
import { z } from 'zod';
import {
  CHAT_MODEL,
  everythingSaid,
  IMAGE_MODEL,
  SECRETS,
  startHarness,
  type Harness,
} from '../../discord/support/harness.js';
import type {
  BotQuota,
  GenbotRequest,
  IdleBot,
  Platform,
  PlatformFault,
  Rights,
  Said,
  SettingsForm,
  Upload,
  UserAttachment,
  UserMessage,
  View,
} from './platform.js';
import { faultOperator } from './platform.js';
import { SERVICE_LIMITS } from './service-limits.js';

/** Discord's EPHEMERAL message flag: a message only the person it answers sees. */
const EPHEMERAL = 1 << 6;

const USER = 'ada';
/** Who runs `/genbot` with each right: ada has none, the others Manage Channels and Manage Server. */
const PEOPLE: Record<Rights, string> = { member: USER, 'channel admin': 'cleo', admin: 'max' };

const OPERATOR = faultOperator(CHAT_MODEL, IMAGE_MODEL);

/** A subcommand's options as registered: a `name` option with choices is what the client offers. */
const subcommandOptions = z.array(
  z.looseObject({
    name: z.string(),
    choices: z.array(z.object({ value: z.union([z.string(), z.number()]) })).optional(),
  }),
);

/** What a Discord bot for the suite starts with besides its channels. */
interface StartOptions {
  quota?: BotQuota;
  /** False: its jobs wait in the queue until `startWorker()`. */
  worker?: boolean;
}

// The call each platform fault hits: the reply's first post, its streamed edits, and /imagine's upload, which
// fills the deferred answer after the progress line did.
const RATE_LIMITED_ROUTE: Record<PlatformFault, { route: string; failNext: number; failAfter?: number }> = {
  post: { route: 'POST /channels/:id/messages', failNext: 1 },
  edit: { route: 'PATCH /channels/:id/messages/:id', failNext: 2 },
  upload: { route: 'PATCH /webhooks/:id/:token/messages/:id', failAfter: 1, failNext: 1 },
};

/** The Discord bot (discord.js) against the Discord fake, as a fault-suite platform. */
export class DiscordPlatform implements Platform {
  readonly name = 'discord';
  readonly resultStandsAlone = { imagine: true };
  readonly operator = OPERATOR;
  readonly chatModel = CHAT_MODEL;
  readonly imageModel = IMAGE_MODEL;
  readonly h: Harness;
  /** The fake's own log (gateway sessions, resumes), apart from the bot's. */
  readonly fakeLogs: string[];

  private constructor(harness: Harness, fakeLogs: string[]) {
    this.h = harness;
    this.fakeLogs = fakeLogs;
    harness.fake.grantPermissions(PEOPLE['channel admin'], ['ManageChannels']);
    harness.fake.grantPermissions(PEOPLE.admin, ['ManageGuild']);
  }

  /** `channels`: how many row channels to create (Discord only shows a bot the channels its guild had at READY). */
  static async start(channels: number, options: StartOptions = {}): Promise<DiscordPlatform> {
    const { quota, worker } = options;
    const fakeLogs: string[] = [];
    const logger = createLogger({
      level: 'debug',
      destination: {
        write(line: string) {
          fakeLogs.push(line);
          return true;
        },
      },
    });
    const names = ['general', ...Array.from({ length: channels }, (_, index) => `row-${index}`)];
    return new DiscordPlatform(
      await startHarness({
        fake: { guild: { channels: names }, logger },
        serviceLimits: SERVICE_LIMITS,
        operator: OPERATOR,
        ...(quota === undefined ? {} : { quota }),
        ...(worker === undefined ? {} : { worker }),
      }),
      fakeLogs,
    );
  }

  get emulator() {
    return this.h.emulator;
  }

  channel(index: number): string {
    return this.h.fake.channelId(`row-${index}`);
  }

  async mention(channel: string, text: string, attachment?: UserAttachment): Promise<void> {
    await this.say(channel, {
      text,
      mentionsBot: true,
      ...(attachment === undefined ? {} : { attachments: [attachment] }),
    });
  }

  async say(channel: string, message: UserMessage): Promise<Said> {
    const posted = this.h.fake.userSays({
      user: USER,
      channelId: channel,
      content: message.mentionsBot === true ? `${this.h.mention} ${message.text}` : message.text,
      ...(message.after === undefined ? {} : { replyTo: message.after.ref }),
      attachments: (message.attachments ?? []).map((attachment) => ({
        filename: attachment.name,
        bytes: attachment.bytes,
        ...(attachment.contentType === undefined ? {} : { contentType: attachment.contentType }),
      })),
    });
    // A conversation outside threads is a reply chain: the next message replies to this one.
    return { ref: posted.id };
  }

  async imagine(channel: string, prompt: string, aspectRatio?: string): Promise<void> {
    const options = { prompt, ...(aspectRatio === undefined ? {} : { aspect_ratio: aspectRatio }) };
    this.h.fake.userRunsCommand({ user: USER, channelId: channel, name: 'imagine', options });
  }

  view(channel: string): View {
    const messages = this.h.botMessages(channel);
    const uploads: Upload[] = messages
      .filter((message) => message.attachments.length > 0)
      .map((message) => ({
        comment: message.content,
        files: message.attachments.map((attachment) => ({ name: attachment.filename, bytes: attachment.bytes })),
      }));
    return {
      texts: messages.filter((message) => message.attachments.length === 0).map((message) => message.content),
      uploads,
    };
  }

  publicTexts(channel: string): string[] {
    return this.h
      .botMessages(channel)
      .filter((message) => message.attachments.length === 0 && (message.flags & EPHEMERAL) === 0)
      .map((message) => message.content);
  }

  reactionMarks(channel: string): number {
    return this.h.fake.state.messages(channel).reduce((marks, message) => marks + message.botReactions.length, 0);
  }

  allVersions(channel: string): string[] {
    return this.h
      .botMessages(channel)
      .flatMap((message) => [...message.history.map((version) => version.content), message.content]);
  }

  rateLimitHitCount(): number {
    return this.h.fake.state.rateLimitHits.length;
  }

  rateLimitNext(kind: PlatformFault): () => void {
    const limit = this.h.fake.rateLimit({ ...RATE_LIMITED_ROUTE[kind], limit: 100, windowMs: 1_000 });
    return () => limit.off();
  }

  enforceChannelLimits(): () => void {
    // Five new messages and five edits a channel every five seconds.
    const limits = [
      this.h.fake.rateLimit({ route: 'POST /channels/:id/messages', limit: 5, windowMs: 5_000 }),
      this.h.fake.rateLimit({ route: 'PATCH /channels/:id/messages/:id', limit: 5, windowMs: 5_000 }),
    ];
    return () => {
      for (const limit of limits) limit.off();
    };
  }

  failUploads(times?: number): () => void {
    const rejecting = this.h.fake.rejectUploads(times === undefined ? {} : { times });
    return () => rejecting.off();
  }

  failDownloads(status: 403 | 404, times?: number): () => void {
    const failing = this.h.fake.failDownloads({ status, ...(times === undefined ? {} : { times }) });
    return () => failing.off();
  }

  redirectDownloads(location: string): () => void {
    const redirecting = this.h.fake.redirectDownloads({ location });
    return () => redirecting.off();
  }

  leakedSecret(): string | undefined {
    // Interaction tokens are credentials too: webhook URLs carry them.
    const tokens = this.h.fake.state.interactions.map((interaction) => interaction.token);
    const said = everythingSaid(this.h);
    for (const secret of [...SECRETS, ...tokens]) {
      const where = said.findIndex((text) => text.includes(secret));
      if (where !== -1)
        return `${SECRETS.includes(secret) ? 'a secret' : 'an interaction token'} found in ${where < this.h.logs.length ? 'logs' : 'messages'}`;
    }
    if (this.h.logs.length === 0) return 'no log lines were captured';
    return undefined;
  }

  async changeSetting(
    channel: string,
    level: SettingLevel,
    name: SettingName,
    value: JsonValue | undefined,
  ): Promise<void> {
    const place = { platform: 'discord', workspaceId: this.h.fake.guildId, channelId: channel } as const;
    await this.h.jobs.settings.change({ place, level, name, value, by: 'admin' });
  }

  withQuota(quota: BotQuota): Promise<Platform> {
    return DiscordPlatform.start(1, { quota });
  }

  async withIdleWorker(): Promise<IdleBot> {
    const platform = await DiscordPlatform.start(1, { worker: false });
    return { platform, startWorker: () => platform.h.startWorker() };
  }

  #place(channel: string): SettingsPlace {
    return { platform: 'discord', workspaceId: this.h.fake.guildId, channelId: channel };
  }

  /** The private answer the bot gave an interaction. */
  async #answerTo(interaction: DiscordInteraction): Promise<string> {
    const message = await this.h.fake.waitFor(() => {
      const id = interaction.originalMessageId;
      return id === null ? undefined : this.h.fake.state.message(interaction.channelId, id);
    });
    if (!interaction.ephemeral) throw new Error(`the answer to ${interaction.id} is not private`);
    return message.content;
  }

  async genbot(channel: string, request: GenbotRequest, as: Rights = 'member'): Promise<string> {
    const options = {
      name: request.name,
      ...(request.value === undefined ? {} : { value: request.value }),
      ...(request.workspace === true ? { scope: 'server' } : {}),
    };
    const run = this.h.fake.userRunsCommand({
      user: PEOPLE[as],
      channelId: channel,
      name: 'genbot',
      subcommand: request.action,
      options,
    });
    return this.#answerTo(run);
  }

  offeredSettingNames(): readonly string[] {
    const genbot = [...this.h.fake.state.guildCommands, ...this.h.fake.state.globalCommands].find(
      (command) => command.name === 'genbot',
    );
    const set = subcommandOptions.parse(genbot?.options.find((option) => option.name === 'set')?.options ?? []);
    const choices = set.find((option) => option.name === 'name')?.choices;
    if (choices === undefined) throw new Error('/genbot set offers no choice of names');
    return choices.map((choice) => String(choice.value));
  }

  async openSettingsForm(channel: string, as: Rights): Promise<SettingsForm> {
    const run = this.h.fake.userRunsCommand({
      user: PEOPLE[as],
      channelId: channel,
      name: 'genbot',
      subcommand: 'settings',
    });
    await this.h.fake.waitFor(() => run.modal ?? undefined);
    return { channel, as, ref: run.id };
  }

  async submitSettingsForm(
    form: SettingsForm,
    values: Readonly<Record<string, string>>,
    forgedChannel?: string,
  ): Promise<string> {
    // The client closes a modal once answered: a second submission comes from the form opened again.
    const answered = (this.h.fake.state.interaction(form.ref)?.modal?.closedBy ?? null) !== null;
    const open = answered ? await this.openSettingsForm(form.channel, form.as) : form;
    const modal = this.h.fake.state.interaction(open.ref)?.modal;
    if (modal === undefined || modal === null) throw new Error(`no settings form ${open.ref}`);
    // The form's own id, naming the other channel where it names this one.
    const forgedCustomId =
      forgedChannel === undefined ? undefined : modal.customId.replace(form.channel, forgedChannel);
    if (forgedCustomId === modal.customId) throw new Error(`the form's id ${modal.customId} names no channel`);
    const sent = this.h.fake.userSubmitsModal({
      interactionId: open.ref,
      values,
      ...(forgedCustomId === undefined ? {} : { forgedCustomId }),
    });
    return this.#answerTo(sent);
  }

  async settingChanges(channel: string): Promise<number> {
    return (await this.h.store.settings.changes(this.#place(channel), 1_000)).length;
  }

  stop(): Promise<void> {
    return this.h.stop();
  }
}
