import { copy } from '../copy/copy.js';
import type { QuotaConfig } from '../config/load-config.js';
import { StoreUnavailableError, type UsageLedger } from '../store/index.js';
import { quotaStatus } from './daily-quota.js';
import type { UsageReporter } from './job-intake.js';

/** `/usage` from the usage ledger: today, this month, and what is left of each daily quota that is set. */
export class LedgerUsageReporter implements UsageReporter {
  readonly #usage: UsageLedger;
  readonly #quota: QuotaConfig;

  constructor(usage: UsageLedger, quota: QuotaConfig) {
    this.#usage = usage;
    this.#quota = quota;
  }

  async answer(scope: Parameters<UsageReporter['answer']>[0]): Promise<string> {
    let status: Awaited<ReturnType<typeof quotaStatus>>;
    try {
      status = await quotaStatus(this.#usage, scope, this.#quota);
    } catch (error) {
      if (error instanceof StoreUnavailableError) return copy.storeUnavailable;
      throw error;
    }
    const left = (name: 'images' | 'chat tokens') => status.lines.find((entry) => entry.quota === name)?.left;
    return copy.usage({
      today: { images: status.today.images, chatTokens: status.today.inputTokens + status.today.outputTokens },
      month: { images: status.month.images, chatTokens: status.month.inputTokens + status.month.outputTokens },
      imagesLeft: left('images'),
      chatTokensLeft: left('chat tokens'),
    });
  }
}
