import { NoOutputError } from '@genbot/core/errors';
import type { MessageParam } from '@genbot/core/genai';
import type { Command } from '../args.js';
import { writeOut } from '../write-out.js';
import type { CommandContext } from './context.js';
import { loadChatFiles } from './chat-files.js';

type ChatCommand = Extract<Command, { kind: 'chat' }>;

/**
 * Streams a messages reply to stdout delta by delta, then ends the line. A
 * reply the model refuses part-way fails after its text (SafetyStopError);
 * one that asks for a tool (none is offered) fails after its text too.
 */
export async function runChat(command: ChatCommand, ctx: CommandContext): Promise<void> {
  // Every file is read and checked before the service is even opened: a bad one sends nothing.
  const files = await loadChatFiles(command.files, ctx.cwd);
  const message: MessageParam =
    files.length === 0
      ? { role: 'user', content: command.prompt }
      : { role: 'user', content: [...files, { type: 'text', text: command.prompt }] };
  const client = await ctx.connect();
  const stream = client.streamMessage(
    {
      model: command.model ?? ctx.service.chatModel,
      messages: [message],
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
  if (!wroteText && final.text !== '') {
    // A content block may open with its text instead of sending it as deltas.
    await writeOut(ctx.stdout, final.text);
    wroteText = true;
  }
  if (wroteText) await writeOut(ctx.stdout, '\n');
  if (final.stopReason === 'tool_use' || final.toolUses.length > 0) {
    const names = [...new Set(final.toolUses.map((use) => use.name))].join(', ');
    throw new NoOutputError(
      `The model asked for a tool${names === '' ? '' : ` (${names})`}, and genbot chat offers none (stop reason ${final.stopReason ?? 'none'}).`,
      { wanted: 'text', stopReason: final.stopReason ?? undefined },
    );
  }
  if (!wroteText) {
    throw new NoOutputError(
      `The service returned no text: the reply was empty (stop reason ${final.stopReason ?? 'none'}).`,
      { wanted: 'text', stopReason: final.stopReason ?? undefined },
    );
  }
  if (final.stopReason === 'max_tokens') {
    ctx.logger.warn(`the reply was cut short at --max-tokens ${command.maxTokens}`);
  }
}
