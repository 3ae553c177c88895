import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type HealthServer, PromMetrics, startHealthServer } from '@genbot/health';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REPO_ROOT } from '../launcher/genbot-process.js';
import {
  BALANCED,
  BIN,
  CONTAINER_HEALTH_PORT,
  CONTAINER_SLACK_PORT,
  STOP_LIMIT_MS,
  environmentNames,
  GENBOT_ENTRY,
  INFRASTRUCTURE,
  PROCESSES,
  READINESS_PROBE,
  REDIS_COMMAND,
  REDIS_DATA,
} from '@genbot/test-servers/genbot';

/**
 * Docker is not on this machine: what compose.yaml and the Dockerfile would run is checked
 * against the topology the scale-out tests start as plain processes.
 */

const stringList = z.array(z.string());
const serviceSchema = z.object({
  image: z.string().optional(),
  build: z.string().optional(),
  entrypoint: z.unknown().optional(),
  command: stringList.optional(),
  environment: z.record(z.string(), z.string()).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  healthcheck: z.object({ test: stringList, timeout: z.string() }).optional(),
  stop_grace_period: z.string().optional(),
  volumes: stringList.optional(),
});
const composeSchema = z.object({
  services: z.record(z.string(), serviceSchema),
  volumes: z.record(z.string(), z.unknown()).optional(),
});

// Merge keys (`<<: *genbot`) are YAML 1.1, which Compose reads.
const compose = composeSchema.parse(parse(readFileSync(join(REPO_ROOT, 'compose.yaml'), 'utf8'), { merge: true }));
const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');

function service(name: string): z.infer<typeof serviceSchema> {
  const found = compose.services[name];
  if (found === undefined) throw new Error(`compose.yaml has no service ${name}`);
  return found;
}

/** `40s`, `1m30s`, `500ms` in milliseconds. */
function durationMs(text: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g))
    total += Number(amount) * (units[unit ?? 's'] ?? 0);
  return total;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(): { keyword: string; rest: string }[] {
  return dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), rest: rest.join(' ') };
    });
}

/** Every variable CONTRACT.md's environment table names. */
function contractVariables(): Set<string> {
  const contract = readFileSync(join(REPO_ROOT, '..', 'shared', 'CONTRACT.md'), 'utf8');
  return new Set([...contract.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1] ?? ''));
}

describe('compose.yaml', () => {
  it('runs the topology: its engines and exactly its processes', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [...Object.values(INFRASTRUCTURE), ...PROCESSES.map((process) => process.name)].sort(),
    );
  });

  it.each(PROCESSES.map((process) => [process.name, process] as const))(
    '%s runs the image entry with its command and exactly its environment names',
    (name, process) => {
      const it = service(name);
      expect(it.build).toBe('.');
      // No entrypoint of its own: the Dockerfile's, which the tests run too.
      expect(it.entrypoint).toBeUndefined();
      expect(it.command).toEqual(process.args);
      expect(Object.keys(it.environment ?? {}).sort()).toEqual(environmentNames(process));
      expect(it.environment).toMatchObject(process.fixed);
      expect(it.environment?.HEALTH_PORT).toBe(String(CONTAINER_HEALTH_PORT));
      if (process.role === 'slack') expect(it.environment?.SLACK_PORT).toBe(String(CONTAINER_SLACK_PORT));
      expect(it.depends_on).toEqual({
        [INFRASTRUCTURE.redis]: { condition: 'service_healthy' },
        [INFRASTRUCTURE.postgres]: { condition: 'service_healthy' },
      });
    },
  );

  it('checks every genbot process on /readyz, within a timeout longer than a readiness check', () => {
    for (const process of PROCESSES) {
      const check = service(process.name).healthcheck;
      expect(check?.test, process.name).toEqual(['CMD', ...READINESS_PROBE]);
      // The health server gives each check 2 s; the probe must outlast it to see the reason.
      expect(durationMs(check?.timeout ?? '0s')).toBeGreaterThan(2000);
    }
  });

  it('gives every genbot process a stop grace period longer than the drain', () => {
    for (const process of PROCESSES) {
      expect(durationMs(service(process.name).stop_grace_period ?? '10s'), process.name).toBeGreaterThan(STOP_LIMIT_MS);
    }
  });

  it('names only variables of the contract', () => {
    const known = contractVariables();
    expect(known.has('HEALTH_PORT')).toBe(true);
    const unknown = PROCESSES.flatMap((process) =>
      Object.keys(service(process.name).environment ?? {}).filter((name) => !known.has(name)),
    );
    expect(unknown).toEqual([]);
  });

  it('runs Redis with its append-only file on a named volume, as the scale tests do, so queued jobs survive its restart', () => {
    const redis = service(INFRASTRUCTURE.redis);
    expect(redis.command).toEqual(REDIS_COMMAND);
    const mounts = (redis.volumes ?? []).map((volume) => volume.split(':'));
    const data = mounts.find(([, target]) => target === REDIS_DATA);
    expect(data, `a volume at ${REDIS_DATA}`).toBeDefined();
    // A named volume, declared at the top level: a bind mount or none would not outlive the container the same way.
    expect(Object.keys(compose.volumes ?? {})).toContain(data?.[0]);
  });

  it('puts nginx, with deploy/nginx.conf, in front of the Slack replicas once they are ready', () => {
    const nginx = service(INFRASTRUCTURE.balancer);
    expect(nginx.volumes).toContain('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro');
    expect(nginx.depends_on).toEqual(
      Object.fromEntries(BALANCED.map((process) => [process.name, { condition: 'service_healthy' }])),
    );
    const config = readFileSync(join(REPO_ROOT, 'deploy', 'nginx.conf'), 'utf8');
    const upstreams = [...config.matchAll(/^\s*server (\S+);/gm)].map((match) => match[1]);
    expect(upstreams).toEqual(BALANCED.map((process) => `${process.name}:${CONTAINER_SLACK_PORT}`));
  });
});

describe('the Dockerfile', () => {
  it('enters through the command the tests run, with node itself so signals arrive', () => {
    const entry = instructions().filter((instruction) => instruction.keyword === 'ENTRYPOINT');
    expect(entry).toHaveLength(1);
    expect(JSON.parse(entry[0]?.rest ?? 'null')).toEqual(GENBOT_ENTRY);
    expect(existsSync(join(REPO_ROOT, GENBOT_ENTRY[1]))).toBe(true);
    // The tests start genbot with node and this file, from the repository root: the same command.
    expect(join(REPO_ROOT, GENBOT_ENTRY[1])).toBe(BIN);
  });

  it('builds in stages on Node 24 and runs as a user other than root', () => {
    const all = instructions();
    const stages = all.filter((instruction) => instruction.keyword === 'FROM').map((instruction) => instruction.rest);
    expect(stages).toEqual(['node:24-bookworm-slim AS build', 'node:24-bookworm-slim AS runtime']);
    const lastFrom = all.findLastIndex((instruction) => instruction.keyword === 'FROM');
    const users = all.slice(lastFrom).filter((instruction) => instruction.keyword === 'USER');
    expect(users.map((instruction) => instruction.rest)).toEqual(['node']);
  });

  it('installs production dependencies from the lockfile as it is', () => {
    const runs = instructions()
      .filter((instruction) => instruction.keyword === 'RUN')
      .map((instruction) => instruction.rest);
    expect(runs).toContain('pnpm install --frozen-lockfile --prod --offline');
  });
});

describe('the readiness probe', () => {
  let health: HealthServer | undefined;
  afterEach(async () => {
    await health?.close();
    health = undefined;
  });

  const probe = promisify(execFile);
  async function runProbe(port: number): Promise<{ code: number; stderr: string }> {
    const [command, ...args] = READINESS_PROBE;
    try {
      await probe(command === 'node' ? process.execPath : command, args, {
        cwd: REPO_ROOT,
        env: { ...process.env, HEALTH_PORT: String(port) },
      });
      return { code: 0, stderr: '' };
    } catch (error) {
      const failed = z.object({ code: z.number(), stderr: z.string() }).parse(error);
      return { code: failed.code, stderr: failed.stderr };
    }
  }

  it('passes while /readyz answers 200 and fails with the reason once the process drains', async () => {
    health = await startHealthServer({ port: 0, host: '127.0.0.1', registry: new PromMetrics().registry });
    expect(await runProbe(health.port)).toEqual({ code: 0, stderr: '' });
    health.beginDrain();
    expect(await runProbe(health.port)).toEqual({
      code: 1,
      stderr: 'not ready: draining: the process is shutting down\n',
    });
  });

  it('fails when nothing serves HEALTH_PORT', async () => {
    const stopped = await startHealthServer({ port: 0, host: '127.0.0.1', registry: new PromMetrics().registry });
    await stopped.close();
    const result = await runProbe(stopped.port);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^not ready: /);
  });
});
