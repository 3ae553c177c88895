import { createAttachment, type Upload } from './attachments.js';
import type { FakeContext } from './context.js';
import { DiscordHttpError, invalidFormBody } from './errors.js';
import type { GuildState, MessageEdit } from './guild-state.js';
import {
  MessageFlags,
  MessageType,
  type AttachmentRecord,
  type InteractionMetadataRecord,
  type MessageRecord,
  type MessageReferenceRecord,
  type UserRecord,
} from './model.js';
import { numberComponents } from './components.js';
import { MAX_ATTACHMENTS, type MessagePayload } from './schemas.js';

export interface PostMessage {
  readonly channelId: string;
  readonly author: UserRecord;
  readonly payload: MessagePayload;
  readonly files: ReadonlyMap<string, Upload>;
  /** Set for messages posted through an interaction's webhook. */
  readonly interaction?: InteractionMetadataRecord;
  readonly type?: number;
  /** The message an interaction response refers to (the clicked one, a message command's target), unless the payload names one. */
  readonly reference?: MessageReferenceRecord;
}

/** Creates a message from a REST payload (validation, replies, uploads, mentions) and dispatches it. */
export function postMessage(ctx: FakeContext, input: PostMessage): MessageRecord {
  const { payload } = input;
  const attachments = composeAttachments(ctx, input.channelId, payload, input.files, []) ?? [];
  const content = payload.content ?? '';
  const embeds = payload.embeds ?? [];
  const components = numberComponents(payload.components ?? []);
  const loading = ((payload.flags ?? 0) & MessageFlags.Loading) !== 0;
  if (content === '' && attachments.length === 0 && embeds.length === 0 && components.length === 0 && !loading) {
    throw new DiscordHttpError(400, 50006, 'Cannot send an empty message');
  }
  const reference = payload.message_reference
    ? resolveReference(ctx, input.channelId, payload.message_reference)
    : (input.reference ?? null);
  const mentions = mentionedUsers(ctx.state, content);
  if (payload.message_reference && reference && payload.allowed_mentions?.replied_user !== false) {
    const repliedTo = ctx.state.message(reference.channelId, reference.messageId);
    if (repliedTo && !mentions.includes(repliedTo.author.id)) mentions.push(repliedTo.author.id);
  }
  const message = ctx.state.addMessage({
    channelId: input.channelId,
    author: input.author,
    content,
    attachments,
    embeds,
    components,
    mentions,
    reference,
    type: input.type ?? (reference ? MessageType.Reply : MessageType.Default),
    flags: payload.flags ?? 0,
    tts: payload.tts ?? false,
    webhookId: input.interaction ? ctx.applicationId : null,
    interaction: input.interaction ?? null,
  });
  ctx.events.messageCreate(message);
  return message;
}

/** Edits a message; omitted fields stay, `attachments` lists what to keep plus new uploads. */
export function editMessage(
  ctx: FakeContext,
  message: MessageRecord,
  payload: MessagePayload,
  files: ReadonlyMap<string, Upload>,
): MessageRecord {
  const edit: MessageEdit = {
    ...(payload.content === undefined
      ? {}
      : { content: payload.content ?? '', mentions: mentionedUsers(ctx.state, payload.content ?? '') }),
    ...(payload.embeds === undefined ? {} : { embeds: payload.embeds ?? [] }),
    ...(payload.components === undefined ? {} : { components: numberComponents(payload.components ?? []) }),
    ...optionalAttachments(composeAttachments(ctx, message.channelId, payload, files, message.attachments)),
    // An edit of a deferred response ends its "thinking" state.
    flags: message.flags & ~MessageFlags.Loading,
  };
  ctx.state.editMessage(message, edit);
  ctx.events.messageUpdate(message);
  return message;
}

function optionalAttachments(attachments: AttachmentRecord[] | undefined): { attachments?: AttachmentRecord[] } {
  return attachments === undefined ? {} : { attachments };
}

/**
 * The attachments after a create/edit: each `attachments[]` entry keeps an existing attachment
 * (by snowflake) or names an upload (by its `files[n]` index); files the list does not name are
 * added too. Undefined means "unchanged" (an edit without attachments or files).
 */
function composeAttachments(
  ctx: FakeContext,
  channelId: string,
  payload: MessagePayload,
  files: ReadonlyMap<string, Upload>,
  existing: readonly AttachmentRecord[],
): AttachmentRecord[] | undefined {
  const references = payload.attachments;
  if (references == null && files.size === 0) return undefined;
  const result: AttachmentRecord[] = references == null ? [...existing] : [];
  const used = new Set<string>();
  for (const [index, reference] of (references ?? []).entries()) {
    const kept = existing.find((attachment) => attachment.id === reference.id);
    if (kept) {
      result.push(kept);
      continue;
    }
    const upload = files.get(reference.id);
    if (!upload) {
      throw invalidFormBody(
        ['attachments', index, 'id'],
        'ATTACHMENT_NOT_FOUND',
        `Attachment ${reference.id} not found`,
      );
    }
    used.add(reference.id);
    result.push(
      createAttachment(
        { ...upload, filename: reference.filename ?? upload.filename, description: reference.description ?? undefined },
        channelId,
        ctx.ids,
        ctx.origin,
      ),
    );
  }
  for (const [key, upload] of files) {
    if (!used.has(key)) result.push(createAttachment(upload, channelId, ctx.ids, ctx.origin));
  }
  if (result.length > MAX_ATTACHMENTS) {
    throw invalidFormBody(['attachments'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_ATTACHMENTS} or fewer in length.`);
  }
  return result;
}

function resolveReference(
  ctx: FakeContext,
  channelId: string,
  reference: NonNullable<MessagePayload['message_reference']>,
): { messageId: string; channelId: string } | null {
  const referencedChannel = reference.channel_id ?? channelId;
  if (ctx.state.message(referencedChannel, reference.message_id)) {
    return { messageId: reference.message_id, channelId: referencedChannel };
  }
  if (reference.fail_if_not_exists === false) return null;
  throw invalidFormBody(['message_reference'], 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', 'Unknown message');
}

/** Users named by `<@id>` or `<@!id>` who are in the guild. */
export function mentionedUsers(state: GuildState, content: string): string[] {
  const ids = [...content.matchAll(/<@!?(\d+)>/g)].map((match) => match[1] ?? '');
  return [...new Set(ids)].filter((id) => state.findUser(id) !== undefined);
}
