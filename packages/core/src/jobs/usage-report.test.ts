import { describe, expect, it } from 'vitest';
import { PlaceSettings } from '../settings/place-settings.js';
import type { ScopedValues, SettingsStore, UsageLedger, UsageScope, UsageTotals } from '../store/index.js';
import { LedgerUsageReporter } from './usage-report.js';

const totals = (images: number, tokens: number): UsageTotals => ({
  images,
  inputTokens: tokens,
  outputTokens: 0,
  jobs: 1,
});

/** A ledger that answers by scope: the person's, their workspace's, or all Discord DMs'. */
function ledger(byScope: Record<string, UsageTotals>): UsageLedger {
  const key = (scope: UsageScope) => `${scope.platform}:${scope.workspaceId ?? ''}:${scope.userId ?? '*'}`;
  return {
    record: async () => undefined,
    reserveImages: async () => true,
    releaseImages: async () => undefined,
    totals: async (scope) => {
      const found = byScope[key(scope)] ?? totals(0, 0);
      return { today: found, month: found };
    },
  };
}

/** A workspace with its own image budget (or none), under the operator's ceilings. */
function settingsWith(workspaceImages: number | undefined): PlaceSettings {
  const store: Pick<SettingsStore, 'place'> = {
    place: async (): Promise<Record<string, ScopedValues>> =>
      workspaceImages === undefined ? {} : { budget_images_per_day: { workspace: workspaceImages } },
  };
  return new PlaceSettings({
    store: store as SettingsStore,
    operator: {
      chatModels: ['chat'],
      imageModels: ['img'],
      chatModel: 'chat',
      imageModel: 'img',
      systemPrompt: undefined,
      budgetImagesPerDay: 100,
      budgetChatTokensPerDay: 5_000,
    },
  });
}

const noQuota = { imagesPerDay: undefined, chatTokensPerDay: undefined };

describe('LedgerUsageReporter', () => {
  const usage = ledger({
    'slack:T1:U1': totals(2, 300),
    'slack:T1:*': totals(12, 4_000),
    'discord::*': totals(7, 0),
  });

  it('tells a person their own use alone, as before', async () => {
    const reporter = new LedgerUsageReporter(usage, noQuota, settingsWith(40));
    expect(await reporter.answer({ platform: 'slack', workspaceId: 'T1', userId: 'U1' })).toBe(
      '**Today:** 2 images, 300 chat tokens\n**This month:** 2 images, 300 chat tokens',
    );
  });

  it("shows an admin the workspace's use today beside their own, and what is left of each budget", async () => {
    const reporter = new LedgerUsageReporter(usage, noQuota, settingsWith(40));
    const answer = await reporter.answer({ platform: 'slack', workspaceId: 'T1', userId: 'U1' }, { admin: true });
    expect(answer.split('\n').slice(2)).toEqual([
      '**This workspace today:** 12 images, 4,000 chat tokens',
      '**Left of the daily budget:** 28 images, 1,000 chat tokens (resets at midnight UTC)',
    ]);
  });

  it('counts all Discord DMs together for an admin asking from a DM, against the operator budgets', async () => {
    const reporter = new LedgerUsageReporter(usage, noQuota, settingsWith(undefined));
    const answer = await reporter.answer({ platform: 'discord', userId: 'U1' }, { admin: true });
    expect(answer.split('\n').slice(2)).toEqual([
      '**All DMs today:** 7 images, 0 chat tokens',
      '**Left of the daily budget:** 93 images, 5,000 chat tokens (resets at midnight UTC)',
    ]);
  });

  it('without settings knows no budget: the workspace use alone', async () => {
    const reporter = new LedgerUsageReporter(usage, noQuota);
    const answer = await reporter.answer({ platform: 'slack', workspaceId: 'T1', userId: 'U1' }, { admin: true });
    expect(answer.split('\n').slice(2)).toEqual(['**This workspace today:** 12 images, 4,000 chat tokens']);
  });
});
