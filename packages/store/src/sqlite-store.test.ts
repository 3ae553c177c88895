import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { describeStoreContract } from './testing/store-contract.js';

let directory: string;
let databases = 0;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'genbot-store-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describeStoreContract('SQLite', () => ({
  freshUrl: async () => `sqlite:${join(directory, `store-${++databases}.db`)}`,
}));
