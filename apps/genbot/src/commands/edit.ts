import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { MAX_INLINE_IMAGE_BYTES, readInputImage, type InputImage } from '@genbot/core/genai';
import { UsageError } from '@genbot/core/errors';
import type { Command } from '../args.js';
import type { CommandContext } from './context.js';
import { generateAndSave, prepareOutputDirectory } from './images.js';

type EditCommand = Extract<Command, { kind: 'edit' }>;

/** Edits IMAGE_FILE following the instruction; the file is read and checked before anything is sent. */
export async function runEdit(command: EditCommand, ctx: CommandContext): Promise<void> {
  const image = await loadImage(command.imagePath, ctx.cwd);
  const out = await prepareOutputDirectory(command.outDir, ctx.cwd);
  await generateAndSave(
    {
      model: command.model ?? ctx.service.imageModel,
      prompt: command.instruction,
      aspectRatio: command.aspectRatio,
      image,
      sourceName: command.imagePath,
    },
    out,
    ctx,
  );
}

async function loadImage(imagePath: string, cwd: string): Promise<InputImage> {
  return readInputImage(await readSmallFile(imagePath, cwd)).catch((err: unknown) => {
    // Name the file: the core's message only knows about bytes.
    throw err instanceof UsageError ? new UsageError(`${imagePath}: ${err.message}`) : err;
  });
}

// The size is checked on the open file before reading it, so pointing at a huge file costs nothing.
async function readSmallFile(imagePath: string, cwd: string): Promise<Uint8Array> {
  let file: FileHandle;
  try {
    file = await open(path.resolve(cwd, imagePath));
  } catch (err) {
    throw unreadable(imagePath, err);
  }
  try {
    const { size } = await file.stat();
    if (size > MAX_INLINE_IMAGE_BYTES) {
      const mib = (size / 1024 / 1024).toFixed(1);
      throw new UsageError(`${imagePath}: too large (${mib} MiB); at most ${MAX_INLINE_IMAGE_BYTES / 1024 / 1024} MiB`);
    }
    return await file.readFile();
  } catch (err) {
    throw err instanceof UsageError ? err : unreadable(imagePath, err);
  } finally {
    await file.close();
  }
}

function unreadable(imagePath: string, err: unknown): UsageError {
  const code = err instanceof Error && 'code' in err ? ` (${String(err.code)})` : '';
  return new UsageError(`cannot read ${imagePath}${code}`);
}
