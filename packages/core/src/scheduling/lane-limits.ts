/** The kinds of model call, each with its own limits: image generation/editing, and streamed replies. */
export type JobLane = 'image' | 'stream';

export const JOB_LANES: readonly JobLane[] = ['image', 'stream'];

export interface LaneLimits {
  /** Jobs of the lane running at once, across all users. */
  concurrency: number;
  /** Jobs one user may have running or waiting in the lane. */
  perUser: number;
  /** Jobs waiting in the lane; past it new work is refused. */
  queueLimit: number;
  /** Assumed length of a job until some have finished, for retry estimates. */
  typicalDurationMs: number;
}

export const DEFAULT_LANE_LIMITS: Readonly<Record<JobLane, Readonly<LaneLimits>>> = {
  // Image calls are slow and heavy (megabytes each); streams are light and mostly waiting.
  image: { concurrency: 4, perUser: 2, queueLimit: 50, typicalDurationMs: 20_000 },
  stream: { concurrency: 16, perUser: 2, queueLimit: 50, typicalDurationMs: 10_000 },
};
