import { splitAspectFlag } from '@genbot/core/chat';
import { z } from 'zod';
import { describeIssue, type Parsed } from './parse-app-mention.js';

const slashCommand = z.looseObject({
  command: z.string(),
  text: z.string().default(''),
  channel_id: z.string().min(1),
  user_id: z.string().min(1),
  team_id: z.string().optional(),
  trigger_id: z.string().optional(),
});

export interface ImagineCommand {
  channelId: string;
  userId: string;
  workspaceId: string | undefined;
  /** Slack's id of this invocation: the job's id comes from it, so a repeat is one job. */
  triggerId: string | undefined;
  prompt: string;
  /** As typed after `--ar`; validated by the use case. */
  aspectRatio: string | undefined;
  /** `--ar` came without a value. */
  missingAspectRatio: boolean;
}

/** `/imagine PROMPT [--ar W:H]`: the flag may come anywhere in the text. */
export function parseImagineText(text: string): Pick<ImagineCommand, 'prompt' | 'aspectRatio' | 'missingAspectRatio'> {
  return splitAspectFlag(text);
}

/** The slash command body Bolt hands the listener. */
export function parseImagineCommand(body: unknown): Parsed<ImagineCommand> {
  const parsed = slashCommand.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const command = parsed.data;
  return {
    ok: true,
    value: {
      channelId: command.channel_id,
      userId: command.user_id,
      workspaceId: command.team_id,
      triggerId: command.trigger_id,
      ...parseImagineText(command.text),
    },
  };
}
