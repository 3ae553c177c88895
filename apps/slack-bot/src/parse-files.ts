import type { AttachmentRef } from '@genbot/core';
import { z } from 'zod';

/** A file on a Slack message, as events and conversations.replies show it. */
export const slackFileSchema = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  title: z.string().nullish(),
  mimetype: z.string().nullish(),
  size: z.number().nullish(),
  // Absent on tombstoned or hidden files: those cannot be downloaded.
  url_private: z.string().nullish(),
});
export type SlackFile = z.infer<typeof slackFileSchema>;

/** Downloadable files as core attachments; the ID is `url_private`, which the surface downloads with the bot token. */
export function toAttachments(files: readonly SlackFile[] | null | undefined): AttachmentRef[] {
  return (files ?? []).flatMap((file) => {
    if (file.url_private === undefined || file.url_private === null || file.url_private === '') return [];
    return [
      {
        id: file.url_private,
        name: file.name ?? file.title ?? file.id,
        ...(file.mimetype === undefined || file.mimetype === null ? {} : { mimeType: file.mimetype }),
        ...(file.size === undefined || file.size === null ? {} : { size: file.size }),
      },
    ];
  });
}
