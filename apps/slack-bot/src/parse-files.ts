import type { AttachmentRef } from '@genbot/core/surface';
import { z } from 'zod';

/** A file on a Slack message, as events, conversations.replies and files.info show it. */
export const slackFileSchema = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  title: z.string().nullish(),
  mimetype: z.string().nullish(),
  size: z.number().nullish(),
  // Absent on tombstoned, hidden and Slack Connect files.
  url_private: z.string().nullish(),
  /** `hosted`, `external`, `snippet`, `tombstone`, `hidden_by_limit`, `file_access`… */
  mode: z.string().nullish(),
  /** `check_file_info` on Slack Connect files: only files.info tells the rest. */
  file_access: z.string().nullish(),
  is_external: z.boolean().nullish(),
});
export type SlackFile = z.infer<typeof slackFileSchema>;

/** Why a file on a message cannot be fetched at all. */
export type UnavailableReason = 'hidden_by_limit' | 'deleted' | 'external';

export type FileAccess =
  | { kind: 'download'; attachment: AttachmentRef }
  /** Slack Connect: files.info gives the name, type and `url_private`. */
  | { kind: 'look_up'; fileId: string }
  | { kind: 'unavailable'; name: string; reason: UnavailableReason };

/** Where a file's bytes can come from, if anywhere. */
export function fileAccess(file: SlackFile): FileAccess {
  const name = file.name ?? file.title ?? 'the file';
  if (file.mode === 'hidden_by_limit') return { kind: 'unavailable', name, reason: 'hidden_by_limit' };
  if (file.mode === 'tombstone') return { kind: 'unavailable', name, reason: 'deleted' };
  if (file.mode === 'external' || file.is_external === true) return { kind: 'unavailable', name, reason: 'external' };
  if (file.file_access === 'check_file_info') return { kind: 'look_up', fileId: file.id };
  if (file.url_private === undefined || file.url_private === null || file.url_private === '') {
    return { kind: 'unavailable', name, reason: 'deleted' };
  }
  return {
    kind: 'download',
    attachment: {
      // The surface downloads `url_private` with the bot token.
      id: file.url_private,
      name,
      ...(file.mimetype === undefined || file.mimetype === null ? {} : { mimeType: file.mimetype }),
      ...(file.size === undefined || file.size === null ? {} : { size: file.size }),
    },
  };
}

const LOOK_UP = 'slack-file:';

/** An attachment the surface resolves with files.info (a Slack Connect file, a version the bot posted). */
export function toLookUp(fileId: string): string {
  return `${LOOK_UP}${fileId}`;
}

/** The file ID of an attachment still to look up with files.info (see `toAttachments`). */
export function fileToLookUp(attachment: AttachmentRef): string | undefined {
  return attachment.id.startsWith(LOOK_UP) ? attachment.id.slice(LOOK_UP.length) : undefined;
}

const UNAVAILABLE = 'slack-unavailable:';

/**
 * A file that cannot be had, as an attachment whose download says why: a
 * conversation then tells the person about it in a note and still answers.
 */
export function unavailableAttachment(name: string, reason: UnavailableReason): AttachmentRef {
  return { id: `${UNAVAILABLE}${reason}`, name };
}

/** Why an attachment cannot be downloaded, when it stands for a file that cannot be had. */
export function unavailableReason(attachment: AttachmentRef): UnavailableReason | undefined {
  if (!attachment.id.startsWith(UNAVAILABLE)) return undefined;
  const reason = attachment.id.slice(UNAVAILABLE.length);
  return reason === 'hidden_by_limit' || reason === 'external' ? reason : 'deleted';
}

/**
 * Files as core attachments: the ID is `url_private`, which the surface
 * downloads with the bot token; for a Slack Connect file, a placeholder the
 * surface resolves with files.info; for a file that cannot be had, one whose
 * download says why.
 */
export function toAttachments(files: readonly SlackFile[] | null | undefined): AttachmentRef[] {
  return (files ?? []).map((file): AttachmentRef => {
    const access = fileAccess(file);
    if (access.kind === 'download') return access.attachment;
    if (access.kind === 'look_up') return { id: toLookUp(access.fileId), name: file.name ?? 'a shared file' };
    return unavailableAttachment(access.name, access.reason);
  });
}

const fileInfo = z.looseObject({ file: slackFileSchema });

/** The `file` of a files.info answer; undefined when it has none. */
export function parseFileInfo(response: unknown): SlackFile | undefined {
  const parsed = fileInfo.safeParse(response);
  return parsed.success ? parsed.data.file : undefined;
}
