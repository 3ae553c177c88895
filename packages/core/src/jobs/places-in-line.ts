import { type ChannelBudget, paceKeyOf } from '../rendering/channel-budget.js';
import { copy } from '../copy/copy.js';
import { type PacedDeps, pacedCall } from '../rendering/paced-call.js';
import type { ChatLogger } from '../surface/ports.js';
import { fitted, say, sayPrivately } from '../chat/status-message.js';
import type { JobRecord, JobStore } from '../store/index.js';
import { type ChatJob, type SurfaceFactory, targetOf } from './chat-job.js';
import { parseChatJob } from './parse-chat-job.js';
import { POSTED_STEP } from './recorded-surface.js';

export interface PlacesInLineOptions {
  surfaces: readonly SurfaceFactory[];
  /** The process's one per-channel budget: a place in line waits its turn there like any post. */
  channels: ChannelBudget;
  jobs: Pick<JobStore, 'recordStep'>;
  logger: ChatLogger;
}

/** What a job's user reads while it waits: its place in line (1: next). */
export function placeWords(job: ChatJob, place: number): string {
  return job.input.kind === 'imagine' ? copy.imagineQueued(job.input.imagine.prompt, place) : copy.chatQueued(place);
}

/**
 * A job whose trigger was deleted before it ran: its first message (its place
 * in line, or the progress a crashed run left) goes where the platform can
 * delete it, and otherwise says the request was cancelled, so nothing is left
 * saying it waits.
 */
export async function takeBackFirstPost(
  deps: PacedDeps,
  job: ChatJob,
  record: Pick<JobRecord, 'steps'>,
): Promise<void> {
  const first = record.steps.find((step) => step.name === POSTED_STEP && (step.index ?? 0) === 0);
  if (first?.messageId === undefined) return;
  const target = targetOf(job);
  const message = { ...target, messageId: first.messageId };
  const { surface } = deps;
  if (surface.delete !== undefined) {
    await surface.delete(message);
    return;
  }
  const text = fitted(deps, copy.cancelled);
  await pacedCall(deps, paceKeyOf(surface, 'edit', target), 'edit', () => surface.edit(message, text), {
    priority: 'status',
  });
}

/**
 * Tells the user of a job that waits for a worker where it stands, from
 * ingress, since no worker has it yet to say so: privately where the
 * platform allows (Slack: an ephemeral, which the job's own messages follow
 * when it starts), otherwise as the job's first message (Discord: the
 * deferred answer of a command, a reply to a mention), recorded as the job's
 * first post, so the worker that takes it edits that message into its
 * progress or its answer instead of posting another. A worker that took the
 * job while the place was being posted has not seen it: then it is deleted
 * where the platform allows (a command's deferred answer is the worker's to
 * fill anyway).
 */
export class PlacesInLine {
  readonly #options: PlacesInLineOptions;
  readonly #surfaces = new Map<string, SurfaceFactory>();

  constructor(options: PlacesInLineOptions) {
    this.#options = options;
    for (const factory of options.surfaces) this.#surfaces.set(factory.platform, factory);
  }

  /** The job ended while it waited (its trigger was deleted): its place in line is taken back. */
  async withdrawn(record: JobRecord): Promise<void> {
    const factory = this.#surfaces.get(record.platform);
    if (factory === undefined) return;
    const job = parseChatJob(record);
    const { channels, logger } = this.#options;
    await takeBackFirstPost({ surface: factory.surfaceFor(job), channels, logger }, job, record);
  }

  /** Shows `place` to the job's user; never waits or throws (a failure is logged). */
  show(job: ChatJob, place: number): void {
    this.#show(job, place).catch((error: unknown) =>
      this.#options.logger.warn({ err: error, jobId: job.id }, 'could not show the place in line'),
    );
  }

  async #show(job: ChatJob, place: number): Promise<void> {
    const factory = this.#surfaces.get(job.platform);
    if (factory === undefined) return;
    const { channels, jobs, logger } = this.#options;
    const surface = factory.surfaceFor(job);
    const deps = { surface, channels, logger };
    const target = targetOf(job);
    const words = placeWords(job, place);
    if (await sayPrivately(deps, target, job.userId, words)) return;
    const shown = await say(deps, target, words, 'status');
    const step = { name: POSTED_STEP, index: 0, messageId: shown.messageId };
    if (await jobs.recordStep(job.id, step, { onlyQueued: true })) return;
    logger.info({ jobId: job.id }, 'job started while its place in line was posted: the place is taken back');
    await surface.delete?.(shown);
  }
}
