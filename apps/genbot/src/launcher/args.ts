import { parseArgs } from 'node:util';
import { UsageError } from '@genbot/core';

export const LAUNCH_COMMAND_NAMES = ['start', 'slack', 'discord'] as const;
export type LaunchCommandName = (typeof LAUNCH_COMMAND_NAMES)[number];

/** The long-running commands: the bots, or the local playground. */
export type LaunchCommand =
  | { kind: 'start' }
  | { kind: 'slack' }
  | { kind: 'discord' }
  | { kind: 'discord-register'; guildId: string | undefined };

export function isLaunchCommandName(word: string): word is LaunchCommandName {
  return (LAUNCH_COMMAND_NAMES as readonly string[]).includes(word);
}

export const LAUNCH_USAGE: Record<LaunchCommandName, string> = {
  start: `Usage: genbot start

Runs the bots that are configured: Slack when SLACK_BOT_TOKEN is set (Socket Mode
with SLACK_APP_TOKEN, otherwise HTTP mode on SLACK_PORT with SLACK_SIGNING_SECRET),
Discord when DISCORD_TOKEN is set. With neither, starts the local playground: the
service emulator (or GENAI_BASE_URL), emulated Slack and Discord channels with both
bots connected, and a page on PLAYGROUND_PORT (default 8787); its address is printed.

SIGINT or SIGTERM stops taking new work, lets replies in progress finish, then exits.

Options:
  -h, --help         show this help`,
  slack: `Usage: genbot slack

Runs the Slack bot alone (needs SLACK_BOT_TOKEN, and SLACK_APP_TOKEN for Socket
Mode or SLACK_SIGNING_SECRET for HTTP mode).

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
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { help: { type: 'boolean', short: 'h' }, guild: { type: 'string' } },
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
    if (guildId !== undefined && !/^\d{15,25}$/.test(guildId)) throw new UsageError('--guild must be a guild ID (a number)');
    return { kind: 'discord-register', guildId };
  }
  return { kind: name };
}
