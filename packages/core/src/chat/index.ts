export type {
  AttachmentRef,
  ChatSurface,
  ChatTarget,
  DownloadedFile,
  MessageRef,
  PacedCall,
  PostedImage,
  ReplyContext,
  ReplyStream,
  ResultAction,
  ResultButton,
  SurfaceLimits,
  ThreadMessage,
  UploadFile,
  UploadReceipt,
} from '../surface/surface.js';
export type { ChatLogger, ChatModel, ImageModel } from '../surface/ports.js';
export type { ChatDeps } from './deps.js';
export { ChannelBudget } from '../rendering/channel-budget.js';
export { RefusalNotices } from './refusal-notices.js';
export { closeOpenFence } from '../rendering/fences.js';
export { copy } from '../copy/copy.js';
export { sayPrivately } from './status-message.js';
export { imagine, imagineInputProblem, MAX_PROMPT_CHARS } from './imagine.js';
export { editImage } from './edit-image.js';
export { restoreImage } from './restore-image.js';
export type { ImageJobPresentation } from './image-job.js';
export { converse } from './converse.js';
export { handleMention } from './handle-mention.js';
export { asBuffer } from '../files/bytes.js';
export { isImageAttachment } from '../files/attachments.js';
export { splitAspectFlag } from './aspect-flag.js';
export { cappedDownload } from '../files/capped-download.js';
export type { CachedMessage, CachedThread, ThreadCache, ThreadKey } from './thread-cache.js';
export { compareMessageIds, InMemoryThreadCache } from './thread-cache.js';
export { imageFileName, imageFileStem } from '../files/file-names.js';
