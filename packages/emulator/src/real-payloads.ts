import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ReplayAnswer } from './replay.js';

/**
 * Answers recorded from the real content-generation services (from the
 * vendors' SDK fixtures, docs and public recordings), kept beside the
 * repository in `../shared/real-payloads/` and read from there at test time,
 * never copied in. Each file has a `.src.txt` saying where it came from.
 */
export interface RealPayload {
  /** The file name, e.g. `anthropic-basic.sse`. */
  name: string;
  /** Which operation answered it. */
  operation: 'messages' | 'generate-content';
  answer: ReplayAnswer;
}

export type RealPayloads = { found: true; dir: string; payloads: RealPayload[] } | { found: false; dir: string };

/** The repository root: the nearest folder up from `from` that holds pnpm-workspace.yaml. */
export function repositoryRoot(from: string = process.cwd()): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`);
  }
}

/** An HTTP status carried in the name: `anthropic-http-404.json`, `gemini-400-api-key.json`. */
function statusInName(name: string): number | undefined {
  const match = /^(?:anthropic-http|gemini)-(\d{3})-?/.exec(name);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function answerFor(name: string, bytes: Buffer): ReplayAnswer {
  if (name.endsWith('.sse')) return { status: 200, contentType: 'text/event-stream; charset=utf-8', body: bytes };
  const status = statusInName(name);
  if (status !== undefined) return { status, contentType: 'application/json; charset=UTF-8', body: bytes };
  if (name.startsWith('anthropic-')) {
    // A JSON file of the messages operation without a status is one stream event (`anthropic-error-event.json`):
    // sent as the stream's only event, its data line the file's bytes as they are.
    const { type } = JSON.parse(bytes.toString('utf8')) as { type: string };
    const framed = Buffer.concat([Buffer.from(`event: ${type}\ndata: `), bytes, Buffer.from('\n\n')]);
    return { status: 200, contentType: 'text/event-stream; charset=utf-8', body: framed };
  }
  return { status: 200, contentType: 'application/json; charset=UTF-8', body: bytes };
}

/**
 * Every payload of the two services (`anthropic-*`, `gemini-*`) in
 * `../shared/real-payloads/` next to the repository root, with the answer to
 * replay for it; `found: false` when the folder is not there.
 */
export function serviceRealPayloads(root: string = repositoryRoot()): RealPayloads {
  const dir = path.resolve(root, '..', 'shared', 'real-payloads');
  if (!existsSync(dir)) return { found: false, dir };
  const payloads = readdirSync(dir)
    .filter((name) => /^(anthropic|gemini)-/.test(name) && !name.endsWith('.src.txt'))
    .sort()
    .map(
      (name): RealPayload => ({
        name,
        operation: name.startsWith('anthropic-') ? 'messages' : 'generate-content',
        answer: answerFor(name, readFileSync(path.join(dir, name))),
      }),
    );
  return { found: true, dir, payloads };
}
