import { Writable } from 'node:stream';
import { inMemoryDatabase, startBots } from '@genbot/cli/wiring';
import { GenAiClient } from '@genbot/core/genai';
import type { SettingLevel, SettingName } from '@genbot/core/settings';
import type { JsonValue } from '@genbot/core/store';
import { createLogger } from '@genbot/core/log';
import { startEmulator } from '@genbot/emulator';
import { startSlackFake } from '@genbot/fakes';
import { parseSlackEnv } from '@genbot/slack-bot';
import { assertNoSecrets, SECRETS, startHarness, type Harness } from '../../slack/support/harness.js';
import { shownText } from '../../slack/support/result-messages.js';
import type { BotQuota, Platform, PlatformFault, Said, Upload, UserAttachment, UserMessage, View } from './platform.js';
import { SERVICE_LIMITS } from './service-limits.js';

const USER = 'U1';

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
  readonly chatModel = 'claude-e2e';
  readonly imageModel = 'gemini-image-e2e';
  readonly h: Harness;

  private constructor(harness: Harness) {
    this.h = harness;
  }

  static async start(): Promise<SlackPlatform> {
    return new SlackPlatform(await startHarness({ mode: 'http', serviceLimits: SERVICE_LIMITS }));
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
    return new SlackPlatform(await startQuotaHarness(quota));
  }

  stop(): Promise<void> {
    return this.h.close();
  }
}

/**
 * The suite's harness (HTTP mode, edits in place, the suite's service limits, logs captured), with
 * daily quotas, which the shared harness does not take: the bot as the launcher composes it.
 */
async function startQuotaHarness(quota: BotQuota): Promise<Harness> {
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
  });
  const bots = await startBots({
    slack: { slack: config.bot! },
    database: await inMemoryDatabase(),
    models: { client, chatModel: 'claude-e2e', imageModel: 'gemini-image-e2e' },
    quota: { imagesPerDay: quota.imagesPerDay, chatTokensPerDay: undefined },
    logger,
  });
  await bots.working;
  const bot = bots.slack!;
  slack.deliverTo(`http://127.0.0.1:${String(bot.port)}/slack/events`);
  return {
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
}
