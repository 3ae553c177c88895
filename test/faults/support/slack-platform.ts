import { assertNoSecrets, startHarness, type Harness } from '../../slack/support/harness.js';
import { shownText } from '../../slack/support/result-messages.js';
import type { Platform, PlatformFault, Upload, View, UserAttachment } from './platform.js';
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
  readonly resultStandsAlone = { imagine: true, mention: true };
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
    await this.h.slack.userSays({
      user: USER,
      channel,
      text: `<@${this.botUserId}> ${text}`,
      ...(attachment === undefined
        ? {}
        : {
            files: [
              {
                name: attachment.name,
                bytes: attachment.bytes,
                ...(attachment.contentType === undefined ? {} : { mimetype: attachment.contentType }),
              },
            ],
          }),
    });
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

  stop(): Promise<void> {
    return this.h.close();
  }
}
