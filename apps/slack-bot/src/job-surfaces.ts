import type { ChatJob, SurfaceFactory } from '@genbot/core/jobs';
import type { SlackDmSurface } from './dm-surface.js';
import { isDirectMessageChannel } from './parse-direct-message.js';
import type { SlackSurface } from './surface.js';
import { triggerKey } from './trigger-key.js';

/**
 * Slack jobs' surfaces: those of the job's workspace (its token). A job
 * needs nothing of the surface but where to answer, which every call names,
 * so one surface serves every channel of a workspace, and one the app's DMs
 * (where the assistant status shows the bot at work); a mention's job is
 * cancelled by deleting it.
 */
export function slackSurfaces(of: {
  surfaceOf: (job: ChatJob) => SlackSurface;
  dmsOf: (job: ChatJob) => SlackDmSurface;
}): SurfaceFactory {
  return {
    platform: 'slack',
    surfaceFor: (job: ChatJob) => (isDirectMessageChannel(job.channelId) ? of.dmsOf(job) : of.surfaceOf(job)),
    cancelKey: (job: ChatJob) =>
      job.input.kind === 'mention' ? triggerKey(job.channelId, job.input.mention.trigger.id) : undefined,
  };
}
