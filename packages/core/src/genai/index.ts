export { ASPECT_RATIOS, type AspectRatio, type InputImage, type MessagesRequest } from './types.js';
export { GenAiClient, type GenAiClientOptions } from './client.js';
export { IMAGE_FORMATS_IN_WORDS, readInputImage, MAX_INLINE_IMAGE_BYTES } from './images.js';
export { parseAspectRatio } from './aspect-ratio.js';
export { describeError, settingToCheck } from './describe-error.js';
