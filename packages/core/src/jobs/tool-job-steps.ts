import type { ToolJob } from '../chat/tools/tool-job.js';
import type { QuotaConfig } from '../config/load-config.js';
import type { VersionLineage } from '../chat/version-lineage.js';
import type { ImageVersionStore, JobRecord, JobStore, UsageLedger } from '../store/index.js';
import type { ChatLogger } from '../surface/ports.js';
import type { ChatJob } from './chat-job.js';
import { targetOf } from './chat-job.js';
import { holderOf, reserveImages } from './image-admission.js';
import type { RecordedSurface } from './recorded-surface.js';
import type { StoredCall } from './until-stored.js';

/** A tool call's reservation, recorded before the generate-content request it allows. */
export const RESERVED_STEP = 'reserved';

export interface ToolJobDeps {
  store: {
    usage: Pick<UsageLedger, 'reserveImages' | 'releaseImages' | 'totals'>;
    versions: Pick<ImageVersionStore, 'byMessage'>;
    jobs: Pick<JobStore, 'recordStep'>;
  };
  stored: StoredCall;
  quota: QuotaConfig | undefined;
  logger: ChatLogger;
  /** The lineage of the job's next upload (its versions, its buttons). */
  nextResult(lineage: VersionLineage): void;
  /** Images of a call whose result a run before posted: still the person's, in the usage this run records. */
  madeBefore(images: number): void;
  now?: (() => Date) | undefined;
}

/**
 * What a conversation's tool calls need from the job that runs them: its
 * versions, the person's image quota and the workspace's budget reserved in
 * the store (atomically, so two workers cannot both spend the last image),
 * and its recorded uploads.
 */
export function toolJobOf(job: ChatJob, record: JobRecord, recorded: RecordedSurface, deps: ToolJobDeps): ToolJob {
  const { store, stored, quota } = deps;
  const channelId = targetOf(job).channelId;
  return {
    nextResult: (lineage) => deps.nextResult(lineage),
    async versionOf(image) {
      const shown = await stored('find the version shown', () =>
        store.versions.byMessage(job.platform, channelId, image.messageId),
      );
      const version = shown[image.position];
      return version === undefined
        ? undefined
        : { key: { jobId: version.jobId, index: version.index }, number: version.number };
    },
    async reserveImages(call, images) {
      // The person's quota and the workspace's budget the job was accepted under.
      const limits = { userPerDay: quota?.imagesPerDay, workspacePerDay: job.settings?.budgetImagesPerDay };
      const now = deps.now?.() ?? new Date();
      const reservation = await stored('reserve images', () =>
        reserveImages(store.usage, holderOf(job), images, limits, now),
      );
      if (!reservation.ok) {
        deps.logger.info({ jobId: job.id, call, images, reason: reservation.reason }, 'tool call over an image limit');
        return reservation.answer;
      }
      await stored('record a step', () =>
        store.jobs.recordStep(record.id, { name: RESERVED_STEP, index: call, files: images }),
      );
      return undefined;
    },
    async releaseImages(_call, images) {
      await stored('give back reserved images', () => store.usage.releaseImages(job.id, images));
    },
    postedBefore() {
      const before = recorded.postedBefore();
      if (before === undefined) return undefined;
      deps.madeBefore(before.files);
      return { messageId: before.messageId, fileIds: before.fileIds };
    },
  };
}
