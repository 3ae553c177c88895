import { asBuffer } from '@genbot/core/files';
import type { UploadFile, UploadReceipt } from '@genbot/core/surface';
import type { AttachmentBuilder, AttachmentPayload, Message } from 'discord.js';

/** Core's files as discord.js attachments: it sends them as multipart `files[n]` with `payload_json`. */
export function toUploads(files: readonly UploadFile[]): (AttachmentPayload | AttachmentBuilder)[] {
  return files.map((file) => ({ attachment: asBuffer(file.bytes), name: file.name }));
}

/** The message that shows the files and their attachment ids, in upload order: what a job records. */
export function uploadReceipt(message: Message): UploadReceipt {
  return { messageId: message.id, fileIds: [...message.attachments.keys()] };
}
