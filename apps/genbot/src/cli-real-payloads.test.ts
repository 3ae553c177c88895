/**
 * What the real services send, replayed over real HTTP through the CLI as a
 * subprocess, held to the contract's exit statuses, stdout and stderr. The
 * payloads are read from ../shared/real-payloads/ beside the repository.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startReplay, type RealPayload } from '@genbot/emulator';
import { realPayloadsForTests } from '@genbot/emulator/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGenbot } from './testing/run-genbot.js';

const API_KEY = 'replay-key-0c7d21f9';

type Command = 'chat' | 'text' | 'imagine';

interface Image {
  format: 'png' | 'jpeg';
  width: number;
  height: number;
}

/** What the contract says the CLI does with the answer. `reply`: the answer's own reply text. */
type Outcome =
  | { code: 0; stdout: 'reply' }
  | { code: 0; images: Image[] }
  | { code: 3 | 4; stdout: 'reply' | ''; stderr: RegExp[] };

interface Case {
  payload: string;
  command: Command;
  outcome: Outcome;
}

const reply = { code: 0, stdout: 'reply' } as const;
const CASES: Case[] = [
  { payload: 'anthropic-basic.sse', command: 'chat', outcome: reply },
  { payload: 'anthropic-delta-usage-nulls.composite.sse', command: 'chat', outcome: reply },
  { payload: 'anthropic-message-delta-fields.sse', command: 'chat', outcome: reply },
  { payload: 'anthropic-padded-text.sse', command: 'chat', outcome: reply },
  { payload: 'anthropic-thinking-then-text.sse', command: 'chat', outcome: reply },
  { payload: 'anthropic-usage-omitted.sse', command: 'chat', outcome: reply },
  {
    payload: 'anthropic-refusal.sse',
    command: 'chat',
    outcome: { code: 3, stdout: '', stderr: [/refus/i, /This request was refused due to policy/] },
  },
  {
    // No tool was offered, yet the answer asks for one (and has no text).
    payload: 'anthropic-thinking-tool-use.sse',
    command: 'chat',
    outcome: { code: 3, stdout: '', stderr: [/asked for a tool \(weather\)/, /stop reason tool_use/] },
  },
  {
    payload: 'anthropic-error-event.json',
    command: 'chat',
    outcome: { code: 4, stdout: '', stderr: [/overloaded_error/, /Overloaded/] },
  },
  {
    payload: 'anthropic-http-404.json',
    command: 'chat',
    outcome: { code: 4, stdout: '', stderr: [/404 not_found_error/, /CHAT_MODEL/] },
  },
  { payload: 'gemini-2.5-flash-image-text-only.json', command: 'text', outcome: reply },
  {
    payload: 'gemini-2.5-flash-image-text-only.json',
    command: 'imagine',
    outcome: { code: 3, stdout: '', stderr: [/no image/] },
  },
  {
    payload: 'gemini-3-image-with-thought-image.composite.json',
    command: 'imagine',
    outcome: { code: 0, images: [{ format: 'png', width: 1024, height: 1024 }] },
  },
  {
    payload: 'gemini-3-pro-image-preview.json',
    command: 'imagine',
    outcome: { code: 0, images: [{ format: 'jpeg', width: 1408, height: 768 }] },
  },
  { payload: 'gemini-3-pro-text.json', command: 'text', outcome: reply },
  { payload: 'gemini-thought-summary-text.json', command: 'text', outcome: reply },
  {
    payload: 'gemini-400-api-key.json',
    command: 'text',
    outcome: { code: 4, stdout: '', stderr: [/400 INVALID_ARGUMENT/, /API key not valid/, /GENAI_API_KEY/] },
  },
  {
    payload: 'gemini-404-unknown-model.json',
    command: 'text',
    outcome: { code: 4, stdout: '', stderr: [/404 NOT_FOUND/, /TEXT_MODEL/] },
  },
  {
    payload: 'gemini-404-unknown-model.json',
    command: 'imagine',
    outcome: { code: 4, stdout: '', stderr: [/404 NOT_FOUND/, /IMAGE_MODEL/] },
  },
  { payload: 'gemini-empty-content.json', command: 'text', outcome: { code: 3, stdout: '', stderr: [/no text/] } },
  { payload: 'gemini-empty-text-part.json', command: 'text', outcome: { code: 3, stdout: '', stderr: [/no text/] } },
  {
    // Text, then a stop for safety: the text is printed, and the status says it is not the whole answer.
    payload: 'gemini-finish-reason-safety.json',
    command: 'text',
    outcome: { code: 3, stdout: 'reply', stderr: [/safety/i, /SAFETY/] },
  },
  {
    payload: 'gemini-image-empty-part.json',
    command: 'imagine',
    outcome: { code: 0, images: [{ format: 'png', width: 1, height: 1 }] },
  },
  {
    payload: 'gemini-image-empty-safety-ratings.json',
    command: 'imagine',
    outcome: { code: 0, images: [{ format: 'png', width: 1024, height: 1024 }] },
  },
  {
    payload: 'gemini-prompt-blocked-safety.json',
    command: 'text',
    outcome: { code: 3, stdout: '', stderr: [/blocked for safety/, /SAFETY/] },
  },
  {
    payload: 'gemini-prompt-blocked-safety.json',
    command: 'imagine',
    outcome: { code: 3, stdout: '', stderr: [/blocked for safety/, /SAFETY/] },
  },
];

/** The reply text in a recorded answer, read here on its own: text deltas of a stream, non-thought text parts. */
function replyText(payload: RealPayload): string {
  const body = payload.answer.body.toString('utf8');
  if (payload.operation === 'messages') {
    return body
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice('data:'.length)) as { delta?: { type?: string; text?: string } })
      .flatMap((event) => (event.delta?.type === 'text_delta' ? [event.delta.text ?? ''] : []))
      .join('');
  }
  const parsed = JSON.parse(body) as { candidates?: Array<{ content?: { parts?: Array<Record<string, unknown>> } }> };
  return (parsed.candidates?.[0]?.content?.parts ?? [])
    .filter((part) => part.thought !== true && typeof part.text === 'string')
    .map((part) => part.text)
    .join('');
}

function argsFor(command: Command): string[] {
  switch (command) {
    case 'chat':
      return ['chat', 'Hello'];
    case 'text':
      return ['text', 'Hello'];
    case 'imagine':
      return ['imagine', 'an axolotl', '--out', 'out'];
  }
}

const real = realPayloadsForTests();

if (real !== undefined) {
  const payloads = new Map(real.map((payload) => [payload.name, payload]));

  describe('genbot replaying the real services', { timeout: 60_000 }, () => {
    let workDir: string;

    beforeAll(async () => {
      workDir = await mkdtemp(path.join(tmpdir(), 'genbot-replay-'));
    });

    afterAll(async () => {
      await rm(workDir, { recursive: true, force: true });
    });

    it('has a case for every payload of the two services', () => {
      const covered = new Set(CASES.map((c) => c.payload));
      expect([...payloads.keys()].filter((name) => !covered.has(name))).toEqual([]);
    });

    it.concurrent.each(CASES.map((c) => ({ ...c, title: `${c.command}: ${c.payload}` })))(
      '$title',
      async ({ payload: name, command, outcome }) => {
        const payload = payloads.get(name);
        if (payload === undefined) throw new Error(`${name} is not among the real payloads`);
        const replay = await startReplay(payload.answer);
        const cwd = await mkdtemp(path.join(workDir, `${command}-`));
        try {
          const run = await runGenbot(argsFor(command), {
            env: { GENAI_BASE_URL: replay.url, GENAI_API_KEY: API_KEY, INIT_CWD: cwd },
          });
          const report = `exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`;
          expect(run.code, report).toBe(outcome.code);
          expect(run.stderr).not.toMatch(/\n\s+at /);
          if ('images' in outcome) {
            const written = run.stdout.split('\n').filter((line) => line !== '');
            const images = await Promise.all(
              written.map(async (file) => {
                const { format, width, height } = await sharp(await readFile(path.join(cwd, file))).metadata();
                expect(path.extname(file)).toBe(format === 'jpeg' ? '.jpg' : `.${format}`);
                return { format, width, height };
              }),
            );
            expect(images, report).toEqual(outcome.images);
            expect(run.stderr).toBe('');
          } else {
            const text = outcome.stdout === 'reply' ? replyText(payload) : '';
            expect(outcome.stdout === 'reply' && text === '', `${name} has no reply text`).toBe(false);
            expect(run.stdout, report).toBe(outcome.stdout === 'reply' ? `${text}\n` : '');
            if ('stderr' in outcome) {
              // Logs (retries) may come first; the failure is the last line.
              const last = run.stderr.trim().split('\n').at(-1) ?? '';
              expect(last, report).toMatch(/^genbot: /);
              for (const pattern of outcome.stderr) expect(last, report).toMatch(pattern);
            } else {
              expect(run.stderr).toBe('');
            }
          }
        } finally {
          await replay.close();
        }
      },
    );
  });
}
