import { z } from 'zod';
import { BadRequest } from './errors.js';
import { LIMIT_WORDS, LIMITS } from './limits.js';

/** Largest attachment the page may send (Slack and Discord both cap uploads around here). */
export const MAX_ATTACHMENT_BYTES = LIMITS.imageBytes;

const attachment = z.object({
  name: z.string().min(1, LIMIT_WORDS.fileName).max(LIMITS.fileNameChars, LIMIT_WORDS.fileName),
  mimetype: z.string().max(100).optional(),
  /** Base64 of the bytes, no data-URL prefix. */
  data: z
    .string()
    .min(1, LIMIT_WORDS.emptyImage)
    .max(Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 4, LIMIT_WORDS.image),
});
export type AttachmentInput = z.output<typeof attachment>;

const user = z.string().min(1, LIMIT_WORDS.person).max(40, LIMIT_WORDS.person).optional();
const place = z.string().max(40, LIMIT_WORDS.place).optional();
/** In the person's DM with the bot rather than the playground channel. */
const dm = z.boolean().optional();

export const slackMessageInput = z.object({
  text: z.string().max(LIMITS.slackTextChars, LIMIT_WORDS.slackText),
  threadTs: place,
  dm,
  user,
  file: attachment.optional(),
});

export const slackCommandInput = z.object({
  command: z.string().regex(/^\/[a-z0-9_-]{1,32}$/i, LIMIT_WORDS.command),
  text: z.string().max(LIMITS.slackTextChars, LIMIT_WORDS.slackText),
  dm,
  user,
});

export const discordMessageInput = z.object({
  content: z.string().max(LIMITS.discordTextChars, LIMIT_WORDS.discordText),
  /** A thread of the playground channel; the channel itself when absent. */
  channelId: place,
  dm,
  replyTo: place,
  user,
  file: attachment.optional(),
});

export const discordCommandInput = z.object({
  name: z.string().regex(/^[a-z0-9_-]{1,32}$/, LIMIT_WORDS.command),
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  /** The words typed after a command with subcommands (`set name:chat_model value:…`), read as its client would. */
  text: z.string().max(LIMITS.discordTextChars, LIMIT_WORDS.discordText).optional(),
  channelId: place,
  dm,
  user,
});

const id = z.string().min(1, LIMIT_WORDS.place).max(200, LIMIT_WORDS.place);

export const slackPressInput = z.object({ ts: id, actionId: id, dm, user });

/** A choice in a modal's actions block: the view, the select's action_id and the option's value. */
export const slackViewActionInput = z.object({ id, actionId: id, value: z.string().max(200), user });

/** A press on a button of the person's own Home tab, by its action_id. */
export const slackHomePressInput = z.object({ actionId: id, user });

/** A person opens the app's Home tab, or its Messages tab (their DM with it). */
export const slackOpenAppInput = z.object({ tab: z.enum(['home', 'messages']), user });

export const formInput = z.object({
  id,
  /** Each input's text by its id (Slack block_id, Discord custom_id). */
  values: z.record(z.string().max(200), z.string().max(LIMITS.formTextChars, LIMIT_WORDS.formText)),
  user,
});

export const discordPressInput = z.object({ messageId: id, customId: id, channelId: place, dm, user });

export const discordMessageCommandInput = z.object({ messageId: id, name: id, channelId: place, dm, user });

/** Bytes of an attachment, refusing empty or oversized ones. */
export function decodeAttachment(input: AttachmentInput): Buffer {
  const bytes = Buffer.from(input.data, 'base64');
  if (bytes.length === 0) throw new BadRequest(LIMIT_WORDS.emptyImage);
  if (bytes.length > MAX_ATTACHMENT_BYTES) throw new BadRequest(LIMIT_WORDS.image);
  return bytes;
}

/** Turns `@genbot` (the bot's name) into the platform's mention markup. */
export function withMentions(text: string, botName: string, markup: string): string {
  const escaped = botName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(^|[^\\w<])@${escaped}\\b`, 'gi'), (_, before: string) => `${before}${markup}`);
}
