import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inCi } from '@genbot/test-servers';

/**
 * Payloads recorded from the real services and platforms live beside the
 * repository, in `../shared/real-payloads` from its root: read there at test
 * time, never copied in. Under CI a missing folder fails the run; elsewhere
 * the tests that need it are skipped with one line saying so.
 */
const FOLDER = fileURLToPath(new URL('../../../shared/real-payloads/', import.meta.url));

export interface RealPayloads {
  /** Present: the tests run; absent outside CI: they are skipped. */
  available: boolean;
  /** Every payload file (not its `.src.txt`) whose name starts with `prefix`. */
  names(prefix: string): string[];
  text(name: string): string;
  json(name: string): Record<string, unknown>;
}

export function realPayloads(): RealPayloads {
  const available = existsSync(FOLDER);
  if (!available) {
    if (inCi()) throw new Error(`real payloads missing: ${FOLDER} (CI needs ../shared beside the repository)`);
    console.log(`real payloads not found at ${FOLDER}: their replay tests are skipped`);
  }
  const text = (name: string): string => readFileSync(`${FOLDER}${name}`, 'utf8');
  return {
    available,
    names: (prefix) =>
      available
        ? readdirSync(FOLDER)
            .filter((name) => name.startsWith(prefix) && !name.endsWith('.src.txt'))
            .sort()
        : [],
    text,
    json: (name) => JSON.parse(text(name)) as Record<string, unknown>,
  };
}

/** A payload with IDs (or hosts) swapped for this run's, everywhere they occur. */
export function withIds<T>(payload: T, swaps: Record<string, string>): T {
  let json = JSON.stringify(payload);
  for (const [from, to] of Object.entries(swaps)) json = json.split(from).join(to);
  return JSON.parse(json) as T;
}
