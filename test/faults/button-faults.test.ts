import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingSaid, SECRETS, startHarness, type Harness } from '../discord/support/harness.js';
import { startJobsHarness, type JobsHarness } from '../slack/support/jobs-harness.js';
import { buttonFaultRows } from './rows/button-faults.js';
import { discordButtonRows } from './rows/discord-buttons.js';

/**
 * The fault table's rows for result buttons and their form: bad input at a
 * press or a submission (forged or stale ids, presses and forms sent twice, a
 * form that times out, a version whose file was deleted, a button copied
 * onto another message or into another channel) against the real
 * Slack bot and the real Discord bot, each on the jobs floor. One bot per
 * platform serves its rows, each in its own channel.
 */
let harness: JobsHarness | undefined;
let discord: Harness | undefined;
const DISCORD_CHANNELS = discordButtonRows.map((_, index) => `button-row-${index}`);
/** A channel every Discord row may carry a result's buttons into. */
const DISCORD_ELSEWHERE = 'button-elsewhere';
// A file, so a row can open the Discord bot's store as another replica would (with a clock of its own).
const databaseDir = mkdtempSync(join(tmpdir(), 'genbot-button-faults-'));
const discordDatabase = `sqlite:${join(databaseDir, 'discord.db')}`;

beforeAll(async () => {
  [harness, discord] = await Promise.all([
    startJobsHarness(),
    // Discord shows a bot only the channels its guild had at READY: one per row, made up front.
    startHarness({
      databaseUrl: discordDatabase,
      fake: { guild: { channels: ['general', ...DISCORD_CHANNELS, DISCORD_ELSEWHERE] } },
    }),
  ]);
});

afterAll(async () => {
  await Promise.allSettled([harness?.close(), discord?.stop()]);
  rmSync(databaseDir, { recursive: true, force: true });
});

describe('button fault table (Slack)', () => {
  it.each(buttonFaultRows.map((row, index) => ({ row, index, name: row.name })))(
    'slack: $name',
    async ({ row, index }) => {
      const h = harness;
      if (h === undefined) throw new Error('the bot did not start');
      const since = h.emulator.requests.length;
      await row.run({
        h,
        channel: `CB${String(index).padStart(4, '0')}`,
        requests: () => h.emulator.requests.slice(since),
      });
      expect(h.slack.workspace.ephemerals.some((e) => e.text.includes('xoxb-'))).toBe(false);
    },
    120_000,
  );
});

describe('button fault table (Discord)', () => {
  it.each(discordButtonRows.map((row, index) => ({ row, index, name: row.name })))(
    'discord: $name',
    async ({ row, index }) => {
      const h = discord;
      if (h === undefined) throw new Error('the bot did not start');
      await row.run({
        h,
        channelId: h.fake.channelId(DISCORD_CHANNELS[index] ?? ''),
        elsewhereId: h.fake.channelId(DISCORD_ELSEWHERE),
        databaseUrl: discordDatabase,
      });
      // Interaction tokens are credentials too: webhook URLs carry them.
      const tokens = h.fake.state.interactions.map((interaction) => interaction.token);
      const said = everythingSaid(h);
      for (const secret of [...SECRETS, ...tokens]) expect(said.some((text) => text.includes(secret))).toBe(false);
    },
    120_000,
  );
});
