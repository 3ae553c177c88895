export { asBuffer } from './bytes.js';
export { isImageAttachment } from './attachments.js';
export { cappedDownload } from './capped-download.js';
export { imageFileName, imageFileStem, type ImageNameParts, resultTag } from './file-names.js';
export {
  MODEL_CONTENT_LIMITS,
  modelContent,
  type LeftOutFile,
  type ModelContent,
  type ModelContentBlock,
  type ModelContentLimits,
  type ModelFile,
} from './model-content.js';
export { MAX_DOWNLOAD_BYTES } from './download-cap.js';
