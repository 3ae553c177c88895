import { Writable } from 'node:stream';
import { inMemoryDatabase, startBots } from '@genbot/cli/wiring';
import { GenAiClient } from '@genbot/core/genai';
import type { SettingLevel, SettingName, SettingsPlace } from '@genbot/core/settings';
import type { JsonValue } from '@genbot/core/store';
import { createLogger } from '@genbot/core/log';
import { startEmulator } from '@genbot/emulator';
import { startSlackFake } from '@genbot/fakes';
import { eventually } from '@genbot/test-servers';
import { parseSlackEnv } from '@genbot/slack-bot';
import { z } from 'zod';
import { assertNoSecrets, SECRETS, type Harness } from '../../slack/support/harness.js';
import { shownText } from '../../slack/support/result-messages.js';
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

const USER = 'U1';
/** A workspace admin (users.info), who may change every setting. */
const ADMIN = 'UFADMIN';

const OPERATOR = faultOperator('claude-e2e', 'gemini-image-e2e');

/** The settings form's `private_metadata`: the place it was opened for, base64url JSON, and its MAC. */
const formPlace = z.record(z.string(), z.unknown());
const viewTexts = z.array(z.looseObject({ text: z.looseObject({ text: z.string() }).optional() }));

// The bot's call each platform fault hits first: the reply's first post, its streamed edits, the upload URL request.
const RATE_LIMITED_METHOD: Record<PlatformFault, { method: string; failNext: number }> = {
  post: { method: 'chat.postMessage', failNext: 1 },
  edit: { method: 'chat.update', failNext: 2 },
  upload: { method: 'files.getUploadURLExternal', failNext: 1 },
};

/** The Slack bot (Bolt, HTTP mode, edits in place) against the Slack fake, as a fault-suite platform. */
export class SlackPlatform implements Platform {
  readonly name = 'slack';
  readonly resultStandsAlone = { imagine: true };
  readonly operator = OPERATOR;
  readonly chatModel = OPERATOR.chatModel;
  readonly imageModel = OPERATOR.imageModel;
  readonly h: Harness;

  private constructor(harness: Harness) {
    this.h = harness;
    harness.slack.workspace.addUser({ id: ADMIN, name: 'fay', role: 'admin' });
  }

  static async start(): Promise<SlackPlatform> {
    return new SlackPlatform((await startSuiteHarness({})).harness);
  }

  get emulator() {
    return this.h.emulator;
  }

  get botUserId(): string {
    return this.h.slack.identity.botUserId;
  }

  channel(index: number): string {
    return `CF${String(index).padStart(4, '0')}`;
  }

  async mention(channel: string, text: string, attachment?: UserAttachment): Promise<void> {
    await this.say(channel, {
      text,
      mentionsBot: true,
      ...(attachment === undefined ? {} : { attachments: [attachment] }),
    });
  }

  async say(channel: string, message: UserMessage): Promise<Said> {
    const posted = await this.h.slack.userSays({
      user: USER,
      channel,
      text: message.mentionsBot === true ? `<@${this.botUserId}> ${message.text}` : message.text,
      ...(message.after === undefined ? {} : { threadTs: message.after.ref }),
      files: (message.attachments ?? []).map((attachment) => ({
        name: attachment.name,
        bytes: attachment.bytes,
        ...(attachment.contentType === undefined ? {} : { mimetype: attachment.contentType }),
      })),
    });
    // A thread is known by its parent: every later message goes there.
    return { ref: message.after?.ref ?? posted.ts };
  }

  async imagine(channel: string, prompt: string, aspectRatio?: string): Promise<void> {
    const text = aspectRatio === undefined ? prompt : `${prompt} --ar ${aspectRatio}`;
    await this.h.slack.userRunsCommand({ user: USER, channel, command: '/imagine', text });
  }

  view(channel: string): View {
    const { workspace } = this.h.slack;
    const messages = workspace.botMessages(this.botUserId, { channel });
    const uploads: Upload[] = messages
      .filter((message) => message.fileIds.length > 0)
      .map((message) => ({
        // A result's text travels as a block with its buttons.
        comment: shownText(message),
        files: message.fileIds.flatMap((id) => {
          const file = workspace.files.get(id);
          return file?.completed === true && file.bytes !== undefined ? [{ name: file.name, bytes: file.bytes }] : [];
        }),
      }));
    const texts = [
      ...messages.filter((message) => message.fileIds.length === 0).map((message) => message.text),
      // What only the user sees (usage help answered with the command's acknowledgement) is shown too.
      ...workspace.ephemerals.filter((ephemeral) => ephemeral.channel === channel).map((ephemeral) => ephemeral.text),
    ];
    return { texts, uploads };
  }

  publicTexts(channel: string): string[] {
    return this.h.slack.workspace
      .botMessages(this.botUserId, { channel })
      .filter((message) => message.fileIds.length === 0)
      .map((message) => message.text);
  }

  /** The bot marks nothing on Slack: its refusals there are private answers. */
  reactionMarks(): number {
    return 0;
  }

  allVersions(channel: string): string[] {
    const { workspace } = this.h.slack;
    return [
      ...workspace
        .botMessages(this.botUserId, { channel })
        .flatMap((message) => [...message.edits.map((version) => version.text), message.text]),
      // A refusal at intake is a message of its own that only the user sees.
      ...workspace.ephemerals.filter((ephemeral) => ephemeral.channel === channel).map((ephemeral) => ephemeral.text),
    ];
  }

  rateLimitHitCount(): number {
    return this.h.slack.rateLimitHits.length;
  }

  rateLimitNext(kind: PlatformFault): () => void {
    return this.h.slack.rateLimit({ ...RATE_LIMITED_METHOD[kind], retryAfterSeconds: 1 });
  }

  enforceChannelLimits(): () => void {
    const offs = [
      this.h.slack.rateLimit({ method: 'chat.postMessage', perSecond: 1, scope: 'channel' }),
      this.h.slack.rateLimit({ method: 'chat.update', perSecond: 1, scope: 'channel' }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  failUploads(times?: number): () => void {
    return this.h.slack.failUploads({ status: 500, ...(times === undefined ? {} : { times }) });
  }

  failDownloads(status: 403 | 404, times?: number): () => void {
    return this.h.slack.failDownloads({ status, ...(times === undefined ? {} : { times }) });
  }

  redirectDownloads(location: string): () => void {
    return this.h.slack.redirectDownloads({ location });
  }

  leakedSecret(): string | undefined {
    try {
      assertNoSecrets(this.h);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  async changeSetting(
    channel: string,
    level: SettingLevel,
    name: SettingName,
    value: JsonValue | undefined,
  ): Promise<void> {
    const workspace = { platform: 'slack', workspaceId: this.h.slack.identity.teamId } as const;
    const scope = level === 'channel' ? { ...workspace, level, channelId: channel } : { ...workspace, level };
    await this.h.store.settings.change(scope, name, value, 'UADMIN');
  }

  async withQuota(quota: BotQuota): Promise<Platform> {
    return new SlackPlatform((await startSuiteHarness({ quota })).harness);
  }

  async withIdleWorker(): Promise<IdleBot> {
    const { harness, startWorker } = await startSuiteHarness({ workerStarts: 'later' });
    return { platform: new SlackPlatform(harness), startWorker };
  }

  #user(as: Rights): string {
    if (as === 'channel admin') throw new Error('Slack has no channel-only admin: its admins are the workspace’s');
    return as === 'admin' ? ADMIN : USER;
  }

  #place(channel: string): SettingsPlace {
    return { platform: 'slack', workspaceId: this.h.slack.identity.teamId, channelId: channel };
  }

  async genbot(channel: string, request: GenbotRequest, as: Rights = 'member'): Promise<string> {
    const user = this.#user(as);
    const text = [request.action, request.name, request.value, request.workspace === true ? '--workspace' : undefined]
      .filter((part) => part !== undefined)
      .join(' ');
    const { workspace } = this.h.slack;
    const before = workspace.ephemerals.length;
    await this.h.slack.userRunsCommand({ user, channel, command: '/genbot', text });
    // `/genbot set|reset` is answered with the command's acknowledgement.
    const answer = workspace.ephemerals
      .slice(before)
      .find((each) => each.user === user && each.source === 'command_ack');
    if (answer === undefined) throw new Error(`/genbot ${text}: no private answer`);
    return answer.text;
  }

  offeredSettingNames(): undefined {
    return undefined;
  }

  async openSettingsForm(channel: string, as: Rights): Promise<SettingsForm> {
    const user = this.#user(as);
    const { slack } = this.h;
    const before = new Set(slack.views.map((view) => view.id));
    await slack.userRunsCommand({ user, channel, command: '/genbot', text: '' });
    const view = await slack.waitFor(() => slack.views.find((each) => !before.has(each.id) && each.open));
    return { channel, as, ref: view.id };
  }

  async submitSettingsForm(
    form: SettingsForm,
    values: Readonly<Record<string, string>>,
    forgedChannel?: string,
  ): Promise<string> {
    const { slack } = this.h;
    const user = this.#user(form.as);
    const view = slack.views.find((each) => each.id === form.ref);
    if (view === undefined) throw new Error(`no settings form ${form.ref}`);
    const before = slack.workspace.ephemerals.length;
    const submitted = await slack.userSubmitsView({
      user,
      viewId: view.id,
      values: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value }])),
      ...(forgedChannel === undefined ? {} : { forged: { privateMetadata: naming(view.view, forgedChannel) } }),
    });
    if (submitted.errors !== undefined) return Object.values(submitted.errors).join('\n');
    if (submitted.updated === true) {
      return viewTexts
        .parse(view.view.blocks)
        .flatMap((block) => (block.text === undefined ? [] : [block.text.text]))
        .join('\n');
    }
    // Closed: the answer is a private message in the form's channel.
    const answer = await eventually(
      () =>
        slack.workspace.ephemerals
          .slice(before)
          .find((each) => each.user === user && each.channel === form.channel && each.source === 'chat.postEphemeral'),
      { what: 'the private answer to the settings form' },
    );
    return answer.text;
  }

  async settingChanges(channel: string): Promise<number> {
    return (await this.h.store.settings.changes(this.#place(channel), 1_000)).length;
  }

  stop(): Promise<void> {
    return this.h.close();
  }
}

/** The form's `private_metadata` with its place naming `channel` instead, its MAC kept: a tampered submission. */
function naming(view: Record<string, unknown>, channel: string): string {
  const [body = '', mac = ''] = String(view.private_metadata).split('.');
  const place = formPlace.parse(JSON.parse(Buffer.from(body, 'base64url').toString()));
  return `${Buffer.from(JSON.stringify({ ...place, c: channel })).toString('base64url')}.${mac}`;
}

/**
 * The suite's harness (HTTP mode, edits in place, the suite's service limits, logs captured), with
 * the operator's settings and, for a row's own bot, daily quotas or a worker started later, which the
 * shared harness does not take: the bot as the launcher composes it.
 */
async function startSuiteHarness(options: {
  quota?: BotQuota;
  workerStarts?: 'later';
}): Promise<{ harness: Harness; startWorker(): Promise<void> }> {
  const { quota = {} } = options;
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  });
  const slack = await startSlackFake({
    botToken: SECRETS.botToken,
    signingSecret: SECRETS.signingSecret,
    retryDelaysMs: [50, 100, 100],
  });
  const emulator = await startEmulator({ apiKey: SECRETS.apiKey });
  const client = new GenAiClient({
    baseUrl: emulator.url,
    apiKey: SECRETS.apiKey,
    retryBaseDelayMs: 5,
    logger,
    ...SERVICE_LIMITS,
  });
  const config = parseSlackEnv({
    SLACK_BOT_TOKEN: SECRETS.botToken,
    SLACK_SIGNING_SECRET: SECRETS.signingSecret,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: '0',
    SLACK_STREAMING: 'edit',
  });
  const bots = await startBots({
    slack: { slack: config.bot! },
    database: await inMemoryDatabase(),
    models: { client, chatModel: OPERATOR.chatModel, imageModel: OPERATOR.imageModel },
    quota: { imagesPerDay: quota.imagesPerDay, chatTokensPerDay: undefined },
    operator: OPERATOR,
    logger,
    ...(options.workerStarts === undefined ? {} : { workerStarts: options.workerStarts }),
  });
  await bots.working;
  const bot = bots.slack!;
  slack.deliverTo(`http://127.0.0.1:${String(bot.port)}/slack/events`);
  const harness: Harness = {
    mode: 'http',
    streaming: 'edit',
    slack,
    emulator,
    bot,
    store: bots.jobs.store,
    logs: () => lines.join(''),
    close: async () => {
      await bots.stop({ drainMs: 2_000 });
      await client.close();
      await slack.close();
      await emulator.close();
    },
  };
  return { harness, startWorker: () => bots.startWorker() };
}
