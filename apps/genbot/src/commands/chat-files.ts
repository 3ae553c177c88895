import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { copy } from '@genbot/core/copy';
import { UsageError } from '@genbot/core/errors';
import { MODEL_CONTENT_LIMITS, modelContent, type ModelContentBlock, type ModelFile } from '@genbot/core/files';

/**
 * The `--file`s of `genbot chat` as content blocks, prepared as a bot prepares
 * a conversation's files. Where a bot leaves a file out with a note, the CLI
 * refuses (exit 2) before anything is sent: the user named that file.
 */
export async function loadChatFiles(paths: readonly string[], cwd: string): Promise<ModelContentBlock[]> {
  if (paths.length === 0) return [];
  const files: ModelFile[] = [];
  for (const file of paths) files.push({ name: file, bytes: await readFileCapped(file, cwd) });
  const content = await modelContent(files);
  const [leftOut] = content.leftOut;
  if (leftOut !== undefined) throw new UsageError(`--file ${leftOut.name}: ${copy.modelFileProblem(leftOut)}`);
  return content.blocks;
}

// The size is checked on the open file before reading it, so pointing at a huge file costs nothing.
async function readFileCapped(file: string, cwd: string): Promise<Uint8Array> {
  let handle: FileHandle;
  try {
    handle = await open(path.resolve(cwd, file));
  } catch (err) {
    throw unreadable(file, err);
  }
  try {
    const { size } = await handle.stat();
    const limit = MODEL_CONTENT_LIMITS.maxRequestBytes;
    if (size > limit) {
      throw new UsageError(
        `--file ${file}: too large (${(size / 1024 / 1024).toFixed(1)} MiB); a request carries at most ${limit / 1024 / 1024} MiB`,
      );
    }
    return await handle.readFile();
  } catch (err) {
    throw err instanceof UsageError ? err : unreadable(file, err);
  } finally {
    await handle.close();
  }
}

function unreadable(file: string, err: unknown): UsageError {
  const code = err instanceof Error && 'code' in err ? ` (${String(err.code)})` : '';
  return new UsageError(`cannot read ${file}${code}`);
}
