// The composition root's wiring, for the launcher, the tests and the benchmarks alike.
export { type Bots, type BotsOptions, startBots } from './bots.js';
export { Opened, type StopLog, type Stoppable, stopAll } from './closing.js';
export {
  type Jobs,
  type JobsDatabase,
  type JobsOptions,
  inMemoryDatabase,
  openedDatabase,
  openJobs,
  type WorkerModels,
} from './jobs.js';
export { databaseReadiness, StoreConnection } from './store-connection.js';
