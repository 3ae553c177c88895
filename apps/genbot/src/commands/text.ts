import { SafetyStopError } from '@genbot/core/errors';
import type { Command } from '../args.js';
import { writeOut } from '../write-out.js';
import type { CommandContext } from './context.js';

type TextCommand = Extract<Command, { kind: 'text' }>;

/** Prints a generate-content text reply followed by a newline; a reply stopped for safety is printed, then thrown. */
export async function runText(command: TextCommand, ctx: CommandContext): Promise<void> {
  const client = await ctx.connect();
  const text = await client
    .generateText(command.model ?? ctx.service.textModel, command.prompt, { signal: ctx.signal })
    .catch(async (err: unknown) => {
      if (err instanceof SafetyStopError) await writeOut(ctx.stdout, `${err.text}\n`);
      throw err;
    });
  await writeOut(ctx.stdout, `${text}\n`);
}
