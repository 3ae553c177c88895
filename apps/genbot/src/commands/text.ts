import type { Command } from '../args.js';
import { writeOut } from '../write-out.js';
import type { CommandContext } from './context.js';

type TextCommand = Extract<Command, { kind: 'text' }>;

/** Prints a generate-content text reply followed by a newline. */
export async function runText(command: TextCommand, ctx: CommandContext): Promise<void> {
  const client = await ctx.connect();
  const text = await client.generateText(command.model ?? ctx.service.textModel, command.prompt, {
    signal: ctx.signal,
  });
  await writeOut(ctx.stdout, `${text}\n`);
}
