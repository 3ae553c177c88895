import { parseArgs } from 'node:util';
import { UsageError } from '@genbot/core/errors';

/** The long-running commands, the only place they are listed: the bots, the job workers, or the local playground. */
export const LAUNCH_COMMAND_NAMES = ['start', 'slack', 'discord', 'worker'] as const;
export type LaunchCommandName = (typeof LAUNCH_COMMAND_NAMES)[number];

export type LaunchCommand = { kind: LaunchCommandName } | { kind: 'discord-register'; guildId: string | undefined };

export function isLaunchCommandName(word: string): word is LaunchCommandName {
  return (LAUNCH_COMMAND_NAMES as readonly string[]).includes(word);
}

/** Whether a parsed command is one of the launcher's (they run until a signal). */
export function isLaunchCommand(command: { kind: string }): command is LaunchCommand {
  return command.kind === 'discord-register' || isLaunchCommandName(command.kind);
}

export const LAUNCH_USAGE: Record<LaunchCommandName, string> = {
  start: `Usage: genbot start

Runs the bots that are configured: Slack when SLACK_BOT_TOKEN is set (Socket Mode
with SLACK_APP_TOKEN, otherwise HTTP mode on SLACK_PORT with SLACK_SIGNING_SECRET),
Discord when DISCORD_TOKEN is set. With neither, starts the local playground: the
service emulator (or GENAI_BASE_URL), emulated Slack and Discord channels with both
bots connected, and a page on PLAYGROUND_PORT (default 8787); its address is printed.

SIGINT or SIGTERM stops taking new work, lets replies in progress finish (up to
20 s; any still running then stop and say so), then exits with status 0. An error
nothing caught is logged as fatal and ends the process the same way, with status 1.

Options:
  -h, --help         show this help`,
  slack: `Usage: genbot slack

Runs the Slack bot alone (needs SLACK_BOT_TOKEN, and SLACK_APP_TOKEN for Socket
Mode or SLACK_SIGNING_SECRET for HTTP mode).

Options:
  -h, --help         show this help`,
  worker: `Usage: genbot worker

Runs job workers only (needs REDIS_URL, and DATABASE_URL naming PostgreSQL): they
take the image and chat jobs the bots queued on Redis and answer over the platforms'
APIs, Slack with SLACK_BOT_TOKEN, Discord with DISCORD_TOKEN (at least one). Run any
number of them, on any number of machines.

SIGINT or SIGTERM stops taking jobs, lets the running ones finish (up to 20 s; any
still running then are handed to another worker, which resumes them), then exits
with status 0.

Options:
  -h, --help         show this help`,
  discord: `Usage: genbot discord
       genbot discord register [--guild ID]

Runs the Discord bot alone (needs DISCORD_TOKEN). "register" registers the /imagine
command (needs DISCORD_APPLICATION_ID too): globally, or in one guild with --guild,
where it appears at once.

Options:
  --guild ID         register in this guild only (with "register")
  -h, --help         show this help`,
};

export type LaunchParse = LaunchCommand | { kind: 'help'; text: string };

/** Parses the arguments after `start`, `slack` or `discord`; throws UsageError for anything else. */
export function parseLaunchCommand(name: LaunchCommandName, args: readonly string[]): LaunchParse {
  const options = { help: { type: 'boolean', short: 'h' }, guild: { type: 'string' } } as const;
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({
      args: [...args],
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS_')) {
      throw new UsageError(`${err.message}\n\n${LAUNCH_USAGE[name]}`);
    }
    throw err;
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { kind: 'help', text: LAUNCH_USAGE[name] };
  const register = name === 'discord' && positionals[0] === 'register';
  const extra = register ? positionals.slice(1) : positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"\n\n${LAUNCH_USAGE[name]}`);
  if (values.guild !== undefined && !register) {
    throw new UsageError(`option '--guild' applies to "genbot discord register" only\n\n${LAUNCH_USAGE[name]}`);
  }
  if (register) {
    const guildId = values.guild;
    if (guildId !== undefined && !/^\d{15,25}$/.test(guildId))
      throw new UsageError('--guild must be a guild ID (a number)');
    return { kind: 'discord-register', guildId };
  }
  return { kind: name };
}
