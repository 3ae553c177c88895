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
  StreamTaskUpdate,
  ResultAction,
  ResultButton,
  SurfaceLimits,
  ThreadMessage,
  UploadFile,
  UploadReceipt,
} from './surface.js';
export type { ChatLogger, ChatModel, ImageModel } from './ports.js';
export { RateLimitedError } from './rate-limited-error.js';
