import path from 'node:path';
import { imageFileStem } from '@genbot/core/files';
import { UsageError } from '@genbot/core/errors';
import type { AspectRatio, InputImage } from '@genbot/core/genai';
import { ensureDirectory, writeNewFile } from '../output-files.js';
import { startProgress } from '../progress.js';
import { writeOut } from '../write-out.js';
import type { CommandContext } from './context.js';

/** Where images go: the real directory, and how to show paths in it to the user. */
export interface OutputDirectory {
  absolute: string;
  /** Relative --out stays relative in what we print, so the paths work from the user's own directory. */
  shown: string;
}

/** Resolves --out against the user's directory and creates it, before anything is sent. */
export async function prepareOutputDirectory(outDir: string, cwd: string): Promise<OutputDirectory> {
  const absolute = path.resolve(cwd, outDir);
  try {
    await ensureDirectory(absolute);
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? ` (${String(err.code)})` : '';
    throw new UsageError(`cannot create the output directory ${outDir}${code}`);
  }
  return { absolute, shown: path.isAbsolute(outDir) ? absolute : outDir };
}

export interface ImageJob {
  model: string;
  prompt: string;
  aspectRatio: AspectRatio | undefined;
  image?: InputImage;
  /** The edited file's name, which edits are named after first. */
  sourceName?: string;
}

/** Generates, then writes every image under a fresh name and prints its path as soon as it exists. */
export async function generateAndSave(job: ImageJob, out: OutputDirectory, ctx: CommandContext): Promise<void> {
  const client = await ctx.connect();
  const progress = startProgress(ctx.stderr, 'Generating');
  const images = await client
    .generateImages(
      job.model,
      { prompt: job.prompt, aspectRatio: job.aspectRatio, ...(job.image === undefined ? {} : { image: job.image }) },
      { signal: ctx.signal },
    )
    .finally(() => progress.stop());

  // Named as the bots name the same images.
  const stem = imageFileStem({ prompt: job.prompt, sourceName: job.sourceName });
  let next = 1;
  for (const image of images) {
    const written = await writeNewFile(out.absolute, { stem, extension: image.extension, bytes: image.bytes }, next);
    next = written.number + 1;
    await writeOut(ctx.stdout, `${path.join(out.shown, written.name)}\n`);
  }
}
