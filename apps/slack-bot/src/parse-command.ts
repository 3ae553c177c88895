import { z } from 'zod';
import { describeIssue, type Parsed } from './parse-app-mention.js';

const slashCommand = z.looseObject({
  command: z.string(),
  text: z.string().default(''),
  channel_id: z.string().min(1),
  user_id: z.string().min(1),
});

export interface ImagineCommand {
  channelId: string;
  userId: string;
  prompt: string;
  /** As typed after `--ar`; validated by the use case. */
  aspectRatio: string | undefined;
  /** `--ar` came without a value. */
  missingAspectRatio: boolean;
}

const ASPECT_FLAG = /(^|\s)--ar(?:=|\s+)(\S+)(?=\s|$)/i;
const BARE_FLAG = /(^|\s)--ar\s*$/i;

/** `/imagine PROMPT [--ar W:H]`: the flag may come anywhere in the text. */
export function parseImagineText(text: string): Pick<ImagineCommand, 'prompt' | 'aspectRatio' | 'missingAspectRatio'> {
  const flag = ASPECT_FLAG.exec(text);
  if (flag !== null) {
    const prompt = `${text.slice(0, flag.index)}${flag[1] ?? ''}${text.slice(flag.index + flag[0].length)}`;
    return { prompt: prompt.replace(/\s+/g, ' ').trim(), aspectRatio: flag[2], missingAspectRatio: false };
  }
  if (BARE_FLAG.test(text)) {
    return { prompt: text.replace(BARE_FLAG, '').trim(), aspectRatio: undefined, missingAspectRatio: true };
  }
  return { prompt: text.trim(), aspectRatio: undefined, missingAspectRatio: false };
}

/** The slash command body Bolt hands the listener. */
export function parseImagineCommand(body: unknown): Parsed<ImagineCommand> {
  const parsed = slashCommand.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const command = parsed.data;
  return { ok: true, value: { channelId: command.channel_id, userId: command.user_id, ...parseImagineText(command.text) } };
}
