import { UsageError } from '@genbot/core/errors';

/**
 * Reads `.env` from the working directory (the repository root under `pnpm`), when there is one,
 * into the environment. A variable the real environment sets keeps its value, even an empty one.
 */
export function loadEnvFile(path = '.env'): void {
  try {
    process.loadEnvFile(path);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return;
    throw new UsageError(`could not read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
