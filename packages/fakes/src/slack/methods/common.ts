import { SlackApiError } from '../api-error.js';
import type { SlackEnv } from '../env.js';
import type { SlackChannel, SlackMessage } from '../workspace.js';

/** Slack truncates longer messages and refuses them with `msg_too_long`. */
export const MAX_TEXT_LENGTH = 40_000;
/** Slack's limit for one `markdown_text`. */
export const MAX_MARKDOWN_LENGTH = 12_000;
export const MAX_BLOCKS = 50;

export function requireChannel(env: SlackEnv, ref: string | undefined): SlackChannel {
  const channel = ref !== undefined && ref !== '' ? env.workspace.resolveChannel(ref) : undefined;
  if (!channel) throw new SlackApiError('channel_not_found');
  return channel;
}

export function requireMessage(env: SlackEnv, channel: SlackChannel, ts: string): SlackMessage {
  const message = env.workspace.message(channel.id, ts);
  if (!message) throw new SlackApiError('message_not_found');
  return message;
}

/** The checks Slack applies to message content on post and update. */
export function checkContent(text: string | undefined, blocks: unknown[] | undefined, hasAttachments = false): void {
  if ((text === undefined || text === '') && (blocks === undefined || blocks.length === 0) && !hasAttachments) {
    throw new SlackApiError('no_text');
  }
  if (text !== undefined && text.length > MAX_TEXT_LENGTH) throw new SlackApiError('msg_too_long');
  if (blocks !== undefined && blocks.length > MAX_BLOCKS) throw new SlackApiError('invalid_blocks');
}

/**
 * A message's text as posted: `text` (mrkdwn) or `markdown_text` (standard
 * Markdown, at most 12,000 characters, never together with `text` or
 * `blocks`), or neither.
 */
export function messageText(a: {
  text?: string | undefined;
  markdown_text?: string | undefined;
  blocks?: unknown[] | undefined;
}): { text: string; format: 'markdown' | 'mrkdwn' } | undefined {
  if (a.markdown_text === undefined) return a.text === undefined ? undefined : { text: a.text, format: 'mrkdwn' };
  if (a.text !== undefined || a.blocks !== undefined) throw new SlackApiError('invalid_arguments');
  if (a.markdown_text.length > MAX_MARKDOWN_LENGTH) throw new SlackApiError('msg_too_long');
  return { text: a.markdown_text, format: 'markdown' };
}

export function isOwnMessage(env: SlackEnv, message: SlackMessage): boolean {
  return message.user === env.identity.botUserId && message.botId === env.identity.botId;
}
