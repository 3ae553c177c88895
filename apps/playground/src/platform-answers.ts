/**
 * What Slack and Discord themselves answer (not the bot) when a person's command cannot reach the
 * app: the page shows these where the platform would, as a notice only the person sees.
 */
export class PlatformAnswer extends Error {
  override readonly name = 'PlatformAnswer';
  constructor(
    /** Who says it, as the platform shows it: Slackbot, or Discord's own system voice. */
    readonly from: 'Slackbot' | 'Discord',
    message: string,
  ) {
    super(message);
  }
}

/** Slack's answer to a slash command no app in the workspace declares. */
export function slackUnknownCommand(command: string): PlatformAnswer {
  return new PlatformAnswer(
    'Slackbot',
    `${command} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
  );
}

/** Slack's answer when the app did not acknowledge a command within its 3 seconds. */
export function slackCommandTimedOut(command: string): PlatformAnswer {
  return new PlatformAnswer('Slackbot', `${command} failed with the error "operation_timeout"`);
}

/** Discord's answer to a command that no application offers where it was typed: the server, or a DM with the bot. */
export function discordUnknownCommand(
  name: string,
  known: readonly string[],
  place: 'server' | 'dm' = 'server',
): PlatformAnswer {
  const hint = known.length === 0 ? '' : ` Commands here: ${known.map((command) => `/${command}`).join(', ')}.`;
  return new PlatformAnswer(
    'Discord',
    `/${name} is not a command ${place === 'dm' ? 'in this DM' : 'in this server'}.${hint}`,
  );
}
