import type { IncomingMessage, ServerResponse } from 'node:http';
import { pause } from './http-io.js';
import { sha256Hex } from './seed.js';

export type Fault =
  | { kind: 'status'; status: 429 | 500 | 503 | 529; retryAfterSeconds: number }
  | { kind: 'stream-error' }
  | { kind: 'stream-cut' }
  | { kind: 'slow'; ms: number }
  | { kind: 'reset' }
  | { kind: 'safety' }
  | { kind: 'safety-stop' }
  | { kind: 'ignore-max-tokens' }
  | { kind: 'no-image'; finishReason: string }
  | { kind: 'data-url' }
  | { kind: 'bad-base64' }
  | { kind: 'endless-line' }
  | { kind: 'only-pings' }
  | { kind: 'huge-error'; megabytes: number };

export interface FaultSpec {
  fault: Fault;
  /** Fail only this many identical requests; undefined: every attempt. */
  times: number | undefined;
}

const DEFAULT_SLOW_MS = 3000;
/** The error page of a proxy gone wrong, as issue reports met it. */
const DEFAULT_HUGE_ERROR_MB = 200;
const SPEC = /^([a-z0-9-]+)(?:=([^*]+))?(?:\*(\d+))?$/i;

function parseFault(kind: string, value: string | undefined): Fault | undefined {
  const number = value !== undefined && /^\d+$/.test(value) ? Number.parseInt(value, 10) : undefined;
  if (value !== undefined && number === undefined && kind !== 'no-image') return undefined;
  switch (kind) {
    case '429':
      return { kind: 'status', status: 429, retryAfterSeconds: number ?? 1 };
    case '500':
    case '503':
    case '529':
      return value === undefined
        ? { kind: 'status', status: Number(kind) as 500 | 503 | 529, retryAfterSeconds: 0 }
        : undefined;
    case 'slow':
      return { kind: 'slow', ms: number ?? DEFAULT_SLOW_MS };
    case 'no-image':
      if (value !== undefined && !/^[A-Z_]+$/.test(value)) return undefined;
      return { kind: 'no-image', finishReason: value ?? 'NO_IMAGE' };
    case 'huge-error':
      return { kind: 'huge-error', megabytes: number ?? DEFAULT_HUGE_ERROR_MB };
    case 'stream-error':
    case 'stream-cut':
    case 'reset':
    case 'safety':
    case 'safety-stop':
    case 'ignore-max-tokens':
    case 'data-url':
    case 'bad-base64':
    case 'endless-line':
    case 'only-pings':
      return value === undefined ? { kind } : undefined;
    default:
      return undefined;
  }
}

/** Parses `KIND`, `KIND=VALUE`, `KIND*N` or `KIND=VALUE*N`; undefined when it is not a known fault. */
export function parseFaultSpec(spec: string): FaultSpec | undefined {
  const match = SPEC.exec(spec.trim());
  if (!match?.[1]) return undefined;
  const fault = parseFault(match[1].toLowerCase(), match[2]);
  if (!fault) return undefined;
  return { fault, times: match[3] === undefined ? undefined : Number.parseInt(match[3], 10) };
}

export type FaultChoice = { ok: true; fault: Fault | undefined } | { ok: false; message: string };

/**
 * Counts attempts per (path, body, spec) so `KIND*N` fails the first N identical requests and lets
 * the next ones through: that is what makes client retries testable.
 */
export class FaultCounter {
  readonly #attempts = new Map<string, number>();

  choose(headerSpec: string | undefined, promptSpec: string | undefined, path: string, body: Buffer): FaultChoice {
    const text = headerSpec ?? promptSpec;
    if (text === undefined) return { ok: true, fault: undefined };
    const spec = parseFaultSpec(text);
    if (!spec) return { ok: false, message: `Unknown emulator fault "${text}".` };
    if (spec.times === undefined) return { ok: true, fault: spec.fault };
    const key = `${path}\n${sha256Hex(body)}\n${text}`;
    const attempt = (this.#attempts.get(key) ?? 0) + 1;
    this.#attempts.set(key, attempt);
    return { ok: true, fault: attempt <= spec.times ? spec.fault : undefined };
  }
}

/**
 * Applies the faults that act on the connection rather than the answer.
 * Returns false when the exchange is over (socket reset, or the client went away while waiting).
 */
export async function applyConnectionFault(
  fault: Fault | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<boolean> {
  if (fault?.kind === 'reset') {
    req.socket.resetAndDestroy();
    return false;
  }
  if (fault?.kind === 'slow') return (await pause(fault.ms, signal)) && !res.destroyed;
  return true;
}
