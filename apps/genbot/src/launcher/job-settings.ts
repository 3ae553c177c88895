import type { CoreConfig } from '@genbot/core/config';
import type { OpenService } from '../service.js';
import type { JobsOptions, WorkerModels } from '../wiring/jobs.js';

/** What jobs take from core's settings: the daily quotas, the longest reply, the conversation's, RETENTION_DAYS. */
export function jobsOfCore(
  core: CoreConfig,
): Pick<JobsOptions, 'quota' | 'maxReplyChars' | 'conversation' | 'retentionDays' | 'operator' | 'adminUserIds'> {
  return {
    quota: core.quota,
    operator: core.operator,
    adminUserIds: core.adminUserIds,
    maxReplyChars: core.reply.maxChars,
    conversation: core.chat,
    retentionDays: core.retentionDays,
  };
}

/** The service's models jobs run on. */
export function modelsOf(core: CoreConfig, service: OpenService): WorkerModels & { client: OpenService['client'] } {
  return { client: service.client, chatModel: core.service.chatModel, imageModel: core.service.imageModel };
}
