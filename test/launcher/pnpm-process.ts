import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanEnv, follow, type GenbotProcess } from '@genbot/test-servers/genbot';
import { REPO_ROOT } from './genbot-process.js';

/** Every variable `.env.example` documents. */
export function documentedVariables(): string[] {
  const example = readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8');
  return [...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]+)=/gm)].flatMap((match) => match[1] ?? []);
}

/**
 * `pnpm` runs scripts in the repository root, where a developer's own `.env` may be: every
 * documented variable is set, empty unless the test gives it, and an empty value counts as unset
 * while it wins over the file.
 */
export function neutralEnv(env: Record<string, string>): Record<string, string | undefined> {
  const blank = Object.fromEntries(documentedVariables().map((name) => [name, '']));
  return { ...cleanEnv(), ...blank, LOG_LEVEL: 'warn', npm_config_update_notifier: 'false', ...env };
}

export interface PnpmProcess extends GenbotProcess {
  /** The process group pnpm leads: itself and everything it started. */
  readonly group: number;
}

/**
 * Runs `pnpm ARGS` in the repository root as a process manager would: pnpm is the process it
 * started (its pid is the one signalled) and leads its own process group, so anything left
 * behind after pnpm exits can be found.
 */
export function spawnPnpm(
  args: readonly string[],
  env: Record<string, string> = {},
  options: { cwd?: string } = {},
): PnpmProcess {
  const child = spawn('pnpm', [...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: neutralEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('pnpm did not start');
  return { ...follow(child), group: pid };
}

/** Whether any process is left in the group. */
export function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kills whatever is left in the group; for clean-up after a test, whatever it proved. */
export function killGroup(group: number): void {
  if (groupAlive(group)) process.kill(-group, 'SIGKILL');
}
