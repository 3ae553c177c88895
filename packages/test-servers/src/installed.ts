import { inCi } from './ci.js';

/**
 * Whether tests that need a locally installed server run. Outside CI a missing
 * server skips them with one line saying how to get it; under `CI` it is an
 * error, so a CI machine that lost the package fails instead of passing less.
 */
export function installedOrSkipped(server: { name: string; found: boolean; install: string }): boolean {
  if (server.found) return true;
  if (inCi()) {
    throw new Error(`${server.name} is not installed (${server.install}): under CI its tests must run`);
  }
  process.stderr.write(`${server.name} is not installed: its tests are skipped (${server.install})\n`);
  return false;
}
