import type {
  AttachmentRef,
  ChatSurface,
  ChatTarget,
  DownloadedFile,
  MessageRef,
  PacedCall,
  PostedImage,
  ResultButton,
  SurfaceLimits,
  ThreadMessage,
  UploadFile,
  UploadReceipt,
} from '@genbot/core/surface';
import { copy } from '@genbot/core/copy';
import { type InteractionWebhook, type Message, MessageFlags } from 'discord.js';
import type { ChannelSurface } from './channel-surface.js';
import { discordCall } from './discord-errors.js';
import { decodeLocation } from './download.js';
import { discordLimits } from './limits.js';
import { actionRows } from './results/action-rows.js';
import { toUploads, uploadReceipt } from './uploads.js';
import { interactionOnly } from './user-install.js';

/** A call started this close to the token's end might outlive it: the channel takes over a little early. */
export const TOKEN_MARGIN_MS = 30_000;

/** A user install's job past its interaction's usable life: nothing it does can be shown any more. */
export class InteractionTokenOverError extends Error {
  override readonly name = 'InteractionTokenOverError';
}

/** How the interaction webhook names the deferred response. */
const ORIGINAL = '@original';

/** Follow-ups Discord lets a user-installed app create per interaction (June 2024). */
export const USER_INSTALL_FOLLOW_UPS = 5;

/**
 * How the interaction may be answered, read once from its original response
 * (ingress deferred it before queueing the job): through the channel too, or,
 * used where the bot is not (only the person's install authorised it),
 * through the interaction alone.
 */
/** What a follow-up shows: text, and a result's files and buttons. */
interface FollowUpContent {
  content: string;
  files?: ReturnType<typeof toUploads>;
  components?: ReturnType<typeof actionRows>;
}

interface Reach {
  interactionOnly: boolean;
  /** The deferred response's message id, when the token still worked to read it. */
  originalId?: string | undefined;
  /** Discord made the answer ephemeral (a server that forbids external apps, or an ephemeral deferral). */
  ephemeral: boolean;
}

export interface InteractionSurfaceOptions {
  /** The interaction's webhook (application id and interaction token). */
  webhook: InteractionWebhook;
  /**
   * Names the interaction's answers in core's per-channel budget (the job's
   * id): they go through its webhook, so they wait behind no channel message,
   * and only among themselves. Never the token, which must not leave memory.
   */
  paceKey: string;
  /** When the interaction token stops working (15 minutes after the interaction). */
  expiresAt: Date;
  /** Past the token's life, posts, edits and uploads go to the channel as plain messages. */
  channel: ChannelSurface;
  /**
   * The Edit image message command's form: its answer is the person's own
   * progress, and the images go to the channel as a reply to the message
   * edited (the target's `threadId`).
   */
  resultsInChannel?: boolean;
  /**
   * The images the job was shown where the bot may not read the channel (a
   * user install): the pressed result's (see `shownBy`) and its version's
   * parent's (see core's `parentShown`). A version among them is read back
   * from these URLs instead of from its message.
   */
  shown?: readonly AttachmentRef[] | undefined;
  /**
   * The messages earlier runs of the job showed, oldest first (a resumed
   * job's recorded steps): its follow-ups among them count toward the five.
   */
  shownBefore?: readonly string[] | undefined;
  now?: () => number;
}

/**
 * ChatSurface for one deferred interaction (a slash command, a button press,
 * a form), built from the job's data: the first post fills in the deferred
 * response ("is thinking…") as the job's progress, and the first result with
 * buttons takes its place there (images, text and action rows), so a job
 * leaves one message; later posts and uploads are follow-ups, and edits go
 * through the interaction webhook, so nothing needs channel permissions while
 * the token lasts. A job that runs past it (a long queue, a restart) answers
 * with plain channel messages instead.
 *
 * Used where the bot is not (a user install), the interaction is the only way
 * to the person: nothing goes to the channel, at most 5 follow-ups are made
 * (later ones replace the last, counting those of the job's earlier runs),
 * and a job about to outlive the token says so in its answer while it still
 * can, and goes no further.
 */
export class InteractionSurface implements ChatSurface {
  readonly platform = 'discord';
  readonly limits: SurfaceLimits = discordLimits();
  readonly #webhook: InteractionWebhook;
  readonly #paceKey: string;
  readonly #expiresAt: number;
  readonly #channel: ChannelSurface;
  readonly #resultsInChannel: boolean;
  /** `shown`'s attachments by message and attachment id. */
  readonly #shown: ReadonlyMap<string, AttachmentRef>;
  readonly #now: () => number;
  /** The deferred response's message id, once this surface has filled or seen it. */
  #originalId: string | undefined;
  /** Whether the deferred response holds a result; unknown (undefined) until this run filled or read it. */
  #originalIsResult: boolean | undefined;
  #reach: Reach | undefined;
  /** Follow-ups this job made, in this run and (once counted) those before it, the last one last. */
  readonly #followUps: string[] = [];
  /** Messages earlier runs showed, until counted among the follow-ups. */
  #shownBefore: readonly string[];
  #toldTimeRunningOut = false;

  constructor(options: InteractionSurfaceOptions) {
    this.#webhook = options.webhook;
    this.#paceKey = `interaction ${options.paceKey}`;
    this.#expiresAt = options.expiresAt.getTime();
    this.#channel = options.channel;
    this.#resultsInChannel = options.resultsInChannel ?? false;
    this.#shownBefore = options.shownBefore ?? [];
    this.#shown = new Map(
      (options.shown ?? []).flatMap((attachment) => {
        const { messageId, attachmentId } = decodeLocation(attachment.id);
        return messageId === undefined || attachmentId === undefined
          ? []
          : [[shownKey(messageId, attachmentId), attachment]];
      }),
    );
    this.#now = options.now ?? Date.now;
  }

  /**
   * Discord's per-channel message limit does not cover an interaction's
   * webhook: its answers count only against the interaction's own. Calls
   * that go to the channel (past the token's life, the Edit image form's
   * images) count against the channel's; a user install's never go there.
   */
  paceKey(call: PacedCall, where: ChatTarget): string {
    if (this.#reach?.interactionOnly === true) return this.#paceKey;
    const inChannel = !this.#tokenLive() || (call === 'upload' && this.#resultsInChannel);
    return inChannel ? where.channelId : this.#paceKey;
  }

  async post(target: ChatTarget, text: string): Promise<MessageRef> {
    const reach = await this.#reachNow();
    if (!this.#tokenLive()) {
      if (!reach.interactionOnly) return this.#channel.post(this.#inChannel(target), text);
      return this.#ranOut();
    }
    if (this.#originalId === undefined) {
      const original = await this.#fillOriginal({ content: text });
      this.#originalIsResult = false;
      return { channelId: original.channelId, messageId: original.id };
    }
    const followUp = await this.#followUp({ content: text });
    return { channelId: followUp.channelId, messageId: followUp.id };
  }

  /**
   * Discord takes the original response's own id in place of `@original`, so a
   * resumed job edits it too. Once a result took the progress message's place,
   * a late progress line (done, a restart note) would only hide the result's
   * own text: it is left out.
   */
  async edit(message: MessageRef, text: string): Promise<void> {
    const reach = await this.#reachNow();
    if (!this.#tokenLive()) {
      if (!reach.interactionOnly) return this.#channel.edit(message, text);
      return this.#ranOut();
    }
    if (await this.#holdsResult(message.messageId)) return;
    await discordCall(() => this.#webhook.editMessage(message.messageId, { content: text }));
  }

  async uploadFiles(
    target: ChatTarget,
    files: readonly UploadFile[],
    comment: string,
    buttons: readonly ResultButton[] = [],
  ): Promise<UploadReceipt> {
    const reach = await this.#reachNow();
    if (!reach.interactionOnly && (this.#resultsInChannel || !this.#tokenLive())) {
      return this.#channel.uploadFiles(this.#inChannel(target), files, comment, buttons);
    }
    if (!this.#tokenLive()) return this.#ranOut();
    const result = { content: comment, files: toUploads(files), components: actionRows(buttons) };
    // A form's deferred answer may still be a private progress line: a user install's result takes its place.
    const fillsOriginal = buttons.length > 0 || (reach.interactionOnly && this.#resultsInChannel);
    if (fillsOriginal && this.#originalIsResult !== true) {
      // The result replaces the progress line: its text, its files, its buttons.
      const original = await this.#fillOriginal(result);
      this.#originalIsResult = true;
      return uploadReceipt(original);
    }
    return uploadReceipt(await this.#followUp(result));
  }

  /** A slash command starts a conversation of its own: nothing before it belongs to it. */
  async readThread(): Promise<ThreadMessage[]> {
    return [];
  }

  postedImage(image: PostedImage): AttachmentRef {
    const posted = this.#channel.postedImage(image);
    const { messageId, fileId } = image;
    const shown =
      messageId === undefined || fileId === undefined ? undefined : this.#shown.get(shownKey(messageId, fileId));
    return shown === undefined ? posted : { ...posted, id: shown.id };
  }

  download(attachment: AttachmentRef, options: { signal?: AbortSignal } = {}): Promise<DownloadedFile> {
    return this.#channel.download(attachment, options);
  }

  /**
   * A follow-up; a user install's past the fifth (Discord refuses a sixth)
   * replaces the last one instead. Discord counts per interaction, not per
   * run: a resumed job counts those its earlier runs made too.
   */
  async #followUp(content: FollowUpContent): Promise<Message> {
    const reach = await this.#reachNow();
    this.#countFollowUpsBefore(reach);
    const last = this.#followUps.at(-1);
    if (reach.interactionOnly && last !== undefined && this.#followUps.length >= USER_INSTALL_FOLLOW_UPS) {
      return discordCall(() => this.#webhook.editMessage(last, { ...content, attachments: [] }));
    }
    const flags = reach.ephemeral && reach.interactionOnly ? { flags: MessageFlags.Ephemeral as const } : {};
    const sent = await discordCall(() => this.#webhook.send({ ...content, ...flags }));
    this.#followUps.push(sent.id);
    return sent;
  }

  /** The messages earlier runs showed, but for the deferred response, were their follow-ups. */
  #countFollowUpsBefore(reach: Reach): void {
    const original = new Set([ORIGINAL, reach.originalId]);
    const before = this.#shownBefore.filter((id) => !original.has(id) && !this.#followUps.includes(id));
    this.#shownBefore = [];
    this.#followUps.unshift(...new Set(before));
  }

  /**
   * A user install's job that reaches the token's last moments: the person is
   * told in the answer, once, while the token still works (a result already
   * there keeps its words); nothing later can reach them. The call fails, so
   * a job that has not drawn yet ends before it asks the service for images
   * no one would see (its first post or edit comes first).
   */
  async #ranOut(): Promise<never> {
    if (!this.#toldTimeRunningOut && this.#now() < this.#expiresAt && this.#originalIsResult !== true) {
      this.#toldTimeRunningOut = true;
      await discordCall(() => this.#webhook.editMessage(ORIGINAL, { content: copy.interactionTimeRunningOut }));
    }
    throw new InteractionTokenOverError('the interaction token ran out: nothing more can be shown');
  }

  /** How this interaction may be answered; read from its original response on the first call. */
  async #reachNow(): Promise<Reach> {
    if (this.#reach !== undefined) return this.#reach;
    if (this.#now() >= this.#expiresAt) {
      // Nothing can be read through a dead token: only a job with a channel gets this far.
      this.#reach = { interactionOnly: false, ephemeral: false };
      return this.#reach;
    }
    const original = await discordCall(() => this.#webhook.fetchMessage(ORIGINAL));
    this.#reach = {
      interactionOnly: interactionOnly(original.interactionMetadata?.authorizingIntegrationOwners),
      originalId: original.id,
      ephemeral: original.flags.has(MessageFlags.Ephemeral),
    };
    return this.#reach;
  }

  /** Ingress deferred the interaction before queueing the job, so the deferred response is there to fill. */
  async #fillOriginal(content: Parameters<InteractionWebhook['editMessage']>[1]): Promise<Message> {
    const original = await discordCall(() => this.#webhook.editMessage(ORIGINAL, content));
    this.#originalId = original.id;
    return original;
  }

  /**
   * Whether `messageId` is the deferred response and holds a result. A run
   * that resumes a job finds the response as an earlier run left it, so it
   * reads it once.
   */
  async #holdsResult(messageId: string): Promise<boolean> {
    if (this.#originalId !== undefined && messageId !== this.#originalId) return false;
    if (this.#originalIsResult === undefined) {
      const original = await discordCall(() => this.#webhook.fetchMessage(ORIGINAL));
      this.#originalId = original.id;
      this.#originalIsResult = original.components.length > 0;
    }
    return messageId === this.#originalId && this.#originalIsResult;
  }

  /** Where a channel message goes: a reply to the message edited for the Edit image form, else the channel itself. */
  #inChannel(target: ChatTarget): ChatTarget {
    return this.#resultsInChannel ? target : { channelId: target.channelId };
  }

  #tokenLive(): boolean {
    return this.#now() < this.#expiresAt - TOKEN_MARGIN_MS;
  }
}

function shownKey(messageId: string, attachmentId: string): string {
  return `${messageId}/${attachmentId}`;
}
