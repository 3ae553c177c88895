import { copy, type WorkspaceUsage } from '../copy/copy.js';
import type { QuotaConfig } from '../config/load-config.js';
import type { PlaceSettings } from '../settings/place-settings.js';
import { StoreUnavailableError, type UsageLedger } from '../store/index.js';
import { settingsPlaceOf } from './chat-job.js';
import { quotaStatus } from './daily-quota.js';
import { budgetScope, budgetWhere } from './image-admission.js';
import type { UsageAudience, UsageReporter } from './job-intake.js';

/**
 * `/usage` from the usage ledger: today, this month, and what is left of each daily quota that is
 * set; for an admin, the workspace's use today and what is left of its budgets too.
 */
export class LedgerUsageReporter implements UsageReporter {
  readonly #usage: UsageLedger;
  readonly #quota: QuotaConfig;
  readonly #settings: PlaceSettings | undefined;

  /** Without `settings`, no budget is known: an admin sees the workspace's use alone. */
  constructor(usage: UsageLedger, quota: QuotaConfig, settings?: PlaceSettings) {
    this.#usage = usage;
    this.#quota = quota;
    this.#settings = settings;
  }

  async answer(scope: Parameters<UsageReporter['answer']>[0], audience: UsageAudience = {}): Promise<string> {
    try {
      const status = await quotaStatus(this.#usage, scope, this.#quota);
      const left = (name: 'images' | 'chat tokens') => status.lines.find((entry) => entry.quota === name)?.left;
      return copy.usage({
        today: { images: status.today.images, chatTokens: status.today.inputTokens + status.today.outputTokens },
        month: { images: status.month.images, chatTokens: status.month.inputTokens + status.month.outputTokens },
        imagesLeft: left('images'),
        chatTokensLeft: left('chat tokens'),
        workspace: audience.admin === true ? await this.#workspace(scope) : undefined,
      });
    } catch (error) {
      if (error instanceof StoreUnavailableError) return copy.storeUnavailable;
      throw error;
    }
  }

  async #workspace(scope: Parameters<UsageReporter['answer']>[0]): Promise<WorkspaceUsage> {
    // The budgets are the workspace's alone: no channel needed to read them.
    const place = settingsPlaceOf({ platform: scope.platform, workspaceId: scope.workspaceId, channelId: '' });
    const [{ today }, budgets] = await Promise.all([
      this.#usage.totals(budgetScope(scope)),
      this.#settings?.view(place, 'workspace'),
    ]);
    const chatTokens = today.inputTokens + today.outputTokens;
    const left = (budget: number | undefined, used: number) =>
      budget === undefined ? undefined : Math.max(0, budget - used);
    return {
      platform: scope.platform,
      dm: budgetWhere(scope) === 'dm',
      today: { images: today.images, chatTokens },
      imagesLeft: left(budgets?.values.budget_images_per_day, today.images),
      chatTokensLeft: left(budgets?.values.budget_chat_tokens_per_day, chatTokens),
    };
  }
}
