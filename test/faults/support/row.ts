import type { RecordedRequest } from '@genbot/emulator';
import type { DiscordPlatform } from './discord-platform.js';
import type { Oracle } from './oracle.js';
import type { Platform, PlatformName } from './platform.js';
import type { SlackPlatform } from './slack-platform.js';

export interface RowContext<P extends Platform = Platform> {
  platform: P;
  /** The row's own channel: everything the bot shows there is this row's doing. */
  channel: string;
  /**
   * A channel of the platform that no row owns, for a row that needs a second one: rows of a
   * platform run one at a time, but what earlier rows left there stays.
   */
  otherChannel: string;
  oracle: Oracle;
  /** What reached the bot's service emulator since the row began. */
  requests(): RecordedRequest[];
}

/** One line of the table: it acts as a user (or the platform, or the service) would and asserts what the user sees. */
export type Row =
  | { name: string; only?: undefined; run(ctx: RowContext): Promise<void> }
  | { name: string; only: 'slack'; run(ctx: RowContext<SlackPlatform>): Promise<void> }
  | { name: string; only: 'discord'; run(ctx: RowContext<DiscordPlatform>): Promise<void> };

export function appliesTo(row: Row, platform: PlatformName): boolean {
  return row.only === undefined || row.only === platform;
}
