import type { DownloadedFile } from '@genbot/core';

/** Largest file fetched from Slack; core refuses larger images before asking anyway. */
export const MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024;

/** Thrown when Slack answers `url_private` with something other than the file. */
export class SlackDownloadError extends Error {
  override readonly name = 'SlackDownloadError';
}

/**
 * Whether the bot token may be sent to `url`: Slack's own hosts over HTTPS, or
 * the configured API's origin (a Slack emulator or a proxy). A file URL that
 * points anywhere else never gets the token.
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

async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > max) throw new SlackDownloadError(`the file is larger than ${max} bytes`);
  if (response.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > max) throw new SlackDownloadError(`the file is larger than ${max} bytes`);
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * Fetches a file's `url_private` with the bot token. Without the files:read
 * scope Slack answers 200 with its sign-in page: that is reported as such,
 * never handed on as the file.
 */
export async function downloadSlackFile(
  url: string,
  options: { botToken: string; apiUrl: string; signal?: AbortSignal | undefined; maxBytes?: number },
): Promise<DownloadedFile> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SlackDownloadError('the file has no valid download address');
  }
  if (!mayCarryToken(parsed, options.apiUrl)) throw new SlackDownloadError(`refusing to send the bot token to ${parsed.origin}`);
  const response = await fetch(parsed, {
    headers: { authorization: `Bearer ${options.botToken}` },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const contentType = response.headers.get('content-type') ?? undefined;
  if (!response.ok) {
    await response.body?.cancel();
    throw new SlackDownloadError(`Slack answered ${response.status} for the file`);
  }
  const bytes = await readCapped(response, options.maxBytes ?? MAX_DOWNLOAD_BYTES);
  if (looksLikeHtml(contentType, bytes)) {
    throw new SlackDownloadError('Slack answered with a web page instead of the file: the app probably lacks the files:read scope');
  }
  const mimeType = contentType?.split(';')[0]?.trim();
  return { bytes, size: bytes.byteLength, ...(mimeType === undefined || mimeType === '' ? {} : { mimeType }) };
}
