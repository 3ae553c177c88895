import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Core's shape, checked from its import statements: folders depend on each other one way, and core
 * stays free of chat platforms, SQL and Redis (adapters implement core's ports in their own packages).
 */

const CORE = resolve(import.meta.dirname, '..');

/** Packages whose presence in core would tie it to one platform, one store or one exporter. */
const FORBIDDEN = [
  /^@slack\//,
  /^discord\.js$/,
  /^@discordjs\//,
  /^(pg|pg-.+|postgres|mysql2?|sqlite3?|better-sqlite3|kysely|knex|drizzle-orm|typeorm|sequelize|@prisma\/.+)$/,
  /^(redis|ioredis|bullmq|@redis\/.+)$/,
  // Metrics go through core's Metrics port; the exporter lives in @genbot/health.
  /^prom-client$/,
];

interface Import {
  file: string;
  line: number;
  specifier: string;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function importsOf(file: string, source: string): Import[] {
  const found: Import[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const line = source.slice(0, match.index).split('\n').length;
    found.push({ file, line, specifier: match[1] ?? '' });
  }
  return found;
}

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(packageOf(specifier));
}

/**
 * The top-level folder of a path relative to src; a file directly in src is a node of its own (the root
 * error classes are imported by every folder, and the catalogue of errors imports every folder).
 */
function folderOf(path: string): string {
  const parts = path.split('/');
  return parts.length === 1 ? path : (parts[0] ?? path);
}

/** Every cycle between top-level folders, each as the chain of imports that closes it. */
function folderCycles(files: Record<string, string>): string[] {
  const edges = new Map<string, Map<string, Import>>();
  for (const [file, source] of Object.entries(files)) {
    for (const found of importsOf(file, source)) {
      if (!found.specifier.startsWith('.')) continue;
      const target = join(dirname(file), found.specifier).split(sep).join('/');
      const from = folderOf(file);
      const to = folderOf(target);
      if (from === to || target.startsWith('..')) continue;
      const out = edges.get(from) ?? new Map<string, Import>();
      if (!out.has(to)) out.set(to, found);
      edges.set(from, out);
    }
  }
  const cycles = new Set<string>();
  const visit = (folder: string, path: string[]): void => {
    for (const [next, via] of edges.get(folder) ?? []) {
      const start = path.indexOf(next);
      if (start >= 0) {
        const loop = [...path.slice(start), next];
        // One report per cycle, whichever folder the walk entered it by.
        const key = [...loop.slice(0, -1)].sort().join(',');
        if (![...cycles].some((c) => c.startsWith(`${key}:`))) {
          cycles.add(`${key}: ${loop.join(' -> ')} (closed by ${via.file}:${via.line} '${via.specifier}')`);
        }
        continue;
      }
      visit(next, [...path, next]);
    }
  };
  for (const folder of edges.keys()) visit(folder, [folder]);
  return [...cycles].map((c) => c.slice(c.indexOf(': ') + 2));
}

/** Imports of packages core must never know. */
function forbiddenImports(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, source]) =>
    importsOf(file, source)
      .filter((found) => FORBIDDEN.some((pattern) => pattern.test(packageOf(found.specifier))))
      .map((found) => `${found.file}:${found.line} imports '${found.specifier}'`),
  );
}

/**
 * Product code (not tests) imports only node's modules, files of src and core's dependencies: never a
 * dev-only package such as the emulator, nor test support from outside src.
 */
function undeclaredImports(files: Record<string, string>, dependencies: readonly string[]): string[] {
  const allowed = (found: Import): boolean => {
    if (found.specifier.startsWith('.')) return !join(dirname(found.file), found.specifier).startsWith('..');
    return isBuiltin(found.specifier) || dependencies.includes(packageOf(found.specifier));
  };
  return Object.entries(files)
    .filter(([file]) => !file.endsWith('.test.ts'))
    .flatMap(([file, source]) =>
      importsOf(file, source)
        .filter((found) => !allowed(found))
        .map((found) => `${found.file}:${found.line} imports '${found.specifier}', which product code may not`),
    );
}

/** The TypeScript files under `root` by their path relative to it; this file's examples are no imports. */
function readTree(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !entry.name.endsWith('.ts') || path === import.meta.filename) continue;
    files[relative(root, path).split(sep).join('/')] = readFileSync(path, 'utf8');
  }
  return files;
}

describe("core's import statements", () => {
  const src = readTree(join(CORE, 'src'));
  const manifest = JSON.parse(readFileSync(join(CORE, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };

  it('form no cycle between top-level folders', () => {
    expect(Object.keys(src).length).toBeGreaterThan(50);
    expect(folderCycles(src)).toEqual([]);
  });

  it('name no chat platform, SQL or Redis package, in code or tests', () => {
    const testing = Object.entries(readTree(join(CORE, 'testing'))).map(([file, source]) => [
      `../testing/${file}`,
      source,
    ]);
    expect(forbiddenImports({ ...src, ...Object.fromEntries(testing) })).toEqual([]);
  });

  it('in product code, name only node modules and declared dependencies', () => {
    expect(undeclaredImports(src, Object.keys(manifest.dependencies ?? {}))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('see a cycle between folders, with the import that closes it', () => {
    const files = {
      'chat/imagine.ts': "import { lane } from '../jobs/lane.js';",
      'jobs/lane.ts': "import type { ChatDeps } from '../chat/deps.js';\nexport const lane = 1;",
      'chat/deps.ts': "import { x } from './other.js';",
    };
    expect(folderCycles(files)).toEqual(["chat -> jobs -> chat (closed by jobs/lane.ts:1 '../chat/deps.js')"]);
    expect(folderCycles({ ...files, 'jobs/lane.ts': 'export const lane = 1;' })).toEqual([]);
  });

  it('see a longer cycle once, and dynamic and re-exporting imports', () => {
    const files = {
      'a/x.ts': "export * from '../b/y.js';",
      'b/y.ts': "const z = await import('../c/z.js');",
      'c/z.ts': "export { x } from '../a/x.js';",
    };
    expect(folderCycles(files)).toHaveLength(1);
    expect(folderCycles(files)[0]).toMatch(/^a -> b -> c -> a /);
  });

  it('see platform, SQL and Redis packages', () => {
    const files = {
      'chat/a.ts': "import { App } from '@slack/bolt';\nimport type { Client } from 'discord.js';",
      'chat/b.test.ts': "import Database from 'better-sqlite3';\nimport { Redis } from 'ioredis';",
      'chat/c.ts': "import { Kysely } from 'kysely';\nimport { z } from 'zod';\nimport { x } from 'node:fs';",
    };
    expect(forbiddenImports(files)).toEqual([
      "chat/a.ts:1 imports '@slack/bolt'",
      "chat/a.ts:2 imports 'discord.js'",
      "chat/b.test.ts:1 imports 'better-sqlite3'",
      "chat/b.test.ts:2 imports 'ioredis'",
      "chat/c.ts:1 imports 'kysely'",
    ]);
  });

  it('see a dev-only package or test support in product code, not in tests', () => {
    const files = {
      'genai/a.ts': "import { startEmulator } from '@genbot/emulator';\nimport { z } from 'zod/mini';",
      'genai/a.test.ts': "import { startEmulator } from '@genbot/emulator';",
      'genai/b.ts': "import { readFile } from 'fs/promises';\nimport { tinyPng } from '../../testing/fixtures.js';",
      'genai/b.test.ts': "import { tinyPng } from '../../testing/fixtures.js';",
    };
    expect(undeclaredImports(files, ['zod'])).toEqual([
      "genai/a.ts:1 imports '@genbot/emulator', which product code may not",
      "genai/b.ts:2 imports '../../testing/fixtures.js', which product code may not",
    ]);
  });
});
