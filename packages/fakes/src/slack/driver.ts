import type { Logger } from 'pino';
import { z } from 'zod';
import type { SlackEnv } from './env.js';
import type { AttemptInfo, DeliveryRecord, EventDelivery } from './event-delivery.js';
import {
  VERIFICATION_TOKEN,
  appMentionEvent,
  channelType,
  eventCallback,
  mentions,
  messageEvent,
  originOf,
} from './events.js';
import {
  actionTs,
  blockActions,
  onMessage,
  interactiveEnvelope,
  newTrigger,
  teamDomain,
} from './interactive-payloads.js';
import { mediaTypeOf } from './media.js';
import type { ResponseUrls } from './response-urls.js';
import type { SignatureMode } from './signing.js';
import type { Interactivity, SlackView } from './interactivity.js';
import { checkModal, viewJson } from './methods/views.js';
import { firstInput, type TypedValues, viewAction, viewState } from './view-state.js';
import type { FileAccessMode, SlackChannel, SlackMessage, SlackUser } from './workspace.js';

const challengeAnswer = z.object({ challenge: z.string() });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Event subscriptions of the app, as its manifest names them; Slack only
 * sends those. `message` stands for every `message.*` subscription at once.
 */
export type SubscribedEvent = 'message' | 'message.channels' | 'message.groups' | 'message.im' | 'app_mention';

/** The subscription that brings a conversation's messages, by its `channel_type`. */
const MESSAGE_SUBSCRIPTIONS = {
  channel: 'message.channels',
  group: 'message.groups',
  im: 'message.im',
} as const satisfies Record<ReturnType<typeof channelType>, SubscribedEvent>;

export interface UserFile {
  name: string;
  bytes: Uint8Array;
  /** Derived from the bytes and name when omitted, as Slack does. */
  mimetype?: string;
  title?: string;
  /** How Slack shows the file to the app when not in full (a Slack Connect stub, hidden, deleted, external). */
  access?: FileAccessMode;
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

export interface UserEdits {
  channel: string;
  /** The message, which the person wrote. */
  ts: string;
  text: string;
}

export interface UserPresses {
  user: string;
  channel: string;
  /** The message whose button is pressed. */
  ts: string;
  /** The button's `action_id` in the message's actions blocks. */
  actionId: string;
  /** Press a button the message does not have, with this value (a forged or stale payload). */
  forgedValue?: string;
  signature?: SignatureMode;
}

export interface Press {
  triggerId: string;
  delivery: DeliveryRecord;
}

export interface UserSubmitsView {
  user: string;
  viewId: string;
  /** The first input block's value; or `values` by block_id and action_id (a select's by the chosen option's value). Inputs not named keep their initial values. */
  text?: string;
  values?: TypedValues;
  /**
   * A forged payload, as only someone holding the signing secret could send:
   * by a person the modal was not opened for, and with this
   * `private_metadata` in place of the view's when given.
   */
  forged?: { privateMetadata?: string };
  signature?: SignatureMode;
}

export interface ViewSubmission {
  delivery: DeliveryRecord;
  /** `response_action: errors` the app answered with, by block_id; the modal then stays open. */
  errors?: Record<string, string>;
  /** Whether the app answered `response_action: update`: the modal stays open and shows its new view. */
  updated?: boolean;
  /** Whether the modal closed (acknowledged without errors or an update). */
  closed: boolean;
}

export interface UserActsInView {
  user: string;
  viewId: string;
  /** The button's or select's `action_id` in one of the view's actions blocks. */
  actionId: string;
  /** For a select: the value of the option chosen. */
  value?: string;
  signature?: SignatureMode;
}

const buttonElement = z.looseObject({
  type: z.literal('button'),
  action_id: z.string(),
  value: z.string().optional(),
  text: z.looseObject({ type: z.string(), text: z.string() }),
});
const actionsBlock = z.looseObject({
  type: z.literal('actions'),
  block_id: z.string().optional(),
  elements: z.array(z.unknown()),
});
const submitAnswer = z.looseObject({
  response_action: z.string().optional(),
  errors: z.record(z.string(), z.string()).optional(),
  view: z.record(z.string(), z.unknown()).optional(),
});

/** A button among the message's actions blocks, with the block that holds it. */
function findButton(message: SlackMessage, actionId: string) {
  for (const block of message.blocks ?? []) {
    const actions = actionsBlock.safeParse(block);
    if (!actions.success) continue;
    for (const element of actions.data.elements) {
      const button = buttonElement.safeParse(element);
      if (button.success && button.data.action_id === actionId) {
        return { blockId: actions.data.block_id ?? '', button: button.data };
      }
    }
  }
  return undefined;
}

function ackPayload(response: unknown): unknown {
  return typeof response === 'string' ? (response === '' ? undefined : parseJson(response)) : response;
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
  readonly #interactivity: Interactivity;

  constructor(deps: {
    env: SlackEnv;
    delivery: EventDelivery;
    responses: ResponseUrls;
    subscriptions: readonly SubscribedEvent[];
    echoBotMessages: boolean;
    logger: Logger;
  }) {
    this.#env = deps.env;
    this.#interactivity = deps.env.interactivity;
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
    if (this.#hearsMessagesIn(channel.id)) events.push(messageEvent(this.#env, message));
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
    const deliveries = this.#hearsMessagesIn(channel.id)
      ? [
          await this.#delivery.deliver({
            kind: 'events_api',
            payload: eventCallback(this.#env, messageEvent(this.#env, message)),
          }),
        ]
      : [];
    return {
      ts: message.ts,
      channel: channel.id,
      fileIds: [],
      deliveries,
      ...(input.threadTs !== undefined && { threadTs: input.threadTs }),
    };
  }

  async userRunsCommand(input: UserRunsCommand): Promise<CommandRun> {
    const { identity } = this.#env;
    this.#delivery.assertReachable();
    const user = this.#ensureUser(input.user);
    const channel = this.#ensureChannel(input.channel);
    const responseUrl = this.#responses.issue(channel.id, user.id);
    const triggerId = this.#newTrigger(user.id);
    const origin = originOf(this.#env, channel.id);
    const delivery = await this.#delivery.deliver({
      kind: 'slash_commands',
      payload: {
        token: VERIFICATION_TOKEN,
        team_id: origin.teamId,
        ...(origin.enterpriseId !== undefined && { enterprise_id: origin.enterpriseId }),
        team_domain: teamDomain(identity),
        channel_id: channel.id,
        channel_name: channel.isIm ? 'directmessage' : channel.name,
        user_id: user.id,
        user_name: user.name,
        command: input.command,
        text: input.text,
        api_app_id: identity.appId,
        is_enterprise_install: String(origin.isEnterpriseInstall),
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
   * A user presses a button on a message: Slack sends the app a signed
   * `block_actions` payload with a fresh `trigger_id` (3 s to open a modal).
   * The button must be on the message unless `forgedValue` is given.
   */
  async userPresses(input: UserPresses): Promise<Press> {
    const { identity, workspace } = this.#env;
    this.#delivery.assertReachable();
    const user = this.#ensureUser(input.user);
    const channel = this.#ensureChannel(input.channel);
    const message = workspace.message(channel.id, input.ts);
    if (!message) throw new Error(`slack fake: no message ${input.ts} in ${input.channel}`);
    const found = findButton(message, input.actionId);
    if (found === undefined && input.forgedValue === undefined) {
      throw new Error(`slack fake: message ${input.ts} has no button ${input.actionId}`);
    }
    const triggerId = this.#newTrigger(user.id);
    const action = {
      type: 'button',
      action_id: input.actionId,
      block_id: found?.blockId ?? 'forged',
      text: found?.button.text ?? { type: 'plain_text', text: 'Forged', emoji: true },
      value: input.forgedValue ?? found?.button.value ?? '',
      action_ts: actionTs(),
    };
    const delivery = await this.#delivery.deliver({
      kind: 'interactive',
      payload: blockActions(identity, {
        user,
        triggerId,
        ...onMessage(this.#env, this.#responses, { channel, message, user }),
        actions: [action],
      }),
      ...(input.signature !== undefined && { signature: input.signature }),
    });
    return { triggerId, delivery };
  }

  /**
   * A user submits an open modal: a signed `view_submission` with every
   * input's value. An answer of `response_action: errors` keeps it open,
   * `update` shows the new view (checked as `views.update` would), `clear`
   * and any other acknowledgement close it. Submitting a closed modal again is
   * allowed (a double click's second request).
   */
  async userSubmitsView(input: UserSubmitsView): Promise<ViewSubmission> {
    const { identity } = this.#env;
    this.#delivery.assertReachable();
    const user = this.#ensureUser(input.user);
    const shown = this.#interactivity.views.get(input.viewId);
    if (!shown) throw new Error(`slack fake: no view ${input.viewId}`);
    if (input.forged === undefined && shown.user !== user.id) {
      throw new Error(`slack fake: view ${shown.id} is open for ${shown.user}, not ${user.id}`);
    }
    const typed = input.values ?? this.#firstInputValue(shown, input.text ?? '');
    const view = viewJson(shown, identity.appId, identity.teamId);
    const metadata = input.forged?.privateMetadata;
    const delivery = await this.#delivery.deliver({
      kind: 'interactive',
      payload: {
        type: 'view_submission',
        ...interactiveEnvelope(identity, user),
        trigger_id: this.#newTrigger(user.id),
        view: {
          ...view,
          ...(metadata !== undefined && { private_metadata: metadata }),
          state: { values: viewState(shown.view, typed) },
        },
        response_urls: [],
        is_enterprise_install: false,
        enterprise: null,
      },
      ...(input.signature !== undefined && { signature: input.signature }),
    });
    const acked = delivery.attempts.find((attempt) => attempt.acked);
    const answer = submitAnswer.safeParse(ackPayload(acked?.response));
    const action = answer.success ? answer.data.response_action : undefined;
    const errors = action === 'errors' && answer.success ? answer.data.errors : undefined;
    const next = action === 'update' && answer.success ? answer.data.view : undefined;
    if (next !== undefined) {
      shown.view = checkModal(next);
      shown.history.push(shown.view);
      shown.hash = this.#env.workspace.nextTs();
    }
    const closed = acked !== undefined && errors === undefined && next === undefined;
    if (closed) shown.open = false;
    this.#env.workspace.changed();
    return { delivery, closed, ...(errors !== undefined && { errors }), ...(next !== undefined && { updated: true }) };
  }

  /**
   * A user presses a button or chooses an option in an actions block of an
   * open modal: a signed `block_actions` payload from the view (its id,
   * hash, metadata and inputs' state) with a fresh `trigger_id`.
   */
  async userActsInView(input: UserActsInView): Promise<Press> {
    const { identity } = this.#env;
    this.#delivery.assertReachable();
    const user = this.#ensureUser(input.user);
    const shown = this.#interactivity.views.get(input.viewId);
    if (!shown?.open) throw new Error(`slack fake: no open view ${input.viewId}`);
    if (shown.user !== user.id)
      throw new Error(`slack fake: view ${shown.id} is open for ${shown.user}, not ${user.id}`);
    const action = viewAction(shown.view, input.actionId, input.value);
    const triggerId = this.#newTrigger(user.id);
    const delivery = await this.#delivery.deliver({
      kind: 'interactive',
      payload: blockActions(identity, {
        user,
        triggerId,
        container: { type: 'view', view_id: shown.id },
        actions: [action],
        where: {
          view: { ...viewJson(shown, identity.appId, identity.teamId), state: { values: viewState(shown.view) } },
        },
      }),
      ...(input.signature !== undefined && { signature: input.signature }),
    });
    return { triggerId, delivery };
  }

  /** A user (or an admin) deletes a file: messages show a tombstone, files.info answers `file_deleted`. */
  userDeletesFile(fileId: string): void {
    const file = this.#env.workspace.files.get(fileId);
    if (!file) throw new Error(`slack fake: no file ${fileId}`);
    file.access = 'tombstone';
    this.#env.workspace.changed();
  }

  #newTrigger(userId: string): string {
    return newTrigger(this.#env, userId);
  }

  #firstInputValue(shown: SlackView, text: string): TypedValues {
    const first = firstInput(shown.view);
    if (first === undefined) throw new Error(`slack fake: view ${shown.id} has no input block`);
    return { [first.blockId]: { [first.actionId]: text } };
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
    if (!this.#hearsMessagesIn(channel)) return undefined;
    const { channel_type: type, ...previous } = messageEvent(this.#env, message);
    const ts = workspace.nextTs();
    const event = {
      type: 'message',
      subtype: 'message_deleted',
      hidden: true,
      channel,
      channel_type: type,
      ts,
      deleted_ts: message.ts,
      event_ts: ts,
      previous_message: previous,
    };
    return this.#delivery.deliver({ kind: 'events_api', payload: eventCallback(this.#env, event) });
  }

  /** Delivers an already sent event again with the same `event_id`, as a Slack retry would; `to` picks the replica. */
  redeliver(eventId: string, info: Partial<AttemptInfo> & { to?: string } = {}): Promise<DeliveryRecord> {
    return this.#delivery.redeliver(
      eventId,
      { retryNum: info.retryNum ?? 1, retryReason: info.retryReason ?? 'http_timeout' },
      info.to,
    );
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
    if (!this.#echoBotMessages || !this.#hearsMessagesIn(message.channel)) return;
    // Queued after the API response, as Slack's events trail the API call.
    setImmediate(() => {
      this.#delivery
        .deliver({ kind: 'events_api', payload: eventCallback(this.#env, messageEvent(this.#env, message)) })
        .catch((error: unknown) =>
          this.#logger.debug({ error: String(error) }, 'slack fake: bot message echo not delivered'),
        );
    });
  }

  /** Called for every edit the bot makes: Slack tells the app with a `message_changed` event. */
  botEdited(message: SlackMessage, previous: SlackMessage): void {
    if (!this.#echoBotMessages || !this.#hearsMessagesIn(message.channel)) return;
    const event = this.#changedEvent(message, previous);
    setImmediate(() => {
      this.#delivery
        .deliver({ kind: 'events_api', payload: eventCallback(this.#env, event) })
        .catch((error: unknown) =>
          this.#logger.debug({ error: String(error) }, 'slack fake: bot edit event not delivered'),
        );
    });
  }

  /**
   * A person edits a message they wrote: it changes in place (the earlier
   * text kept in `edits`) and, when the app hears that conversation, Slack
   * sends it a `message_changed` event (undefined when it does not).
   */
  async userEdits(input: UserEdits): Promise<DeliveryRecord | undefined> {
    const { workspace } = this.#env;
    this.#delivery.assertReachable();
    const channel = workspace.resolveChannel(input.channel)?.id ?? input.channel;
    const message = workspace.message(channel, input.ts);
    if (!message) throw new Error(`slack fake: no message ${input.ts} in ${input.channel}`);
    if (message.user === undefined || message.botId !== undefined) {
      throw new Error(`slack fake: message ${input.ts} was not written by a person`);
    }
    const previous = { ...message };
    workspace.update(message, { text: input.text, format: 'mrkdwn', editedBy: message.user });
    if (!this.#hearsMessagesIn(channel)) return undefined;
    const event = this.#changedEvent(message, previous);
    return this.#delivery.deliver({ kind: 'events_api', payload: eventCallback(this.#env, event) });
  }

  #changedEvent(message: SlackMessage, previous: SlackMessage): Record<string, unknown> {
    const { channel_type: type, ...current } = messageEvent(this.#env, message);
    const { channel_type: _type, ...before } = messageEvent(this.#env, previous);
    const ts = this.#env.workspace.nextTs();
    return {
      type: 'message',
      subtype: 'message_changed',
      hidden: true,
      channel: message.channel,
      channel_type: type,
      ts,
      event_ts: ts,
      message: current,
      previous_message: before,
    };
  }

  /** Whether the app's subscriptions bring it the messages of this conversation. */
  #hearsMessagesIn(channelId: string): boolean {
    if (this.#subscriptions.has('message')) return true;
    const type = channelType(this.#env.workspace.channels.get(channelId));
    return this.#subscriptions.has(MESSAGE_SUBSCRIPTIONS[type]);
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
      ...(file.access !== undefined && { access: file.access }),
    });
    return id;
  }
}
