import { z } from 'zod';
import { ASPECT_RATIOS } from '../../genai/types.js';
import { MAX_PROMPT_CHARS } from '../imagine.js';
import { EDIT_IMAGE, GENERATE_IMAGE, MAX_TOOL_IMAGES } from './definitions.js';

const words = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_PROMPT_CHARS, `must be at most ${MAX_PROMPT_CHARS} characters`);
const aspectRatio = z.enum(ASPECT_RATIOS).optional();

const generateInput = z.object({
  prompt: words,
  aspect_ratio: aspectRatio,
  count: z.number().int().min(1).max(MAX_TOOL_IMAGES).optional(),
});

const editInput = z.object({
  instruction: words,
  image: z.string().trim().min(1).optional(),
  aspect_ratio: aspectRatio,
});

export type GenerateInput = z.infer<typeof generateInput>;
export type EditInput = z.infer<typeof editInput>;

/** A tool call as genbot will run it, or what is wrong with it (said to the model as an error result). */
export type ToolRequest =
  | { tool: 'generate'; input: GenerateInput }
  | { tool: 'edit'; input: EditInput }
  | { tool: 'invalid'; problem: string };

function problemOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'input'} ${issue.message}`).join('; ');
}

/** The model's input checked against the tool's schema: the call's one edge. */
export function toolRequest(name: string, input: Record<string, unknown>): ToolRequest {
  if (name === GENERATE_IMAGE) {
    const parsed = generateInput.safeParse(input);
    return parsed.success
      ? { tool: 'generate', input: parsed.data }
      : { tool: 'invalid', problem: problemOf(parsed.error) };
  }
  if (name === EDIT_IMAGE) {
    const parsed = editInput.safeParse(input);
    return parsed.success
      ? { tool: 'edit', input: parsed.data }
      : { tool: 'invalid', problem: problemOf(parsed.error) };
  }
  return { tool: 'invalid', problem: `there is no tool named ${JSON.stringify(name.slice(0, 64))}` };
}
