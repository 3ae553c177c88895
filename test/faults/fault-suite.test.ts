import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInputRows } from './rows/bad-input.js';
import { conversationFaultRows } from './rows/conversation-faults.js';
import { discordEdgeRows, edgeFaultRows, slackEdgeRows } from './rows/edge-faults.js';
import { hostileServiceRows } from './rows/hostile-service.js';
import { platformFaultRows } from './rows/platform-faults.js';
import { discordRows, slackRows } from './rows/platform-specific.js';
import { replyBoundsRows } from './rows/reply-bounds.js';
import { serviceFaultRows } from './rows/service-faults.js';
import { settingsAdmissionRows } from './rows/settings-admission.js';
import { settingsBadInputRows } from './rows/settings-bad-input.js';
import { DiscordPlatform } from './support/discord-platform.js';
import { Oracle } from './support/oracle.js';
import type { Platform, PlatformName } from './support/platform.js';
import { appliesTo, type Row, type RowContext } from './support/row.js';
import { Serial } from './support/serial.js';
import { SlackPlatform } from './support/slack-platform.js';

/**
 * The fault suite: every row of the table against the real bot of each
 * platform, with the platform fakes and the service emulator. One bot per
 * platform serves all its rows, one after another, each in a channel of its
 * own; the two platforms run side by side.
 */
const TABLE: Row[] = [
  ...serviceFaultRows,
  ...hostileServiceRows,
  ...platformFaultRows,
  ...badInputRows,
  ...conversationFaultRows,
  ...edgeFaultRows,
  ...replyBoundsRows,
  ...settingsAdmissionRows,
  ...settingsBadInputRows,
  ...slackRows,
  ...slackEdgeRows,
  ...discordRows,
  ...discordEdgeRows,
];
const PLATFORMS: readonly PlatformName[] = ['slack', 'discord'];
// Waiting for the platform's earlier rows counts against a row's time.
const ROW_TIMEOUT_MS = 150_000;

interface Case {
  platform: PlatformName;
  row: Row;
  /** The row's position among its platform's rows: its channel. */
  index: number;
}

const perPlatform = PLATFORMS.map((platform) =>
  TABLE.filter((row) => appliesTo(row, platform)).map((row, index): Case => ({ platform, row, index })),
);
// Interleaved, so both platforms always have a row among those running concurrently.
const cases: Case[] = Array.from({ length: Math.max(...perPlatform.map((rows) => rows.length)) }, (_, i) =>
  perPlatform.flatMap((rows) => rows[i] ?? []),
).flat();

/** How many rows a platform runs: the index past them is the channel no row owns. */
function rowsOn(platform: PlatformName): number {
  return perPlatform[PLATFORMS.indexOf(platform)]?.length ?? 0;
}

const platforms = new Map<PlatformName, Platform>();
const lanes = new Map<PlatformName, Serial>(PLATFORMS.map((name) => [name, new Serial()]));
let oracle: Oracle;
let passed = 0;

beforeAll(async () => {
  oracle = await Oracle.start();
  const [slack, discord] = await Promise.all([
    SlackPlatform.start(),
    // One more than the rows: the channel no row owns.
    DiscordPlatform.start(rowsOn('discord') + 1),
  ]);
  platforms.set('slack', slack).set('discord', discord);
});

afterAll(async () => {
  await Promise.allSettled([...platforms.values()].map((platform) => platform.stop()));
  await oracle?.close();
  console.log(`fault suite: ${cases.length} rows, ${passed} passed`);
});

function run(row: Row, ctx: RowContext): Promise<void> {
  const { platform } = ctx;
  if (row.only === 'slack' && platform instanceof SlackPlatform) return row.run({ ...ctx, platform });
  if (row.only === 'discord' && platform instanceof DiscordPlatform) return row.run({ ...ctx, platform });
  if (row.only === undefined) return row.run(ctx);
  throw new Error(`row "${row.name}" is for ${row.only}, not ${platform.name}`);
}

describe('fault suite', () => {
  it.concurrent.each(cases.map((c) => ({ ...c, title: `${c.platform}: ${c.row.name}` })))(
    '$title',
    async ({ platform: name, row, index }) => {
      await lanes.get(name)?.run(async () => {
        const platform = platforms.get(name);
        if (platform === undefined) throw new Error(`${name} did not start`);
        const since = platform.emulator.requests.length;
        const ctx: RowContext = {
          platform,
          channel: platform.channel(index),
          otherChannel: platform.channel(rowsOn(name)),
          oracle,
          requests: () => platform.emulator.requests.slice(since),
        };
        await run(row, ctx);
        expect(platform.leakedSecret()).toBeUndefined();
        passed += 1;
      });
    },
    ROW_TIMEOUT_MS,
  );
});
