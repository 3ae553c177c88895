export { asBuffer } from './bytes.js';
export { isImageAttachment } from './attachments.js';
export { cappedDownload } from './capped-download.js';
export { imageFileName, imageFileStem, type ImageNameParts, resultTag } from './file-names.js';
