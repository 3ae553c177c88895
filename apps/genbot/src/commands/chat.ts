import { NoOutputError } from '@genbot/core/errors';
import type { Command } from '../args.js';
import { writeOut } from '../write-out.js';
import type { CommandContext } from './context.js';

type ChatCommand = Extract<Command, { kind: 'chat' }>;

/**
 * Streams a messages reply to stdout delta by delta, then ends the line. A
 * reply the model refuses part-way fails after its text (SafetyStopError).
 */
export async function runChat(command: ChatCommand, ctx: CommandContext): Promise<void> {
  const client = await ctx.connect();
  const stream = client.streamMessage(
    {
      model: command.model ?? ctx.service.chatModel,
      messages: [{ role: 'user', content: command.prompt }],
      max_tokens: command.maxTokens,
      ...(command.system === undefined ? {} : { system: command.system }),
    },
    { signal: ctx.signal },
  );

  let wroteText = false;
  try {
    for await (const delta of stream.textDeltas()) {
      await writeOut(ctx.stdout, delta);
      wroteText = true;
    }
  } catch (err) {
    // End the partial reply's line so the error on stderr does not run on from it in a terminal.
    if (wroteText) await writeOut(ctx.stdout, '\n');
    throw err;
  }
  const final = await stream.finalMessage();
  if (!wroteText) {
    // A content block may open with its text instead of sending it as deltas.
    if (final.text === '') {
      throw new NoOutputError(
        `The service returned no text: the reply was empty (stop reason ${final.stopReason ?? 'none'}).`,
        { wanted: 'text', stopReason: final.stopReason ?? undefined },
      );
    }
    await writeOut(ctx.stdout, final.text);
  }
  await writeOut(ctx.stdout, '\n');
  if (final.stopReason === 'max_tokens') {
    ctx.logger.warn(`the reply was cut short at --max-tokens ${command.maxTokens}`);
  }
}
