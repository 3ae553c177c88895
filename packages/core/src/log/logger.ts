import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyLines } from './pretty-lines.js';

/** `pretty`: one human line an entry, for a person at a terminal; `json`: one JSON object a line, for machines. */
export type LogFormat = 'pretty' | 'json';

export interface LoggerOptions {
  level?: string;
  /** Values that must never reach a log line (API key, tokens); unset ones are ignored. */
  secrets?: Array<string | undefined>;
  /** Default: standard error, since standard output carries CLI results only. */
  destination?: DestinationStream | NodeJS.WritableStream;
  /** Default: `logFormatFor(destination)`. */
  format?: LogFormat;
  name?: string;
}

export type { Logger };

/**
 * Human lines when a person reads the stream at a terminal; JSON lines
 * otherwise, where log collectors, files and pipes want fields, not prose.
 */
export function logFormatFor(stream: object): LogFormat {
  return 'isTTY' in stream && stream.isTTY === true ? 'pretty' : 'json';
}

export const REDACTED = '[REDACTED]';

// A JSON string, or an array of them (undici keeps repeated headers as arrays).
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const CREDENTIAL_HEADERS = new RegExp(
  String.raw`("(?:authorization|x-api-key|x-goog-api-key)"\s*:\s*)(${JSON_STRING}|\[\s*(?:${JSON_STRING}\s*,?\s*)*\])`,
  'gi',
);

/**
 * Rewrites a finished log line. Working on the serialized text (not on the
 * object) catches a secret wherever it hides: message, error text, stack,
 * nested fields, whatever a serializer produced.
 */
export function redactLine(line: string, secrets: readonly string[]): string {
  let result = line.replace(CREDENTIAL_HEADERS, `$1"${REDACTED}"`);
  for (const secret of secrets) {
    result = result.split(secret).join(REDACTED);
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) result = result.split(escaped).join(REDACTED);
  }
  return result;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  // Longest first, so a secret that contains another is replaced whole.
  const secrets = [...new Set((options.secrets ?? []).filter((s): s is string => s !== undefined && s !== ''))].sort(
    (a, b) => b.length - a.length,
  );
  const out = options.destination ?? pino.destination({ dest: 2, sync: true });
  const format = options.format ?? logFormatFor(options.destination ?? process.stderr);
  const destination = format === 'pretty' ? prettyLines(out) : out;
  return pino(
    {
      level: options.level ?? 'info',
      ...(options.name === undefined ? {} : { name: options.name }),
      hooks: { streamWrite: (line) => redactLine(line, secrets) },
    },
    destination as DestinationStream,
  );
}
