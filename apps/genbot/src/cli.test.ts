/**
 * The CLI as users run it: a subprocess against an emulator over real HTTP. Each run checks that the
 * API key never shows on stdout or stderr, whatever happened.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GenAiClient, MAX_INLINE_IMAGE_BYTES } from '@genbot/core/genai';
import { pngDeclaring } from '@genbot/core/testing/image-bombs';
import { startEmulator, type Emulator } from '@genbot/emulator';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runGenbot, type GenbotRun } from './testing/run-genbot.js';

const API_KEY = 'test-key-5f3c9a71d2e84b06';
const STREAM_DELAY_MS = 40;

let emulator: Emulator;
let baseUrl: string;
let workDir: string;

beforeAll(async () => {
  // A path prefix and a trailing slash, as GENAI_BASE_URL may carry both.
  emulator = await startEmulator({ apiKey: API_KEY, pathPrefix: '/proxy', streamDelayMs: STREAM_DELAY_MS });
  baseUrl = `${emulator.url}/`;
});

afterAll(async () => {
  await emulator.close();
});

beforeEach(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'genbot-cli-'));
  emulator.requests.length = 0;
});

afterEach(async () => {
  await rm(workDir, { recursive: true, force: true });
});

function genbot(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; emulated?: boolean; onStart?: (child: ChildProcess) => void } = {},
): Promise<GenbotRun> {
  const service = options.emulated === true ? {} : { GENAI_BASE_URL: baseUrl, GENAI_API_KEY: API_KEY };
  return runGenbot(args, {
    env: { ...service, INIT_CWD: workDir, ...options.env },
    ...(options.onStart === undefined ? {} : { onStart: options.onStart }),
  }).then((run) => {
    expect(run.stdout).not.toContain(API_KEY);
    expect(run.stderr).not.toContain(API_KEY);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    return run;
  });
}

async function expectImage(
  relativePath: string,
  format: 'png' | 'jpeg' | 'webp',
): Promise<{ width?: number | undefined; height?: number | undefined }> {
  const extension = { png: '.png', jpeg: '.jpg', webp: '.webp' }[format];
  expect(path.extname(relativePath)).toBe(extension);
  const metadata = await sharp(await readFile(path.join(workDir, relativePath))).metadata();
  expect(metadata.format).toBe(format);
  return metadata;
}

function lines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line !== '');
}

async function expectedChat(prompt: string): Promise<string> {
  const client = new GenAiClient({ baseUrl, apiKey: API_KEY });
  try {
    const final = await client
      .streamMessage({ model: 'claude-test', messages: [{ role: 'user', content: prompt }], max_tokens: 1024 })
      .finalMessage();
    return final.text;
  } finally {
    await client.close();
  }
}

describe('genbot', { timeout: 30_000 }, () => {
  describe('usage', () => {
    it('prints help on stdout with exit 0', async () => {
      const general = await genbot(['--help']);
      expect(general.code).toBe(0);
      expect(general.stdout).toContain('genbot <command>');
      const imagine = await genbot(['imagine', '--help']);
      expect(imagine.code).toBe(0);
      expect(imagine.stdout).toContain('--ar W:H');
      expect(imagine.stderr).toBe('');
    });

    it('exits 2 with nothing sent for an unknown flag, a missing prompt or a bad --max-tokens', async () => {
      for (const args of [
        ['text', 'hi', '--frobnicate'],
        ['chat'],
        ['chat', 'hi', '--max-tokens', 'many'],
        ['draw', 'x'],
      ]) {
        const run = await genbot(args);
        expect(run.code, args.join(' ')).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(/^genbot: /);
      }
      expect(emulator.requests).toEqual([]);
    });

    it('exits 2 on bad environment configuration', async () => {
      const noKey = await genbot(['text', 'hi'], { env: { GENAI_API_KEY: '' } });
      expect(noKey.code).toBe(2);
      expect(noKey.stderr).toContain('GENAI_API_KEY');
      const badUrl = await genbot(['text', 'hi'], { env: { GENAI_BASE_URL: 'not a url' } });
      expect(badUrl.code).toBe(2);
      expect(badUrl.stderr).toContain('GENAI_BASE_URL');
      expect(emulator.requests).toEqual([]);
    });
  });

  describe('chat', () => {
    it('streams the reply to stdout as it arrives', async () => {
      const prompt = 'tell me about tides [len:200]';
      const run = await genbot(['chat', prompt, '--system', 'be brief', '--max-tokens', '300']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${await expectedChat(prompt)}\n`);
      // Several chunks spread over the stream's pauses: written as deltas came, not at the end.
      expect(run.stdoutTimes.length).toBeGreaterThan(2);
      const [first] = run.stdoutTimes;
      const last = run.stdoutTimes.at(-1);
      expect((last ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(2 * STREAM_DELAY_MS);
      const sent = emulator.requests.find((r) => r.path === '/proxy/v1/messages');
      expect(sent?.body).toMatchObject({ system: 'be brief', max_tokens: 300, stream: true });
    });

    it('exits 4 with the error type on an error event mid-stream and on a cut stream', async () => {
      const failed = await genbot(['chat', 'hello [fault:stream-error]']);
      expect(failed.code).toBe(4);
      expect(failed.stderr).toContain('genbot: the service failed: overloaded_error');
      const cut = await genbot(['chat', 'hello [fault:stream-cut]']);
      expect(cut.code).toBe(4);
      expect(cut.stderr).toContain('genbot: the service failed:');
    });

    it('prints the text a reply had before a stop for safety, then exits 3 with the reason', async () => {
      const run = await genbot(['chat', 'tell me [fault:safety-stop] [len:300]']);
      expect(run.code).toBe(3);
      expect(run.stdout.trim().length).toBeGreaterThan(20);
      expect(run.stdout.endsWith('\n')).toBe(true);
      expect(run.stderr).toMatch(/^genbot: stopped for safety, the reply is incomplete: .*refusal/m);
    });

    it('exits 4 with a short line when a stream line never ends', async () => {
      const run = await genbot(['chat', 'go on [fault:endless-line]']);
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(/^genbot: the service failed: too_large: .*over 1024 KiB/m);
    });

    it('exits 4 with status and type when the model is not found', async () => {
      const run = await genbot(['chat', 'hello', '--model', 'model-not-found']);
      expect(run.code).toBe(4);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('404 not_found_error');
    });

    it('stops on SIGINT with exit 130, not waiting for the service', async () => {
      // The service would take far longer than this test may: only an interrupted call ends in time.
      const run = await genbot(['chat', 'wait [fault:slow=600000]'], {
        onStart: (child) => {
          const poll = setInterval(() => {
            if (emulator.requests.length > 0) {
              clearInterval(poll);
              child.kill('SIGINT');
            }
          }, 20);
        },
      });
      expect(run.code).toBe(130);
      expect(run.stderr).toContain('genbot: interrupted');
    });
  });

  describe('chat --file', () => {
    const PDF =
      '%PDF-1.4\n1 0 obj << /Type /Pages /Count 2 >> endobj\n2 0 obj << /Type /Page >> endobj\n3 0 obj << /Type /Page >> endobj\n%%EOF\n';

    interface SentBlock {
      type: string;
      text?: string;
      title?: string;
      source?: { media_type: string; data: string };
    }

    function sentMessage(): { blocks: SentBlock[]; body: Record<string, unknown> } {
      const sent = emulator.requests.find((r) => r.path === '/proxy/v1/messages');
      const body = sent?.body as { messages: Array<{ content: SentBlock[] }> } & Record<string, unknown>;
      return { blocks: body.messages[0]?.content ?? [], body };
    }

    it('sends images, text files and PDFs with the prompt, and the model answers about them', async () => {
      await writeFile(
        path.join(workDir, 'wide.png'),
        await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#d01818' } })
          .png()
          .toBuffer(),
      );
      await writeFile(path.join(workDir, 'notes.md'), '# Notes\n\nThe tide turns at six.');
      await writeFile(path.join(workDir, 'report.pdf'), PDF);
      const run = await genbot([
        'chat',
        'what do these show?',
        '--file',
        'wide.png',
        '--file',
        'notes.md',
        '--file',
        'report.pdf',
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // The emulator answers from the pixels and pages it was sent: the scaled image, the PDF's two pages.
      expect(run.stdout).toMatch(/^Image 1 is 1568 × 784 pixels, PNG, mostly red \(#[0-9a-f]{6}\)\. /);
      expect(run.stdout).toMatch(/Document "report\.pdf" has 2 pages \(\d+ bytes\)\.\n$/);
      const { blocks, body } = sentMessage();
      expect(body.tools).toBeUndefined();
      expect(blocks.map((block) => block.type)).toEqual(['text', 'image', 'text', 'document', 'text']);
      expect(blocks[0]?.text).toBe('Image "wide.png":');
      expect(blocks[1]?.source?.media_type).toBe('image/png');
      expect(blocks[2]?.text).toBe('<file name="notes.md">\n# Notes\n\nThe tide turns at six.\n</file>');
      expect(blocks[3]).toMatchObject({ title: 'report.pdf', source: { media_type: 'application/pdf' } });
      expect(blocks[4]?.text).toBe('what do these show?');
    });

    it('exits 3 when the answer asks for a tool, none being offered', async () => {
      const run = await genbot(['chat', 'draw a cat [tool:generate_image {"prompt":"a cat"}]']);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /^genbot: The model asked for a tool \(generate_image\), and genbot chat offers none/m,
      );
      // With no tools offered, a request for a picture is answered in words.
      const words = await genbot(['chat', 'draw a cat']);
      expect(words.code).toBe(0);
      expect(words.stdout).toContain('draw a cat');
    });

    it('exits 2 and sends nothing for a file it cannot read, does not take, or that is too big', async () => {
      await writeFile(
        path.join(workDir, 'archive.zip'),
        Buffer.from([0x50, 0x4b, 0x03, 0x04, ...new Array(60).fill(0)]),
      );
      await writeFile(path.join(workDir, 'log.txt'), 'x'.repeat(200 * 1024 + 1));
      await writeFile(path.join(workDir, 'camera.png'), pngDeclaring(10_000, 6_000));
      await mkdir(path.join(workDir, 'folder'));
      // Sparse, so the test stays cheap: a PDF of 25 MiB, and a file past what a request may carry.
      await writeFile(path.join(workDir, 'scan.pdf'), PDF);
      await truncate(path.join(workDir, 'scan.pdf'), 25 * 1024 * 1024);
      await writeFile(path.join(workDir, 'huge.bin'), '');
      await truncate(path.join(workDir, 'huge.bin'), 31 * 1024 * 1024);
      const small = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      for (const name of ['a', 'b', 'c', 'd', 'e']) await writeFile(path.join(workDir, `${name}.png`), small);
      const cases: Array<[string[], RegExp]> = [
        [['missing.png'], /cannot read missing\.png \(ENOENT\)/],
        [['folder'], /cannot read folder \(EISDIR\)/],
        [['archive.zip'], /--file archive\.zip: it isn't an image \(PNG, JPEG, GIF or WebP\), a text file or a PDF\./],
        [['log.txt'], /--file log\.txt: it is 201 KiB, and a text file may be at most 200 KiB\./],
        [['scan.pdf'], /--file scan\.pdf: it is 25\.0 MiB, and a PDF may be at most 20\.0 MiB\./],
        [['camera.png'], /--file camera\.png: it is 10,000 × 6,000 pixels, and the limit is 40 megapixels\./],
        [['huge.bin'], /--file huge\.bin: too large \(31\.0 MiB\)/],
        [['a.png', 'b.png', 'c.png', 'd.png', 'e.png'], /--file a\.png: only the 4 most recent images go\./],
      ];
      for (const [files, stderr] of cases) {
        const run = await genbot(['chat', 'look', ...files.flatMap((file) => ['--file', file])]);
        expect(run.code, files.join(' ')).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(stderr);
      }
      expect(emulator.requests).toEqual([]);
    });
  });

  describe('text', () => {
    it('prints the reply and a newline, logs staying off stdout even at debug level', async () => {
      const run = await genbot(['text', 'what is a tide?'], { env: { LOG_LEVEL: 'debug' } });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^You said: "what is a tide\?"\..+\n$/s);
      expect(run.stdout.split('\n')).toHaveLength(2);
      expect(emulator.requests[0]?.path).toMatch(/^\/proxy\/v1beta\/models\/[^/]+:generateContent$/);
    });

    it('exits 3 with the reason when the prompt is blocked', async () => {
      const run = await genbot(['text', 'something [fault:safety]']);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^genbot: blocked for safety: .*SAFETY/m);
    });

    it('prints the text before a stop for safety, then exits 3 with the reason', async () => {
      const run = await genbot(['text', 'tell me [fault:safety-stop] [len:300]']);
      expect(run.code).toBe(3);
      expect(run.stdout.trim().length).toBeGreaterThan(20);
      expect(run.stderr).toMatch(/^genbot: stopped for safety, the reply is incomplete: .*SAFETY/m);
    });

    it('exits 4 with status, type and message after retries', async () => {
      const run = await genbot(['text', 'hi [fault:500]']);
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(/^genbot: the service failed: 500 INTERNAL: .+/m);
      expect(emulator.requests.length).toBeGreaterThan(1);
    });
  });

  describe('imagine', () => {
    it('writes a PNG into the current directory and prints its path', async () => {
      const run = await genbot(['imagine', 'A red fox!']);
      expect(run.code).toBe(0);
      expect(lines(run.stdout)).toEqual(['a-red-fox-1.png']);
      await expectImage('a-red-fox-1.png', 'png');
    });

    it('names files by the returned MIME type, creates --out and follows --ar', async () => {
      const jpeg = await genbot(['imagine', 'fox [format:jpeg]', '--out', 'deep/new/dir', '--ar', '16:9']);
      expect(jpeg.code).toBe(0);
      const [jpegPath] = lines(jpeg.stdout);
      expect(jpegPath).toBe(path.join('deep/new/dir', 'fox-1.jpg'));
      const metadata = await expectImage(jpegPath ?? '', 'jpeg');
      expect((metadata.width ?? 0) / (metadata.height ?? 1)).toBeCloseTo(16 / 9, 1);
      expect(emulator.requests[0]?.body).toMatchObject({ generationConfig: { imageConfig: { aspectRatio: '16:9' } } });

      const webp = await genbot(['imagine', 'fox [format:webp] [images:2]', '--out', path.join(workDir, 'abs')]);
      expect(webp.code).toBe(0);
      const webpPaths = lines(webp.stdout);
      expect(webpPaths).toHaveLength(2);
      for (const written of webpPaths) {
        expect(path.isAbsolute(written)).toBe(true);
        await expectImage(path.relative(workDir, written), 'webp');
      }
    });

    it('never overwrites an existing file: it counts on, never stacking numbers', async () => {
      await writeFile(path.join(workDir, 'fox-1.png'), 'precious');
      const first = await genbot(['imagine', 'fox']);
      const second = await genbot(['imagine', 'fox [images:2]']);
      expect([first.code, second.code]).toEqual([0, 0]);
      expect(lines(first.stdout)).toEqual(['fox-2.png']);
      expect(lines(second.stdout)).toEqual(['fox-3.png', 'fox-4.png']);
      expect(await readFile(path.join(workDir, 'fox-1.png'), 'utf8')).toBe('precious');
      await expectImage('fox-4.png', 'png');
    });

    it('rejects a bad --ar with exit 2 and sends nothing', async () => {
      const run = await genbot(['imagine', 'fox', '--ar', '7:3']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('16:9');
      expect(emulator.requests).toEqual([]);
    });

    it('exits 2 when --out cannot be created', async () => {
      await writeFile(path.join(workDir, 'taken'), 'a file, not a directory');
      const run = await genbot(['imagine', 'fox', '--out', 'taken/sub']);
      expect(run.code).toBe(2);
      expect(emulator.requests).toEqual([]);
    });

    it('exits 3 when the model returns no image', async () => {
      const run = await genbot(['imagine', 'fox [fault:no-image]', '--out', 'out']);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('NO_IMAGE');
      expect(await readdir(path.join(workDir, 'out'))).toEqual([]);
    });

    it('refuses an answer over GENAI_MAX_RESPONSE_BYTES with exit 4, writing nothing', async () => {
      const run = await genbot(['imagine', 'a mural [mb:2]', '--out', 'out'], {
        env: { GENAI_MAX_RESPONSE_BYTES: String(1024 * 1024) },
      });
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(/^genbot: the service failed: too_large: .*over 1 MiB/m);
      expect(await readdir(path.join(workDir, 'out'))).toEqual([]);
      expect(emulator.requests).toHaveLength(1);
    });

    it('retries a transient 503, then exits 4 with status and type when it persists', async () => {
      const recovered = await genbot(['imagine', 'fox [fault:503*2]']);
      expect(recovered.code).toBe(0);
      expect(emulator.requests).toHaveLength(3);
      const failed = await genbot(['imagine', 'owl [fault:503]']);
      expect(failed.code).toBe(4);
      expect(failed.stderr).toMatch(/^genbot: the service failed: 503 UNAVAILABLE: .+\(retrying may help\)$/m);
    });
  });

  describe('edit', () => {
    it('writes the edited image and prints its path', async () => {
      const source = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c03020' } })
        .png()
        .toBuffer();
      await writeFile(path.join(workDir, 'photo.png'), source);
      const run = await genbot(['edit', 'photo.png', 'make it grayscale', '--out', 'edits']);
      expect(run.code).toBe(0);
      const [written] = lines(run.stdout);
      expect(written).toBe(path.join('edits', 'photo-make-it-grayscale-1.png'));
      await expectImage(written ?? '', 'png');
      const sent = emulator.requests[0]?.body as { contents: Array<{ parts: Array<Record<string, unknown>> }> };
      expect(sent.contents[0]?.parts.some((part) => 'inlineData' in part)).toBe(true);
    });

    it('rejects a missing, empty, non-image or oversized file with exit 2 and sends nothing', async () => {
      await writeFile(path.join(workDir, 'notes.txt'), 'just some text, not an image');
      await writeFile(path.join(workDir, 'empty.png'), '');
      await mkdir(path.join(workDir, 'folder.png'));
      // Sparse: the size is what counts, and it is refused before being read.
      await writeFile(path.join(workDir, 'huge.png'), '');
      await truncate(path.join(workDir, 'huge.png'), MAX_INLINE_IMAGE_BYTES + 1);
      for (const file of ['missing.png', 'notes.txt', 'empty.png', 'folder.png', 'huge.png']) {
        const run = await genbot(['edit', file, 'make it blue']);
        expect(run.code, file).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain(file);
      }
      expect(emulator.requests).toEqual([]);
    });

    it('exits 3 when the edit is blocked', async () => {
      const source = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .jpeg()
        .toBuffer();
      await writeFile(path.join(workDir, 'dark.jpg'), source);
      const run = await genbot(['edit', 'dark.jpg', 'brighten [fault:safety]']);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('');
    });
  });

  describe('with GENAI_BASE_URL unset', () => {
    it('starts the emulator in-process, saying so at info (it is the default, not a warning)', async () => {
      const text = await genbot(['text', 'offline please'], { emulated: true, env: { LOG_LEVEL: 'info' } });
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^You said: "offline please"/);
      expect(text.stderr).toMatch(/"level":30,.*offline emulator at http:\/\/127\.0\.0\.1:\d+/);
      const quiet = await genbot(['text', 'offline please'], { emulated: true });
      expect(quiet.stderr).toBe('');
      const image = await genbot(['imagine', 'offline fox [format:webp]'], { emulated: true });
      expect(image.code).toBe(0);
      await expectImage(lines(image.stdout)[0] ?? '', 'webp');
      expect(emulator.requests).toEqual([]);
    });
  });
});
