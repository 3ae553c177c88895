import { readFileSync } from 'node:fs';

/** The installed `chat` package's version (its package.json is not exported, so it is read beside its entry). */
function installedVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('chat')), 'utf8'));
  const version = (manifest as { version?: unknown }).version;
  if (typeof version !== 'string') throw new Error('chat/package.json has no version');
  return version;
}

/** The peer as the table names it. */
export const PEER_NAME = `Chat SDK ${installedVersion()}`;

/**
 * Slack only: the Discord adapter receives messages only through a discord.js
 * gateway client it builds without REST options, so it cannot be pointed at
 * the Discord fake (see bench/README.md).
 */
export const PEER_PLATFORM = 'slack';
