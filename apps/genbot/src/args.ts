import { parseArgs } from 'node:util';
import { parseAspectRatio, type AspectRatio } from '@genbot/core/genai';
import { UsageError } from '@genbot/core/errors';
import { isLaunchCommandName, parseLaunchCommand, type LaunchCommand } from './launcher/args.js';
import { COMMAND_NAMES, GENERAL_USAGE, commandUsage, type CommandName } from './usage.js';

export const DEFAULT_MAX_TOKENS = 1024;

/** What the user asked for, fully validated: nothing here can fail once sent. */
export type Command =
  | { kind: 'help'; text: string }
  | {
      kind: 'chat';
      prompt: string;
      model: string | undefined;
      system: string | undefined;
      maxTokens: number;
      /** Paths of the files that go with the prompt, in the order given. */
      files: string[];
    }
  | { kind: 'text'; prompt: string; model: string | undefined }
  | { kind: 'imagine'; prompt: string; aspectRatio: AspectRatio | undefined; outDir: string; model: string | undefined }
  | {
      kind: 'edit';
      imagePath: string;
      instruction: string;
      aspectRatio: AspectRatio | undefined;
      outDir: string;
      model: string | undefined;
    }
  | LaunchCommand;

// One option table for parsing (so the values are typed), then each command's own list is enforced.
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  model: { type: 'string' },
  system: { type: 'string' },
  'max-tokens': { type: 'string' },
  ar: { type: 'string' },
  out: { type: 'string' },
  file: { type: 'string', multiple: true },
} as const;
type OptionName = keyof typeof OPTIONS;

const ALLOWED: Record<CommandName, readonly OptionName[]> = {
  chat: ['help', 'model', 'system', 'max-tokens', 'file'],
  text: ['help', 'model'],
  imagine: ['help', 'model', 'ar', 'out'],
  edit: ['help', 'model', 'ar', 'out'],
};

function isCommandName(word: string): word is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(word);
}

/** Parses `argv` (without node and script) into a command; throws UsageError for anything malformed. */
export function parseCommand(argv: readonly string[]): Command {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError(`a command is required\n\n${GENERAL_USAGE}`);
  if (first === '--help' || first === '-h' || first === 'help') return { kind: 'help', text: GENERAL_USAGE };
  if (isLaunchCommandName(first)) return parseLaunchCommand(first, rest);
  if (!isCommandName(first)) throw new UsageError(`unknown command "${first}"\n\n${GENERAL_USAGE}`);

  const { values, positionals } = parseOrThrow(first, rest);
  if (values.help === true) return { kind: 'help', text: commandUsage(first) };

  switch (first) {
    case 'chat':
      return {
        kind: 'chat',
        prompt: requireText(positionals, 'PROMPT', first),
        model: values.model,
        system: values.system,
        maxTokens: values['max-tokens'] === undefined ? DEFAULT_MAX_TOKENS : parseMaxTokens(values['max-tokens']),
        files: parseFiles(values.file),
      };
    case 'text':
      return { kind: 'text', prompt: requireText(positionals, 'PROMPT', first), model: values.model };
    case 'imagine':
      return {
        kind: 'imagine',
        prompt: requireText(positionals, 'PROMPT', first),
        aspectRatio: parseOptionalAspectRatio(values.ar),
        outDir: parseOutDir(values.out),
        model: values.model,
      };
    case 'edit': {
      const [imagePath, ...instructionWords] = positionals;
      if (imagePath === undefined || imagePath === '') throw missing('IMAGE_FILE', first);
      return {
        kind: 'edit',
        imagePath,
        instruction: requireText(instructionWords, 'INSTRUCTION', first),
        aspectRatio: parseOptionalAspectRatio(values.ar),
        outDir: parseOutDir(values.out),
        model: values.model,
      };
    }
  }
}

function parseOrThrow(name: CommandName, args: string[]) {
  const parsed = parseStrict(name, args);
  const foreign = Object.keys(parsed.values).find((option) => !(ALLOWED[name] as readonly string[]).includes(option));
  if (foreign !== undefined)
    throw new UsageError(`option '--${foreign}' does not apply to ${name}\n\n${commandUsage(name)}`);
  return parsed;
}

function parseStrict(name: CommandName, args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    // node:util reports unknown flags and missing option values as TypeErrors with an ERR_PARSE_ARGS_* code.
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS_')) {
      throw new UsageError(`${err.message}\n\n${commandUsage(name)}`);
    }
    throw err;
  }
}

// Words after the command are joined so an unquoted prompt still works: `genbot text hello there`.
function requireText(words: readonly string[], what: string, name: CommandName): string {
  const text = words.join(' ').trim();
  if (text === '') throw missing(what, name);
  return text;
}

function missing(what: string, name: CommandName): UsageError {
  return new UsageError(`${what} is required\n\n${commandUsage(name)}`);
}

function parseMaxTokens(raw: string): number {
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`--max-tokens must be a positive whole number, got "${raw}"`);
  }
  return value;
}

function parseFiles(raw: string[] | undefined): string[] {
  if (raw?.some((file) => file === '') === true) throw new UsageError('--file must name a file');
  return raw ?? [];
}

function parseOptionalAspectRatio(raw: string | undefined): AspectRatio | undefined {
  return raw === undefined ? undefined : parseAspectRatio(raw);
}

function parseOutDir(raw: string | undefined): string {
  if (raw === '') throw new UsageError('--out must name a directory');
  return raw ?? '.';
}
