import type { JobDelivery, JobHandler, JobQueue, ProcessOptions, QueuedJob } from './job-queue.js';
import type { JobLane } from './lane-limits.js';

export interface InProcessQueueOptions {
  /** A handler rejected: the queue does not hand the job out again. */
  onHandlerError?: (job: QueuedJob, error: unknown) => void;
}

/**
 * The default JobQueue: jobs wait in memory, in order, and run in this
 * process. Memory is not where a job survives: the store keeps it, and the
 * worker's resume on start adds back what a stopped process left. Delivery
 * signals never abort here; the runtime's drain aborts the running work.
 */
export class InProcessJobQueue implements JobQueue {
  readonly #waiting: QueuedJob[] = [];
  readonly #running = new Map<string, QueuedJob>();
  readonly #options: InProcessQueueOptions;
  readonly #signal = new AbortController().signal;
  #handler: JobHandler | undefined;
  #process: ProcessOptions | undefined;
  #closed = false;
  #idle: (() => void)[] = [];

  constructor(options: InProcessQueueOptions = {}) {
    this.#options = options;
  }

  async add(job: QueuedJob): Promise<void> {
    if (this.#closed || this.#running.has(job.id) || this.#waiting.some((waiting) => waiting.id === job.id)) return;
    this.#waiting.push(job);
    this.#dispatch();
  }

  process(handler: JobHandler, options: ProcessOptions): void {
    if (this.#handler !== undefined) throw new Error('the queue is processed already');
    this.#handler = handler;
    this.#process = options;
    this.#dispatch();
  }

  async holds(job: QueuedJob): Promise<boolean> {
    return this.#running.has(job.id) || this.#waiting.some((waiting) => waiting.id === job.id);
  }

  async position(id: string): Promise<number | undefined> {
    if (this.#running.has(id)) return 0;
    const job = this.#waiting.find((waiting) => waiting.id === id);
    if (job === undefined) return undefined;
    return this.#waiting.filter((waiting) => waiting.lane === job.lane).indexOf(job) + 1;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#waiting.length = 0;
  }

  /** Resolves once nothing waits or runs (tests, and the bench). */
  idle(): Promise<void> {
    if (this.#running.size === 0 && this.#waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #runningIn(lane: JobLane): number {
    let count = 0;
    for (const job of this.#running.values()) if (job.lane === lane) count += 1;
    return count;
  }

  #dispatch(): void {
    const handler = this.#handler;
    const options = this.#process;
    if (handler === undefined || options === undefined || this.#closed) return;
    for (let index = 0; index < this.#waiting.length; ) {
      const job = this.#waiting[index]!;
      const free = this.#runningIn(job.lane) < options.concurrency[job.lane];
      if (!free || !options.platforms.includes(job.platform)) {
        index += 1;
        continue;
      }
      this.#waiting.splice(index, 1);
      this.#run(handler, job);
    }
  }

  #run(handler: JobHandler, job: QueuedJob): void {
    this.#running.set(job.id, job);
    const delivery: JobDelivery = { job, attempt: 1, signal: this.#signal };
    void (async () => {
      try {
        await handler(delivery);
      } catch (error) {
        this.#options.onHandlerError?.(job, error);
      } finally {
        this.#running.delete(job.id);
        this.#dispatch();
        if (this.#running.size === 0 && this.#waiting.length === 0)
          for (const resolve of this.#idle.splice(0)) resolve();
      }
    })();
  }
}
