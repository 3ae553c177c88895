import { type ChatDeps, handleMention, imagine } from '@genbot/core/chat';
import type { ChatSurface } from '@genbot/core/surface';
import type { Logger } from '@genbot/core/log';
import type { BotRuntime } from '@genbot/core/runtime';
import { type ChatJob, type IntakeResult, inputProblem, type JobIntake, type SurfaceFactory } from '@genbot/core/jobs';
import { toChatError } from './discord-errors.js';

/** Job ids remembered against repeats; a gateway re-delivers within seconds, so the recent ones are enough. */
const REMEMBERED_IDS = 10_000;

export interface DirectIntakeOptions {
  runtime: BotRuntime;
  surfaces: SurfaceFactory;
  depsFor(surface: ChatSurface, logger: Logger): ChatDeps;
  logger: Logger;
}

/** Runs the core use case a job names, on the surface given. */
export async function runChatJob(job: ChatJob, deps: ChatDeps, signal: AbortSignal): Promise<void> {
  switch (job.input.kind) {
    case 'imagine':
      await imagine(job.input.imagine, deps, signal);
      return;
    case 'mention':
      await handleMention(job.input.mention, deps, signal);
      return;
  }
}

/**
 * The intake a Discord bot uses when none is given (no store wired in): each
 * job runs at once in this process, on a surface built from the job alone,
 * through the runtime (which refuses new work while stopping, and cancels a
 * mention's job when its message is deleted). A repeated id is one job; a
 * request that makes no sense is answered privately and runs nowhere.
 */
export class DirectIntake implements JobIntake {
  readonly #options: DirectIntakeOptions;
  readonly #seen = new Set<string>();

  constructor(options: DirectIntakeOptions) {
    this.#options = options;
  }

  async submit(job: ChatJob): Promise<IntakeResult> {
    if (this.#seen.has(job.id)) return { accepted: true, duplicate: true };
    const problem = inputProblem(job);
    if (problem !== undefined) return { accepted: false, answer: problem };
    const { runtime, surfaces, depsFor } = this.#options;
    // Ids only: the job holds the interaction token, which must never reach a log.
    const logger = this.#options.logger.child({ jobId: job.id, kind: job.input.kind });
    const admission = runtime.start({
      trigger: job.id,
      run: (signal) => runChatJob(job, depsFor(surfaces.surfaceFor(job), logger), signal),
      onError: (error) => logger.error({ err: toChatError(error) }, 'could not finish the job'),
    });
    if (!admission.accepted) return admission;
    this.#remember(job.id);
    return { accepted: true, duplicate: false };
  }

  #remember(id: string): void {
    this.#seen.add(id);
    // A Set iterates in insertion order: the first entry is the oldest.
    if (this.#seen.size > REMEMBERED_IDS) this.#seen.delete(this.#seen.values().next().value as string);
  }
}
