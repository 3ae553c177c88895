import type { DiscordFake, SlackFake } from '@genbot/fakes';
import { z } from 'zod';
import {
  blocksText,
  type DiscordMessageView,
  discordMessageView,
  type SlackMessageView,
  slackMessageViews,
} from './snapshot.js';

/** Slack takes an assistant status down after two minutes without a new one. */
const STATUS_LIFETIME_MS = 2 * 60 * 1000;

/** One block of a published Home tab, in the few kinds the page draws (others are shown as their text). */
export type HomeBlockView =
  | { type: 'header'; text: string }
  | { type: 'section'; text: string; button?: HomeButtonView }
  | { type: 'context'; text: string }
  | { type: 'divider' };

/** A section's button accessory, which Slack draws at the section's right. */
export interface HomeButtonView {
  label: string;
  /** Its action_id, which a press sends back to the app. */
  id: string;
}

/** A person's DM with the app, as the agent view shows it, and their Home tab. */
export interface SlackDmView {
  /** alice or bob. */
  person: string;
  /** Undefined until the DM was first opened. */
  channelId?: string;
  messages: SlackMessageView[];
  /** The suggested prompts the app set for the whole DM (the agent view's), newest. */
  prompts?: { title?: string; prompts: { title: string; message: string }[] };
  /** Threads whose assistant status is up now: what the bot says it does. */
  statuses: { threadTs: string; status: string }[];
  /** Conversation titles the app set, by thread. */
  titles: { threadTs: string; title: string }[];
  /** The Home tab the app last published for the person. */
  home?: HomeBlockView[];
}

/** A person's DM with the bot on Discord. */
export interface DiscordDmView {
  person: string;
  channelId: string;
  messages: DiscordMessageView[];
}

/** Every person's DM with the Slack app and Home tab, as the page shows them. */
export function slackDms(fake: SlackFake, nowMs: number): SlackDmView[] {
  const { workspace, aiApps } = fake;
  const people = [...workspace.users.values()].filter((user) => !user.isBot);
  return people.map((user) => {
    const dm = [...workspace.channels.values()].find((channel) => channel.isIm && channel.imUser === user.id);
    const tab = aiApps.homeTab(user.id);
    const home = tab === undefined ? undefined : homeBlocks(tab.view);
    if (dm === undefined) return { person: user.name, messages: [], statuses: [], titles: [], ...(home && { home }) };
    const messages = slackMessageViews(fake, dm.id, [user.id]);
    const prompts = aiApps.prompts.findLast((set) => set.channel === dm.id && set.threadTs === undefined);
    const titles = new Map<string, string>();
    for (const title of aiApps.titles) if (title.channel === dm.id) titles.set(title.threadTs, title.title);
    return {
      person: user.name,
      channelId: dm.id,
      messages,
      ...(prompts && {
        prompts: { ...(prompts.title !== undefined && { title: prompts.title }), prompts: prompts.prompts },
      }),
      statuses: statusesUp(fake, dm.id, nowMs),
      titles: [...titles].map(([threadTs, title]) => ({ threadTs, title })),
      ...(home && { home }),
    };
  });
}

/**
 * The statuses shown now: each thread's latest, unless it is empty (cleared), older than Slack
 * keeps one, or the bot posted in the thread since (a post takes the status down).
 */
function statusesUp(fake: SlackFake, channelId: string, nowMs: number): SlackDmView['statuses'] {
  const { workspace, identity } = fake;
  const latest = new Map<string, { status: string; atMs: number }>();
  for (const status of workspace.statuses) if (status.channel === channelId) latest.set(status.threadTs, status);
  return [...latest].flatMap(([threadTs, { status, atMs }]) => {
    if (status === '' || nowMs - atMs > STATUS_LIFETIME_MS) return [];
    const postedSince = workspace
      .botMessages(identity.botUserId, { channel: channelId, threadTs })
      .some((m) => Number(m.ts) * 1000 >= atMs);
    return postedSince ? [] : [{ threadTs, status }];
  });
}

const textObject = z.looseObject({ text: z.string() });
const homeBlock = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('header'), text: textObject }),
  z.looseObject({ type: z.literal('section'), text: textObject.optional() }),
  z.looseObject({ type: z.literal('context'), elements: z.array(z.unknown()) }),
  z.looseObject({ type: z.literal('divider') }),
]);
const homeViewBlocks = z.looseObject({ blocks: z.array(z.unknown()) });
const accessoryButton = z.looseObject({
  type: z.literal('button'),
  action_id: z.string(),
  text: z.looseObject({ text: z.string() }),
});

/** The Home tab's blocks, simply: header, section (with its button accessory), context and divider; any other kind as its text. */
export function homeBlocks(view: unknown): HomeBlockView[] {
  const parsed = homeViewBlocks.safeParse(view);
  if (!parsed.success) return [];
  return parsed.data.blocks.flatMap((raw): HomeBlockView[] => {
    const block = homeBlock.safeParse(raw);
    if (!block.success) {
      const text = blocksText([raw]);
      return text === '' ? [] : [{ type: 'section', text }];
    }
    const b = block.data;
    if (b.type === 'divider') return [{ type: 'divider' }];
    if (b.type === 'header') return [{ type: 'header', text: b.text.text }];
    if (b.type === 'context') return [{ type: 'context', text: blocksText(b.elements) }];
    // The accessory's label is drawn on its button, not as the section's words.
    const { accessory, ...words } = b;
    const button = accessoryButton.safeParse(accessory);
    if (!button.success) return [{ type: 'section', text: blocksText([b]) }];
    return [
      {
        type: 'section',
        text: blocksText([words]),
        button: { label: button.data.text.text, id: button.data.action_id },
      },
    ];
  });
}

/** The buttons of a Home tab, by the action_id a press sends. */
export function homeButtons(blocks: readonly HomeBlockView[]): HomeButtonView[] {
  return blocks.flatMap((block) => (block.type === 'section' && block.button !== undefined ? [block.button] : []));
}

/** Every person's DM with the Discord bot, once it has been opened. */
export function discordDms(fake: DiscordFake): DiscordDmView[] {
  const { state } = fake;
  return state.dmChannels.flatMap((channel) => {
    const person = channel.recipientId === undefined ? undefined : state.findUser(channel.recipientId);
    if (person === undefined) return [];
    return [
      {
        person: person.username,
        channelId: channel.id,
        messages: state.messages(channel.id).map((m) => discordMessageView(fake, m, new Set())),
      },
    ];
  });
}
