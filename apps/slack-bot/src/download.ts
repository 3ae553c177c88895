import { cappedDownload, MAX_DOWNLOAD_BYTES } from '@genbot/core/files';
import type { DownloadedFile } from '@genbot/core/surface';
import { AttachmentUnavailableError, GenBotError } from '@genbot/core/errors';

/** One file, redirects included; Slack's file host answers in well under a second. */
export const DOWNLOAD_TIMEOUT_MS = 30_000;

/** Thrown when Slack fails to hand over a file in a way that trying again may fix (5xx, a cut connection). */
export class SlackDownloadError extends GenBotError {}

/**
 * Whether the bot token may be sent to `url`: Slack's own hosts over HTTPS, or
 * the configured API's origin (a Slack emulator or a proxy). A file URL (or a
 * redirect) that points anywhere else is never fetched.
 */
export function mayCarryToken(url: URL, apiUrl: string): boolean {
  if (url.origin === new URL(apiUrl).origin) return true;
  return url.protocol === 'https:' && (url.hostname === 'slack.com' || url.hostname.endsWith('.slack.com'));
}

function looksLikeHtml(contentType: string | undefined, head: Uint8Array): boolean {
  if (contentType?.toLowerCase().includes('text/html') === true) return true;
  const text = Buffer.from(head.subarray(0, 64)).toString('utf8').trimStart().toLowerCase();
  return text.startsWith('<!doctype html') || text.startsWith('<html');
}

const MISSING_SCOPE = 'the app probably lacks the files:read scope';

/**
 * Fetches a file's `url_private` with the bot token, bounded in size and time,
 * following redirects only within Slack. Permanent failures are
 * `AttachmentUnavailableError`s, never tried again: a file over the cap, a
 * refusal (401/403) or Slack's sign-in page instead of the file (both most
 * likely a missing files:read scope), a file gone (404/410).
 */
export async function downloadSlackFile(
  url: string,
  options: {
    botToken: string;
    apiUrl: string;
    signal?: AbortSignal | undefined;
    maxBytes?: number;
    timeoutMs?: number;
  },
): Promise<DownloadedFile> {
  const response = await cappedDownload(url, {
    allowed: (target) => mayCarryToken(target, options.apiUrl),
    headers: () => ({ authorization: `Bearer ${options.botToken}` }),
    maxBytes: options.maxBytes ?? MAX_DOWNLOAD_BYTES,
    timeoutMs: options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS,
    signal: options.signal,
  });
  const { status, contentType, bytes } = response;
  if (status === 401 || status === 403) {
    throw new AttachmentUnavailableError('not_allowed', `Slack refused the file (${status}): ${MISSING_SCOPE}`);
  }
  if (status === 404 || status === 410) throw new AttachmentUnavailableError('deleted', `Slack answered ${status}`);
  if (status < 200 || status >= 300) throw new SlackDownloadError(`Slack answered ${status} for the file`);
  if (looksLikeHtml(contentType, bytes)) {
    throw new AttachmentUnavailableError(
      'not_allowed',
      `Slack answered with a web page instead of the file: ${MISSING_SCOPE}`,
    );
  }
  const mimeType = contentType?.split(';')[0]?.trim();
  return { bytes, size: bytes.byteLength, ...(mimeType === undefined || mimeType === '' ? {} : { mimeType }) };
}
