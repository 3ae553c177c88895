import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { describeInstallationContract } from './installation-store-contract.js';

let directory: string;
let databases = 0;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'genbot-installations-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describeInstallationContract('SQLite', () => ({
  freshUrl: async () => `sqlite:${join(directory, `store-${++databases}.db`)}`,
}));
