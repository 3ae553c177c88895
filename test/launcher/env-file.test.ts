import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawnGenbot } from '@genbot/test-servers/genbot';
import { REPO_ROOT } from './genbot-process.js';

const API_KEY = 'dotenv-key-not-printed-3c9d';
let emulator: Emulator;
let dir: string;

beforeAll(async () => {
  emulator = await startEmulator({ apiKey: API_KEY });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'genbot-dotenv-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function modelsAsked(since: number): string[] {
  return emulator.requests
    .slice(since)
    .map((request) => /\/models\/([^:]+):generateContent$/.exec(request.path)?.[1])
    .filter((model): model is string => model !== undefined);
}

describe('.env in the folder genbot starts in', () => {
  it('is read by the command-line client, and a variable of the real environment wins over it', async () => {
    await writeFile(
      path.join(dir, '.env'),
      `# The service, from the file\nGENAI_BASE_URL=${emulator.url}\nGENAI_API_KEY="${API_KEY}"\nTEXT_MODEL=model-from-file\n`,
    );
    const since = emulator.requests.length;
    const fromFile = spawnGenbot(['text', 'hello'], {}, { cwd: dir });
    expect((await fromFile.exited).code).toBe(0);
    expect(fromFile.stdout()).not.toBe('');
    const overridden = spawnGenbot(['text', 'hello'], { TEXT_MODEL: 'model-from-env' }, { cwd: dir });
    expect((await overridden.exited).code).toBe(0);
    expect(modelsAsked(since)).toEqual(['model-from-file', 'model-from-env']);
    expect(fromFile.stderr() + overridden.stderr()).not.toContain(API_KEY);
  });

  it('is read by the launcher: a Slack token in .env alone makes `genbot start` ask for the signing secret', async () => {
    const token = 'xoxb-from-dotenv-not-printed';
    await writeFile(path.join(dir, '.env'), `SLACK_BOT_TOKEN=${token}\n`);
    const genbot = spawnGenbot(['start'], {}, { cwd: dir });
    expect((await genbot.exited).code).toBe(2);
    expect(genbot.stderr().trim().split('\n')).toEqual([
      expect.stringMatching(/^genbot: SLACK_SIGNING_SECRET is required/),
    ]);
    expect(genbot.stderr()).not.toContain(token);
  });
});

/**
 * Variables of the contract's environment table that no code reads yet, each with the issue that
 * builds it. `.env.example` lists a variable only once it works; each issue removes its own here as
 * it lands.
 */
const NOT_YET_BUILT: Readonly<Record<string, string>> = {};

/** Every variable the contract's environment table names; a row may name several (`CHAT_MODELS`, `IMAGE_MODELS`). */
async function contractVariables(): Promise<string[]> {
  const contract = await readFile(path.join(REPO_ROOT, '../shared/CONTRACT.md'), 'utf8');
  const start = contract.indexOf('## Environment');
  const table = contract.slice(start, contract.indexOf('\n## ', start + 1));
  return [...table.matchAll(/^\| (`[^|]+) \|/gm)].flatMap((row) =>
    [...(row[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].flatMap((name) => name[1] ?? []),
  );
}

async function exampleLines(): Promise<string[]> {
  return (await readFile(path.join(REPO_ROOT, '.env.example'), 'utf8')).split('\n');
}

describe('.env.example', () => {
  it("lists every variable of the contract's environment table that is built, each under a comment line", async () => {
    const variables = await contractVariables();
    expect(variables.length).toBeGreaterThan(20);
    const example = await exampleLines();
    for (const name of variables.filter((variable) => !(variable in NOT_YET_BUILT))) {
      const at = example.findIndex((line) => new RegExp(`^(# )?${name}=`).test(line));
      expect(at, `${name} in .env.example`).toBeGreaterThan(0);
      const above = example[at - 1] ?? '';
      expect(above, `the comment above ${name}`).toMatch(/^# \S/);
      expect(above, `the comment above ${name}`).not.toMatch(/^# [A-Z][A-Z0-9_]+=/);
    }
  });

  it('names no variable before it is built, and the list of those not yet built names only contract variables', async () => {
    const variables = await contractVariables();
    const example = await exampleLines();
    for (const [name, issue] of Object.entries(NOT_YET_BUILT)) {
      expect(variables, `${name} (${issue}) in the contract's environment table`).toContain(name);
      const mention = example.find((line) => new RegExp(`\\b${name}\\b`).test(line));
      expect(mention, `${name} in .env.example before ${issue} builds it`).toBeUndefined();
    }
  });
});
