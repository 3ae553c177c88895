import { z } from 'zod';

/** Largest attachment the page may send (Slack and Discord both cap uploads around here). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

const attachment = z.object({
  name: z.string().min(1).max(200),
  mimetype: z.string().max(100).optional(),
  /** Base64 of the bytes, no data-URL prefix. */
  data: z.string().min(1).max(Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 4),
});
export type AttachmentInput = z.output<typeof attachment>;

const user = z.string().min(1).max(40).optional();

export const slackMessageInput = z.object({
  text: z.string().max(4000),
  threadTs: z.string().max(40).optional(),
  user,
  file: attachment.optional(),
});

export const slackCommandInput = z.object({
  command: z.string().regex(/^\/[a-z0-9_-]{1,32}$/i),
  text: z.string().max(4000),
  user,
});

export const discordMessageInput = z.object({
  content: z.string().max(2000),
  /** A thread of the playground channel; the channel itself when absent. */
  channelId: z.string().max(40).optional(),
  replyTo: z.string().max(40).optional(),
  user,
  file: attachment.optional(),
});

export const discordCommandInput = z.object({
  name: z.string().regex(/^[a-z0-9_-]{1,32}$/),
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  channelId: z.string().max(40).optional(),
  user,
});

/** Bytes of an attachment, refusing empty or oversized ones. */
export function decodeAttachment(input: AttachmentInput): Buffer {
  const bytes = Buffer.from(input.data, 'base64');
  if (bytes.length === 0) throw new BadRequest('the attached file is empty');
  if (bytes.length > MAX_ATTACHMENT_BYTES) throw new BadRequest('the attached file is larger than 10 MB');
  return bytes;
}

/** Turns `@genbot` (the bot's name) into the platform's mention markup. */
export function withMentions(text: string, botName: string, markup: string): string {
  const escaped = botName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(^|[^\\w<])@${escaped}\\b`, 'gi'), (_, before: string) => `${before}${markup}`);
}

export class BadRequest extends Error {
  override readonly name = 'BadRequest';
}
