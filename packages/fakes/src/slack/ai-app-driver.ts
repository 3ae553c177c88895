import { z } from 'zod';
import type { SlackEnv } from './env.js';
import type { DeliveryRecord, EventDelivery } from './event-delivery.js';
import { eventCallback } from './events.js';
import { actionTs, blockActions, onMessage, newTrigger } from './interactive-payloads.js';
import type { ResponseUrls } from './response-urls.js';
import type { SlackChannel, SlackUser } from './workspace.js';

/** Which part of the App Home a person opens: the Home tab, or the Messages tab (the agent view's DM). */
export type AppHomeTab = 'home' | 'messages';

export interface UserOpensApp {
  user: string;
  tab: AppHomeTab;
}

export interface AssistantThreadOpened {
  /** The person's DM with the app. */
  channel: string;
  /** The thread Slack opened for them: its root is the app's `assistant_app_thread` message. */
  threadTs: string;
  delivery: DeliveryRecord;
}

export interface UserRatesReply {
  user: string;
  channel: string;
  /** The message whose feedback buttons are pressed. */
  ts: string;
  /** Thumbs up (the positive button) or down. */
  positive: boolean;
}

const feedbackButtons = z.looseObject({
  type: z.literal('feedback_buttons'),
  action_id: z.string().optional(),
  positive_button: z.looseObject({ text: z.unknown(), value: z.string() }),
  negative_button: z.looseObject({ text: z.unknown(), value: z.string() }),
});
const contextActions = z.looseObject({
  type: z.literal('context_actions'),
  block_id: z.string().optional(),
  elements: z.array(z.unknown()),
});

const homeButton = z.looseObject({
  type: z.literal('button'),
  action_id: z.string(),
  text: z.unknown(),
  value: z.string().optional(),
});
const homeBlock = z.looseObject({
  block_id: z.string().optional(),
  accessory: z.unknown().optional(),
  elements: z.array(z.unknown()).optional(),
});

/** A button of a view's blocks (a section's accessory or an actions block's element), by its action_id. */
function buttonIn(
  view: Record<string, unknown>,
  actionId: string,
): { blockId: string; text: unknown; value: string } | undefined {
  const blocks = z.array(homeBlock).safeParse(view.blocks);
  if (!blocks.success) return undefined;
  for (const [at, block] of blocks.data.entries()) {
    for (const candidate of [block.accessory, ...(block.elements ?? [])]) {
      const button = homeButton.safeParse(candidate);
      if (button.success && button.data.action_id === actionId) {
        return { blockId: block.block_id ?? `home-${at}`, text: button.data.text, value: button.data.value ?? '' };
      }
    }
  }
  return undefined;
}

/**
 * People using Slack's AI-app surfaces, as Slack tells the app: opening the
 * App Home (`app_home_opened` with its tab), the assistant view opening a
 * thread (`assistant_thread_started`, after Slack posts the thread's root as
 * the app), and pressing a reply's feedback buttons (`block_actions` with a
 * `feedback_buttons` action). The app subscribes to these events with its
 * AI-app features, so they are always delivered.
 */
export class AiAppDriver {
  readonly #env: SlackEnv;
  readonly #delivery: EventDelivery;
  readonly #responses: ResponseUrls;

  constructor(deps: { env: SlackEnv; delivery: EventDelivery; responses: ResponseUrls }) {
    this.#env = deps.env;
    this.#delivery = deps.delivery;
    this.#responses = deps.responses;
  }

  /** A person opens the app's Home or Messages tab; a Home tab the app published comes with the event as `view`. */
  async userOpensApp(input: UserOpensApp): Promise<DeliveryRecord> {
    const { identity, workspace, aiApps } = this.#env;
    this.#delivery.assertReachable();
    const user = this.#ensureUser(input.user);
    const dm = workspace.openIm(user.id);
    const shown = input.tab === 'home' ? aiApps.homeTab(user.id) : undefined;
    const event = {
      type: 'app_home_opened',
      user: user.id,
      channel: dm.id,
      tab: input.tab,
      event_ts: workspace.nextTs(),
      ...(shown !== undefined && {
        view: {
          ...shown.view,
          id: shown.id,
          team_id: identity.teamId,
          app_id: identity.appId,
          bot_id: identity.botId,
          hash: shown.hash,
          root_view_id: shown.id,
          app_installed_team_id: identity.teamId,
        },
      }),
    };
    return this.#delivery.deliver({ kind: 'events_api', payload: eventCallback(this.#env, event) });
  }

  /**
   * The assistant view opens a new thread for a person (the app's split pane
   * or its DM): Slack posts the thread's root as the app
   * (`subtype: 'assistant_app_thread'`) and sends `assistant_thread_started`
   * with the channel the person was looking at as its context.
   */
  async userStartsAssistantThread(input: { user: string; viewing?: string }): Promise<AssistantThreadOpened> {
    const { identity, workspace } = this.#env;
    this.#delivery.assertReachable();
    const user = this.#ensureUser(input.user);
    const dm = workspace.openIm(user.id);
    const root = workspace.post({
      channel: dm.id,
      user: identity.botUserId,
      botId: identity.botId,
      subtype: 'assistant_app_thread',
      text: '',
    });
    const event = {
      type: 'assistant_thread_started',
      assistant_thread: {
        user_id: user.id,
        context: {
          ...(input.viewing !== undefined && { channel_id: input.viewing }),
          team_id: identity.teamId,
          enterprise_id: null,
        },
        channel_id: dm.id,
        thread_ts: root.ts,
      },
      event_ts: workspace.nextTs(),
    };
    const delivery = await this.#delivery.deliver({ kind: 'events_api', payload: eventCallback(this.#env, event) });
    return { channel: dm.id, threadTs: root.ts, delivery };
  }

  /**
   * A person presses a button in the Home tab the app published for them
   * (`block_actions` from a `home` view, with a fresh `trigger_id`); the
   * button must be in that view.
   */
  async userPressesInHomeTab(input: { user: string; actionId: string }): Promise<DeliveryRecord> {
    const { identity, aiApps } = this.#env;
    this.#delivery.assertReachable();
    const user = this.#ensureUser(input.user);
    const tab = aiApps.homeTab(user.id);
    if (tab === undefined) throw new Error(`slack fake: no Home tab published for ${user.id}`);
    const button = buttonIn(tab.view, input.actionId);
    if (button === undefined) throw new Error(`slack fake: the Home tab of ${user.id} has no button ${input.actionId}`);
    return this.#delivery.deliver({
      kind: 'interactive',
      payload: blockActions(identity, {
        user,
        triggerId: newTrigger(this.#env, user.id),
        container: { type: 'view', view_id: tab.id },
        actions: [
          {
            type: 'button',
            action_id: input.actionId,
            block_id: button.blockId,
            text: button.text,
            value: button.value,
            action_ts: actionTs(),
          },
        ],
        where: { view: { ...tab.view, id: tab.id, hash: tab.hash, team_id: identity.teamId, app_id: identity.appId } },
      }),
    });
  }

  /** A person presses the thumbs up or down under a message: the buttons must be on it. */
  async userRatesReply(input: UserRatesReply): Promise<DeliveryRecord> {
    const { identity, workspace } = this.#env;
    this.#delivery.assertReachable();
    const user = this.#ensureUser(input.user);
    const channel = this.#channel(input.channel);
    const message = workspace.message(channel.id, input.ts);
    if (!message) throw new Error(`slack fake: no message ${input.ts} in ${input.channel}`);
    const found = this.#feedbackButtons(message.blocks ?? []);
    if (found === undefined) throw new Error(`slack fake: message ${input.ts} has no feedback buttons`);
    const button = input.positive ? found.buttons.positive_button : found.buttons.negative_button;
    return this.#delivery.deliver({
      kind: 'interactive',
      payload: blockActions(identity, {
        user,
        triggerId: newTrigger(this.#env, user.id),
        ...onMessage(this.#env, this.#responses, { channel, message, user }),
        actions: [
          {
            type: 'feedback_buttons',
            action_id: found.buttons.action_id ?? '',
            block_id: found.blockId,
            text: button.text,
            value: button.value,
            action_ts: actionTs(),
          },
        ],
      }),
    });
  }

  #feedbackButtons(blocks: readonly unknown[]) {
    for (const block of blocks) {
      const parsed = contextActions.safeParse(block);
      if (!parsed.success) continue;
      for (const element of parsed.data.elements) {
        const buttons = feedbackButtons.safeParse(element);
        if (buttons.success) return { blockId: parsed.data.block_id ?? '', buttons: buttons.data };
      }
    }
    return undefined;
  }

  #ensureUser(id: string): SlackUser {
    return this.#env.workspace.users.get(id) ?? this.#env.workspace.addUser({ id, name: id.toLowerCase() });
  }

  #channel(id: string): SlackChannel {
    const channel = this.#env.workspace.resolveChannel(id);
    if (channel === undefined) throw new Error(`slack fake: no channel ${id}`);
    return channel;
  }
}
