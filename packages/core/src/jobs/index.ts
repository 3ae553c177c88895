export type { JobLane, LaneLimits } from './lane-limits.js';
export { DEFAULT_LANE_LIMITS, JOB_LANES } from './lane-limits.js';
export type { JobTask, LaneStats, ScheduleOptions } from './lane.js';
export type { JobSchedulerOptions } from './job-scheduler.js';
export { JobScheduler } from './job-scheduler.js';
export type { JobRejectionReason } from './job-rejected-error.js';
export { JobRejectedError } from './job-rejected-error.js';
export type { CancellationRegistryOptions } from './cancellation-registry.js';
export { CancellationRegistry, CancelledError, cancelledByTrigger } from './cancellation-registry.js';
