import { AttachmentUnavailableError } from './attachment-unavailable.js';

export interface CappedDownloadOptions {
  /** Whether `url` may be fetched: checked for the first address and every redirect's target. */
  allowed(url: URL): boolean;
  /** Headers for a request to `url` (credentials only where they belong). */
  headers?(url: URL): Record<string, string>;
  /** Bytes read at most; past them the transfer stops. */
  maxBytes: number;
  /** The whole download, redirects included. */
  timeoutMs: number;
  /** Default 5. */
  maxRedirects?: number;
  signal?: AbortSignal | undefined;
}

export interface CappedResponse {
  /** The final HTTP status; the body is read only for 2xx. */
  status: number;
  url: URL;
  contentType: string | undefined;
  bytes: Uint8Array;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function tooLarge(size: number | undefined, max: number): AttachmentUnavailableError {
  return new AttachmentUnavailableError('too_large', `the file is larger than ${max} bytes`, {
    ...(size === undefined ? {} : { size }),
  });
}

async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel();
    throw tooLarge(declared, max);
  }
  if (response.body === null) return new Uint8Array();
  // With a declared length the bytes go straight into one buffer of that size: an image
  // is held once, not once in pieces and again joined. A body that outgrows it (the
  // length of a compressed transfer) is gathered in pieces from there.
  let whole = Number.isFinite(declared) ? new Uint8Array(declared) : new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > max) {
      await reader.cancel();
      throw tooLarge(undefined, max);
    }
    if (chunks.length === 0 && total + value.byteLength <= whole.length) {
      whole.set(value, total);
    } else {
      if (chunks.length === 0) {
        chunks.push(whole.subarray(0, total));
        whole = new Uint8Array();
      }
      chunks.push(value);
    }
    total += value.byteLength;
  }
  if (chunks.length === 0) return total === whole.length ? whole : whole.subarray(0, total);
  return new Uint8Array(Buffer.concat(chunks, total));
}

/**
 * Fetches an attachment from a platform's file host with bounds on
 * everything a hostile or broken host could stretch: only allowed addresses
 * (each redirect is followed by hand and its target checked again), a byte
 * cap enforced while streaming, and a deadline. An address off the list is a
 * permanent failure (`external`), as is a file over the cap (`too_large`).
 */
export async function cappedDownload(url: string, options: CappedDownloadOptions): Promise<CappedResponse> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new AttachmentUnavailableError('deleted', 'the file has no valid download address');
  }
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline]);
  const maxRedirects = options.maxRedirects ?? 5;
  for (let hop = 0; ; hop += 1) {
    if (!options.allowed(target)) {
      throw new AttachmentUnavailableError('external', `refusing to fetch a file from ${target.origin}`);
    }
    const response = await fetch(target, { headers: options.headers?.(target) ?? {}, redirect: 'manual', signal });
    const location = response.headers.get('location');
    if (REDIRECTS.has(response.status) && location !== null) {
      await response.body?.cancel();
      if (hop >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects for one file`);
      target = new URL(location, target);
      continue;
    }
    const contentType = response.headers.get('content-type') ?? undefined;
    if (!response.ok) {
      await response.body?.cancel();
      return { status: response.status, url: target, contentType, bytes: new Uint8Array() };
    }
    return { status: response.status, url: target, contentType, bytes: await readCapped(response, options.maxBytes) };
  }
}
