import type { JsonValue } from './json.js';
import type { Platform, StoredPlace } from './where.js';

/** queued: recorded, not yet taken; running: claimed by a worker (again after a crash); finished: see the outcome. */
export type JobState = 'queued' | 'running' | 'finished';

/**
 * How a finished job ended: done; rejected before anything was sent; failed
 * (the user was told); abandoned (too old to resume after a restart, the user
 * was told how to retry).
 */
export type JobOutcome = 'done' | 'rejected' | 'failed' | 'abandoned';

/**
 * A Discord interaction token (follow-ups by webhook for 15 minutes). The
 * store returns it only until `expiresAt`, drops it when the job finishes,
 * and it must never be logged.
 */
export interface InteractionToken {
  token: string;
  expiresAt: Date;
}

/** A job as ingress records it. No bot token, signing secret or API key, here or inside `input`. */
export interface NewJob extends StoredPlace {
  /**
   * From the trigger, so a delivery seen twice is one job: Slack `event_id`,
   * `trigger_id` + action; Discord interaction or message id (prefixed, e.g.
   * `slack-ev-…`, `dc-int-…`).
   */
  id: string;
  /** imagine, converse, edit, …: the store keeps it as given. */
  kind: string;
  /** Version of `input`'s shape, so a newer worker can read, migrate or refuse what an older one queued. */
  schemaVersion: number;
  userId: string;
  input: JsonValue;
  interaction?: InteractionToken | undefined;
  /**
   * At most one unfinished job holds a key (a person's press of one button):
   * recording another while it runs returns that one instead. Released when
   * the job finishes.
   */
  activeKey?: string | undefined;
}

/**
 * A visible step a worker took, recorded before it takes the next, so a job
 * run again resumes instead of posting twice. `name` is the runner's
 * (`progress-posted`, `upload-reserved`, `files-uploaded`, `reply-posted`, …).
 */
export interface NewJobStep {
  name: string;
  messageId?: string | undefined;
  fileIds?: readonly string[] | undefined;
  /** How many files an upload carried (its file ids may be unknown): a job run again numbers its later images on from there. */
  files?: number | undefined;
  /** Which image or reply part the step belongs to, when a job makes several. */
  index?: number | undefined;
}

export interface JobStep extends NewJobStep {
  at: Date;
}

export interface JobRecord extends Omit<NewJob, 'input'> {
  /** `null` once the retention sweep removed it. */
  input: JsonValue | null;
  state: JobState;
  /** How many times a worker claimed it. */
  attempts: number;
  outcome?: JobOutcome | undefined;
  /** A short machine-readable reason for the outcome (an error code), never user text or a secret. */
  outcomeDetail?: string | undefined;
  /** Oldest first. */
  steps: readonly JobStep[];
  createdAt: Date;
  updatedAt: Date;
  startedAt?: Date | undefined;
  finishedAt?: Date | undefined;
}

export interface RecordedJob {
  /** The job as stored; when another unfinished job holds the same `activeKey`, that one. */
  job: JobRecord;
  /**
   * False when a job with this id existed already (the delivery is a repeat
   * and must not run again), or another unfinished job holds its `activeKey`
   * (then `job.id` is that job's).
   */
  created: boolean;
}

export interface JobStore {
  /** Records a job once per id (and once per active key); a repeat returns the job as stored, unchanged. */
  record(job: NewJob): Promise<RecordedJob>;

  get(id: string): Promise<JobRecord | undefined>;

  /**
   * Marks a job running and counts the attempt (a queued job, or a running one
   * whose worker died). Undefined when the job is unknown or finished: a
   * delivery the worker must acknowledge without running.
   */
  claim(id: string): Promise<JobRecord | undefined>;

  /**
   * Appends a step; false when the job is unknown or finished, or, with
   * `onlyQueued`, once a worker has claimed it (a claim reads the steps
   * recorded before it, so a step recorded after it would go unseen).
   */
  recordStep(id: string, step: NewJobStep, options?: { onlyQueued?: boolean }): Promise<boolean>;

  /**
   * Ends a job (and drops its interaction token); false when it is unknown or
   * already finished, or, with `onlyQueued`, once a worker has claimed it.
   */
  finish(id: string, outcome: JobOutcome, detail?: string, options?: { onlyQueued?: boolean }): Promise<boolean>;

  /** Queued and running jobs of these platforms, oldest first: what a process resumes on start. */
  unfinished(platforms: readonly Platform[]): Promise<JobRecord[]>;
}
