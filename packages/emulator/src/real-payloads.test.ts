import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repositoryRoot, serviceRealPayloads } from './real-payloads.js';
import { startReplay } from './replay.js';

describe('serviceRealPayloads', () => {
  let base: string;
  let repo: string;

  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'real-payloads-'));
    repo = path.join(base, 'repo');
    await mkdir(path.join(repo, 'packages', 'x'), { recursive: true });
    await writeFile(path.join(repo, 'pnpm-workspace.yaml'), 'packages: []\n');
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('finds the repository root from anywhere inside it', () => {
    expect(repositoryRoot(path.join(repo, 'packages', 'x'))).toBe(repo);
  });

  it('says so when ../shared/real-payloads is not there', () => {
    expect(serviceRealPayloads(repo)).toEqual({
      found: false,
      dir: path.join(base, 'shared', 'real-payloads'),
    });
  });

  it("serves each of the services' payloads as it was answered, and leaves the rest out", async () => {
    const dir = path.join(base, 'shared', 'real-payloads');
    await mkdir(dir, { recursive: true });
    const files: Record<string, string> = {
      'anthropic-basic.sse': 'event: message_stop\ndata: {"type":"message_stop"}\n\n',
      'anthropic-basic.sse.src.txt': 'where it came from',
      'anthropic-http-404.json': '{"type":"error"}',
      'anthropic-error-event.json': '{"type": "error", "error": {"type": "overloaded_error"}}',
      'gemini-400-api-key.json': '{"error":{}}',
      'gemini-text.json': '{"candidates":[]}',
      'slack-app-mention.json': '{}',
    };
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);

    const found = serviceRealPayloads(repo);
    if (!found.found) throw new Error('not found');
    const served = Object.fromEntries(
      found.payloads.map((p) => [
        p.name,
        [p.operation, p.answer.status, p.answer.contentType.split(';')[0], p.answer.body.toString()],
      ]),
    );
    expect(served).toEqual({
      'anthropic-basic.sse': ['messages', 200, 'text/event-stream', files['anthropic-basic.sse']],
      'anthropic-error-event.json': [
        'messages',
        200,
        'text/event-stream',
        `event: error\ndata: ${files['anthropic-error-event.json']}\n\n`,
      ],
      'anthropic-http-404.json': ['messages', 404, 'application/json', files['anthropic-http-404.json']],
      'gemini-400-api-key.json': ['generate-content', 400, 'application/json', files['gemini-400-api-key.json']],
      'gemini-text.json': ['generate-content', 200, 'application/json', files['gemini-text.json']],
    });

    const payload = found.payloads.find((p) => p.name === 'anthropic-http-404.json');
    if (payload === undefined) throw new Error('missing');
    const replay = await startReplay(payload.answer);
    try {
      const response = await fetch(`${replay.url}/v1/messages`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.text()).toBe(files['anthropic-http-404.json']);
      expect(replay.paths).toEqual(['/v1/messages']);
    } finally {
      await replay.close();
    }
  });
});
