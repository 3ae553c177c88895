import { IMAGE_FORMATS_IN_WORDS } from '@genbot/core/genai';
/** The help texts printed by `--help`: the contract's CLI section, one screen per command. */

export const COMMAND_NAMES = ['chat', 'text', 'imagine', 'edit'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

const PATHS_NOTE = `Written paths are printed one a line: relative to the current directory when
--out is relative (the default "."), absolute when --out is absolute. An existing
file is never overwritten; a new name is picked instead.`;

const COMMAND_USAGE: Record<CommandName, string> = {
  chat: `Usage: genbot chat "PROMPT" [--model M] [--system TEXT] [--max-tokens N] [--file PATH]...

Streams a reply (messages operation) to standard output as it arrives.

Options:
  --model M          model ID (default: CHAT_MODEL)
  --system TEXT      system prompt
  --max-tokens N     upper bound on the reply length in tokens (default: 1024)
  --file PATH        a file that goes with the prompt, as in a conversation;
                     repeat it for several: images (PNG, JPEG, GIF, WebP; at
                     most 4, larger ones scaled down to 1568 px), text files
                     (up to 200 KiB) and PDFs (up to 20 MiB)
  -h, --help         show this help

No tools are offered: a reply that asks for one exits 3. A file that cannot
be read or sent exits 2, and nothing is sent.`,
  text: `Usage: genbot text "PROMPT" [--model M]

Prints a generate-content text reply to standard output.

Options:
  --model M          model ID (default: TEXT_MODEL)
  -h, --help         show this help`,
  imagine: `Usage: genbot imagine "PROMPT" [--ar W:H] [--out DIR] [--model M]

Generates images from PROMPT and writes each one into DIR.

Options:
  --ar W:H           aspect ratio: 1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9, 21:9
  --out DIR          directory for the images, created if missing (default: .)
  --model M          model ID (default: IMAGE_MODEL)
  -h, --help         show this help

${PATHS_NOTE}`,
  edit: `Usage: genbot edit IMAGE_FILE "INSTRUCTION" [--ar W:H] [--out DIR] [--model M]

Edits IMAGE_FILE (${IMAGE_FORMATS_IN_WORDS}) following INSTRUCTION and writes
each resulting image into DIR.

Options:
  --ar W:H           aspect ratio: 1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9, 21:9
  --out DIR          directory for the images, created if missing (default: .)
  --model M          model ID (default: IMAGE_MODEL)
  -h, --help         show this help

${PATHS_NOTE}`,
};

export const GENERAL_USAGE = `Usage: genbot <command> [options]

Commands:
  chat "PROMPT"                  stream a conversational reply (messages operation)
  text "PROMPT"                  print a generate-content text reply
  imagine "PROMPT"               generate images into a directory
  edit IMAGE_FILE "INSTRUCTION"  edit an image into a directory
  start                          run the configured bots, or with no bot token
                                 the local playground (PLAYGROUND_PORT, 8787)
  slack                          run the Slack bot alone
  discord                        run the Discord bot alone
  discord register [--guild ID]  register the Discord /imagine, /usage and Edit image commands
  worker                         run job workers only (REDIS_URL): take the bots' queued jobs

Run "genbot <command> --help" for a command's options.

The service is GENAI_BASE_URL with the key GENAI_API_KEY; with GENAI_BASE_URL
unset, a built-in offline emulator answers instead.

Standard output carries only the result; logs, progress and errors go to
standard error. Exit status: 0 success, 2 bad usage or input (nothing sent),
3 the service produced no output, 4 the service failed, 130 interrupted.`;

export function commandUsage(name: CommandName): string {
  return COMMAND_USAGE[name];
}
