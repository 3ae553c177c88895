import type { Logger } from 'pino';
import { z } from 'zod';
import type { SlackEnv } from './env.js';
import type { AttemptInfo, DeliveryRecord, EventDelivery } from './event-delivery.js';
import { VERIFICATION_TOKEN, appMentionEvent, eventCallback, mentions, messageEvent } from './events.js';
import { mediaTypeOf } from './media.js';
import type { ResponseUrls } from './response-urls.js';
import type { SignatureMode } from './signing.js';
import type { SlackChannel, SlackMessage, SlackUser } from './workspace.js';

const challengeAnswer = z.object({ challenge: z.string() });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Event types the app subscribes to; Slack only sends those. */
export type SubscribedEvent = 'message' | 'app_mention';

export interface UserFile {
  name: string;
  bytes: Uint8Array;
  /** Derived from the bytes and name when omitted, as Slack does. */
  mimetype?: string;
  title?: string;
}

export interface UserSays {
  user: string;
  channel: string;
  text: string;
  /** Reply in this thread (the parent's ts). */
  threadTs?: string;
  /** Attach files, as a user dragging images into the message would. */
  files?: UserFile[];
  /** Send the deliveries with a wrong or stale signature. */
  signature?: SignatureMode;
}

export interface BotSays {
  /** The foreign bot's `bot_id` (not the app under test). */
  botId: string;
  username?: string;
  channel: string;
  text: string;
  threadTs?: string;
}

export interface PostedMessage {
  ts: string;
  channel: string;
  threadTs?: string;
  fileIds: string[];
  /** One per event sent (`message`, `app_mention`), each after its first attempt was answered. */
  deliveries: DeliveryRecord[];
}

export interface UserRunsCommand {
  user: string;
  channel: string;
  /** With the slash, e.g. `/imagine`. */
  command: string;
  text: string;
  signature?: SignatureMode;
}

export interface CommandRun {
  triggerId: string;
  responseUrl: string;
  delivery: DeliveryRecord;
}

/**
 * The test side of the workspace: people (and other bots) acting, turned into stored messages and
 * the events or commands Slack would deliver to the app.
 */
export class SlackDriver {
  readonly #env: SlackEnv;
  readonly #delivery: EventDelivery;
  readonly #responses: ResponseUrls;
  readonly #subscriptions: ReadonlySet<SubscribedEvent>;
  readonly #echoBotMessages: boolean;
  readonly #logger: Logger;

  constructor(deps: {
    env: SlackEnv;
    delivery: EventDelivery;
    responses: ResponseUrls;
    subscriptions: readonly SubscribedEvent[];
    echoBotMessages: boolean;
    logger: Logger;
  }) {
    this.#env = deps.env;
    this.#delivery = deps.delivery;
    this.#responses = deps.responses;
    this.#subscriptions = new Set(deps.subscriptions);
    this.#echoBotMessages = deps.echoBotMessages;
    this.#logger = deps.logger;
  }

  async userSays(input: UserSays): Promise<PostedMessage> {
    const { workspace } = this.#env;
    this.#delivery.assertReachable();
    const user = this.#ensureUser(input.user);
    const channel = this.#ensureChannel(input.channel);
    const fileIds = (input.files ?? []).map((file) => this.#storeUserFile(user, channel, input.threadTs, file));
    const message = workspace.post({
      channel: channel.id,
      user: user.id,
      text: input.text,
      fileIds,
      ...(input.threadTs !== undefined && { threadTs: input.threadTs }),
    });
    for (const id of fileIds) {
      const file = workspace.files.get(id);
      if (file) file.messageTs = message.ts;
    }
    const events: Record<string, unknown>[] = [];
    if (this.#subscriptions.has('message')) events.push(messageEvent(this.#env, message));
    if (this.#subscriptions.has('app_mention') && !channel.isIm && mentions(input.text, this.#env.identity.botUserId)) {
      events.push(appMentionEvent(this.#env, message));
    }
    const deliveries = await Promise.all(
      events.map((event) =>
        this.#delivery.deliver({
          kind: 'events_api',
          payload: eventCallback(this.#env, event),
          ...(input.signature !== undefined && { signature: input.signature }),
        }),
      ),
    );
    return {
      ts: message.ts,
      channel: channel.id,
      fileIds,
      deliveries,
      ...(message.threadTs !== undefined && { threadTs: message.threadTs }),
    };
  }

  /** Another bot (a foreign integration) posts: `subtype: 'bot_message'` with its `bot_id`. */
  async botSays(input: BotSays): Promise<PostedMessage> {
    this.#delivery.assertReachable();
    const channel = this.#ensureChannel(input.channel);
    const message = this.#env.workspace.post({
      channel: channel.id,
      botId: input.botId,
      subtype: 'bot_message',
      username: input.username ?? input.botId,
      text: input.text,
      ...(input.threadTs !== undefined && { threadTs: input.threadTs }),
    });
    const deliveries = this.#subscriptions.has('message')
      ? [await this.#delivery.deliver({ kind: 'events_api', payload: eventCallback(this.#env, messageEvent(this.#env, message)) })]
      : [];
    return { ts: message.ts, channel: channel.id, fileIds: [], deliveries, ...(input.threadTs !== undefined && { threadTs: input.threadTs }) };
  }

  async userRunsCommand(input: UserRunsCommand): Promise<CommandRun> {
    const { identity, workspace } = this.#env;
    this.#delivery.assertReachable();
    const user = this.#ensureUser(input.user);
    const channel = this.#ensureChannel(input.channel);
    const responseUrl = this.#responses.issue(channel.id, user.id);
    const triggerId = `${Date.now()}.${workspace.nextId('', 8)}.${workspace.nextId('trigger', 12).toLowerCase()}`;
    const delivery = await this.#delivery.deliver({
      kind: 'slash_commands',
      payload: {
        token: VERIFICATION_TOKEN,
        team_id: identity.teamId,
        team_domain: identity.teamName.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        channel_id: channel.id,
        channel_name: channel.isIm ? 'directmessage' : channel.name,
        user_id: user.id,
        user_name: user.name,
        command: input.command,
        text: input.text,
        api_app_id: identity.appId,
        is_enterprise_install: 'false',
        response_url: responseUrl,
        trigger_id: triggerId,
      },
      ...(input.signature !== undefined && { signature: input.signature }),
    });
    const acked = delivery.attempts.find((a) => a.acked);
    if (acked) this.#responses.applyAck(channel.id, user.id, acked.response);
    return { triggerId, responseUrl, delivery };
  }

  /**
   * A user deletes a message: it leaves the workspace and, with the `message` subscription, the app
   * gets a `message` event with `subtype: 'message_deleted'` (undefined when it is not subscribed).
   */
  async userDeletes(input: { channel: string; ts: string }): Promise<DeliveryRecord | undefined> {
    const { workspace } = this.#env;
    this.#delivery.assertReachable();
    const channel = workspace.resolveChannel(input.channel)?.id ?? input.channel;
    const message = workspace.message(channel, input.ts);
    if (!message) throw new Error(`slack fake: no message ${input.ts} in ${input.channel}`);
    workspace.remove(message);
    if (!this.#subscriptions.has('message')) return undefined;
    const { channel_type: channelType, ...previous } = messageEvent(this.#env, message);
    const ts = workspace.nextTs();
    const event = {
      type: 'message',
      subtype: 'message_deleted',
      hidden: true,
      channel,
      channel_type: channelType,
      ts,
      deleted_ts: message.ts,
      event_ts: ts,
      previous_message: previous,
    };
    return this.#delivery.deliver({ kind: 'events_api', payload: eventCallback(this.#env, event) });
  }

  /** Delivers an already sent event again with the same `event_id`, as a Slack retry would. */
  redeliver(eventId: string, info: Partial<AttemptInfo> = {}): Promise<DeliveryRecord> {
    return this.#delivery.redeliver(eventId, { retryNum: info.retryNum ?? 1, retryReason: info.retryReason ?? 'http_timeout' });
  }

  /** Slack's Request URL check: answers whether the app echoed the challenge. */
  async verifyUrl(): Promise<{ verified: boolean; delivery: DeliveryRecord }> {
    const challenge = `challenge-${Date.now()}`;
    const delivery = await this.#delivery.deliver({
      kind: 'url_verification',
      payload: { token: VERIFICATION_TOKEN, challenge, type: 'url_verification' },
    });
    const response = delivery.attempts[0]?.response;
    const answer = typeof response === 'string' ? challengeAnswer.safeParse(parseJson(response)) : undefined;
    // Slack accepts the challenge as plain text or as `{ "challenge": … }` JSON.
    const verified = response === challenge || answer?.data?.challenge === challenge;
    return { verified, delivery };
  }

  /** Called for every message the bot posts: Slack echoes it to the app as a `message` event. */
  botPosted(message: SlackMessage): void {
    if (!this.#echoBotMessages || !this.#subscriptions.has('message')) return;
    // Queued after the API response, as Slack's events trail the API call.
    setImmediate(() => {
      this.#delivery
        .deliver({ kind: 'events_api', payload: eventCallback(this.#env, messageEvent(this.#env, message)) })
        .catch((error: unknown) => this.#logger.debug({ error: String(error) }, 'slack fake: bot message echo not delivered'));
    });
  }

  #ensureUser(id: string): SlackUser {
    return this.#env.workspace.users.get(id) ?? this.#env.workspace.addUser({ id, name: id.toLowerCase() });
  }

  #ensureChannel(id: string): SlackChannel {
    return this.#env.workspace.resolveChannel(id) ?? this.#env.workspace.addChannel({ id, name: id.toLowerCase() });
  }

  #storeUserFile(user: SlackUser, channel: SlackChannel, threadTs: string | undefined, file: UserFile): string {
    const bytes = Buffer.from(file.bytes);
    const detected = mediaTypeOf(file.name, bytes);
    const id = this.#env.workspace.nextId('F');
    this.#env.workspace.addFile({
      id,
      name: file.name,
      title: file.title ?? file.name,
      mimetype: file.mimetype ?? detected.mimetype,
      filetype: detected.filetype,
      bytes,
      declaredLength: bytes.length,
      user: user.id,
      created: Math.floor(Date.now() / 1000),
      channel: channel.id,
      completed: true,
      ...(threadTs !== undefined && { threadTs }),
    });
    return id;
  }
}
