import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (res.destroyed) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

/** Sends the headers and half of the body, then drops the connection: a response cut in flight. */
export function sendTruncatedJson(res: ServerResponse, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (res.destroyed) return;
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(200, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': payload.length,
  });
  res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => res.destroy());
}

/** Resolves true after `ms`, or false as soon as the exchange is aborted. */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Resolves true once `res` can take more, false when the exchange is over first. */
async function drained(res: ServerResponse, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted || res.destroyed) return false;
  if (!res.writableNeedDrain) return true;
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      res.off('drain', onDrain);
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onDrain = done(true);
    const onAbort = done(false);
    res.once('drain', onDrain);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Writes `filler` after whatever was sent so far, again and again, as fast as
 * the client reads and for as long as it does (at most `limitBytes`): a body
 * without end, as a proxy gone wrong sends. Ends the response when the limit is reached.
 */
export async function writeFiller(
  res: ServerResponse,
  filler: Buffer,
  signal: AbortSignal,
  limitBytes = Number.POSITIVE_INFINITY,
): Promise<void> {
  for (let sent = 0; sent < limitBytes; sent += filler.length) {
    if (!(await drained(res, signal))) return;
    const left = limitBytes - sent;
    res.write(left < filler.length ? filler.subarray(0, left) : filler);
  }
  res.end();
}

/** A 500 whose HTML error page is `bytes` long, written only as fast as the client reads it. */
export async function sendHugeErrorPage(res: ServerResponse, bytes: number, signal: AbortSignal): Promise<void> {
  if (res.destroyed) return;
  const head = Buffer.from('<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body>');
  res.writeHead(500, { 'content-type': 'text/html; charset=utf-8', 'content-length': bytes });
  res.write(head.subarray(0, bytes));
  await writeFiller(res, Buffer.alloc(64 * 1024, '<p>Internal Server Error</p>\n'), signal, bytes - head.length);
}

/**
 * A JSON answer that never ends. `endless-line`: one string literal that
 * grows as fast as the client reads; `only-pings`: nothing but a space now
 * and then, as a proxy keeping an idle connection open would send.
 */
export async function sendEndlessJson(
  res: ServerResponse,
  kind: 'endless-line' | 'only-pings',
  start: string,
  intervalMs: number,
  signal: AbortSignal,
): Promise<void> {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.write(start);
  if (kind === 'endless-line') {
    await writeFiller(res, Buffer.alloc(64 * 1024, 'and on '), signal);
    return;
  }
  while (await pause(intervalMs, signal)) res.write(' ');
}
