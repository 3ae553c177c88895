import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realPayloadsForTests } from './real-payloads-for-tests.js';

describe('realPayloadsForTests without ../shared/real-payloads', () => {
  let base: string;
  let root: string;

  beforeEach(async () => {
    // The repository one level down in a fresh folder, so no shared/ beside it, wherever the temp folder is.
    base = await mkdtemp(path.join(tmpdir(), 'no-shared-'));
    root = path.join(base, 'repo');
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('skips with one line saying where the folder should be, outside CI', () => {
    const lines: string[] = [];
    expect(realPayloadsForTests({ root, env: { CI: 'false' }, say: (line) => lines.push(line) })).toBeUndefined();
    expect(lines).toEqual([expect.stringMatching(/^Real payload replay skipped: .*shared.real-payloads is missing/)]);
  });

  it('fails under CI, where the replay tests must run', () => {
    expect(() => realPayloadsForTests({ root, env: { CI: 'true' }, say: () => undefined })).toThrow(
      /is missing: CI must have the shared folder beside the repository/,
    );
  });
});
