import { asBuffer, type UploadFile } from '@genbot/core';
import type { AttachmentBuilder, AttachmentPayload } from 'discord.js';

/** Core's files as discord.js attachments: it sends them as multipart `files[n]` with `payload_json`. */
export function toUploads(files: readonly UploadFile[]): (AttachmentPayload | AttachmentBuilder)[] {
  return files.map((file) => ({ attachment: asBuffer(file.bytes), name: file.name }));
}
