import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const MAX_SLUG_LENGTH = 48;
// Bounded so a directory we cannot write into fails instead of spinning.
const MAX_NAME_ATTEMPTS = 1000;

/** A file-name stem from free text: lowercase ASCII words joined by dashes, `image` when nothing is left. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'image' : slug;
}

/** Creates the directory and its parents; done before anything is sent so a bad --out costs nothing. */
export async function ensureDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
}

/**
 * Writes `bytes` as `{stem}.{extension}` in `dir`, or `{stem}-2.{extension}`, `-3`... when the name is
 * taken. The exclusive `wx` flag makes the check and the creation one step, so a file that appears
 * meanwhile (another run, another process) is never overwritten. Returns the file name chosen.
 */
export async function writeNewFile(dir: string, stem: string, extension: string, bytes: Uint8Array): Promise<string> {
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const name = attempt === 1 ? `${stem}.${extension}` : `${stem}-${attempt}.${extension}`;
    try {
      await writeFile(path.join(dir, name), bytes, { flag: 'wx' });
      return name;
    } catch (err) {
      if (isErrnoCode(err, 'EEXIST')) continue;
      throw err;
    }
  }
  throw new Error(`no free file name for ${stem}.${extension} in ${dir}`);
}

function isErrnoCode(err: unknown, code: string): boolean {
  return err instanceof Error && 'code' in err && err.code === code;
}
