import type { ChatJob, SurfaceFactory } from '@genbot/core/jobs';
import type { SlackSurface } from './surface.js';
import { triggerKey } from './trigger-key.js';

/**
 * Slack jobs' surface: the Web API client with this process's bot token. It
 * needs nothing of the job but where to answer, which every call names, so
 * one surface serves them all; a mention's job is cancelled by deleting it.
 */
export function slackSurfaces(surface: SlackSurface): SurfaceFactory {
  return {
    platform: 'slack',
    surfaceFor: () => surface,
    cancelKey: (job: ChatJob) =>
      job.input.kind === 'mention' ? triggerKey(job.channelId, job.input.mention.trigger.id) : undefined,
  };
}
