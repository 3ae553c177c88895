export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
export { RateLimitedError } from './errors.js';
export type {
  Author,
  AttachmentRef,
  ChatSurface,
  ChatTarget,
  DownloadedFile,
  MessageRef,
  ReplyContext,
  ReplyWriter,
  SurfaceLimits,
  ThreadMessage,
  UploadFile,
} from './surface.js';
export type { ChatLogger, ChatModel, ImageModel } from './ports.js';
export type { ChatConfig, ChatDeps, ChatOutcome } from './deps.js';
export type { EditReplyWriterOptions } from './edit-reply-writer.js';
export { createEditReplyWriter } from './edit-reply-writer.js';
export type { RetryPolicy } from './retry.js';
export { DEFAULT_RETRY_POLICY, withRetries } from './retry.js';
export { closeOpenFence } from './fences.js';
export type { ConversationOptions } from './conversation.js';
export { buildConversation, DEFAULT_TOKEN_BUDGET } from './conversation.js';
export { copy } from './copy.js';
export { isImageAttachment } from './attachments.js';
export type { ImagineInput } from './imagine.js';
export { imagine, MAX_PROMPT_CHARS } from './imagine.js';
export type { ConverseInput } from './converse.js';
export { converse, DEFAULT_MAX_TOKENS } from './converse.js';
export type { EditImageInput } from './edit-image.js';
export { editImage } from './edit-image.js';
export type { MentionInput } from './handle-mention.js';
export { handleMention } from './handle-mention.js';
export { InFlightWork } from './in-flight.js';
export { asBuffer } from './bytes.js';
