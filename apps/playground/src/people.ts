import type { DiscordFake, SlackFake } from '@genbot/fakes';

/** Who types in the page: alice administers both places, bob is a member (so each side of /genbot can be tried). */
export const PEOPLE = [
  { name: 'alice', slackId: 'U1', admin: true },
  { name: 'bob', slackId: 'U2', admin: false },
] as const;

export type PersonName = (typeof PEOPLE)[number]['name'];

/** The person named, else alice: the page's default. */
export function personOf(name: string | undefined): (typeof PEOPLE)[number] {
  return PEOPLE.find((person) => person.name === name) ?? PEOPLE[0];
}

/**
 * Gives the admins their roles where the bots read them: a Slack workspace admin (users.info),
 * a Discord member with Manage Server (the interaction's member permissions).
 */
export function givePeopleTheirRoles(slack: SlackFake, discord: DiscordFake): void {
  for (const person of PEOPLE) {
    slack.workspace.setRole(person.slackId, person.admin ? 'admin' : 'member');
    discord.grantPermissions(person.name, person.admin ? ['ManageGuild'] : []);
  }
}
