import type { Command } from '../args.js';
import type { CommandContext } from './context.js';
import { generateAndSave, prepareOutputDirectory } from './images.js';

type ImagineCommand = Extract<Command, { kind: 'imagine' }>;

/** Generates images from a prompt into --out. */
export async function runImagine(command: ImagineCommand, ctx: CommandContext): Promise<void> {
  const out = await prepareOutputDirectory(command.outDir, ctx.cwd);
  await generateAndSave(
    {
      model: command.model ?? ctx.service.imageModel,
      prompt: command.prompt,
      aspectRatio: command.aspectRatio,
    },
    out,
    ctx,
  );
}
