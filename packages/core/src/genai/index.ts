export {
  ASPECT_RATIOS,
  MESSAGE_IMAGE_TYPES,
  type AspectRatio,
  type DocumentBlockParam,
  type FinalMessage,
  type ImageBlockParam,
  type InputImage,
  type MessageContentBlock,
  type MessageImageType,
  type MessageParam,
  type MessagesRequest,
  type TextBlockParam,
  type ToolDefinition,
  type ToolResultBlockParam,
  type ToolUse,
  type ToolUseBlockParam,
} from './types.js';
export { GenAiClient, type GenAiClientOptions } from './client.js';
export { IMAGE_FORMATS_IN_WORDS, readInputImage, MAX_INLINE_IMAGE_BYTES } from './images.js';
export { parseAspectRatio } from './aspect-ratio.js';
export { describeError, settingToCheck } from './describe-error.js';
