import { imageFileName } from '@genbot/core/files';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Bounded so a directory we cannot write into fails instead of spinning.
const MAX_NAME_ATTEMPTS = 1000;

/** Creates the directory and its parents; done before anything is sent so a bad --out costs nothing. */
export async function ensureDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
}

/**
 * Writes `bytes` as `{stem}-{n}.{extension}` in `dir` with the first number
 * from `from` on that is free (so a second run goes on counting rather than
 * stacking `-1-2`). The exclusive `wx` flag makes the check and the creation
 * one step, so a file that appears meanwhile (another run, another process)
 * is never overwritten. Returns the file name and the number chosen.
 */
export async function writeNewFile(
  dir: string,
  file: { stem: string; extension: string; bytes: Uint8Array },
  from = 1,
): Promise<{ name: string; number: number }> {
  for (let number = from; number < from + MAX_NAME_ATTEMPTS; number++) {
    const name = imageFileName(file.stem, number, file.extension);
    try {
      await writeFile(path.join(dir, name), file.bytes, { flag: 'wx' });
      return { name, number };
    } catch (err) {
      if (isErrnoCode(err, 'EEXIST')) continue;
      throw err;
    }
  }
  throw new Error(`no free file name for ${file.stem}-N.${file.extension} in ${dir}`);
}

function isErrnoCode(err: unknown, code: string): boolean {
  return err instanceof Error && 'code' in err && err.code === code;
}
