/**
 * A second process for the tests: opens the store at argv[2] (migrating it if
 * needed), records job argv[3], and exits 0. Run with `node --import tsx`.
 */
import { openStore } from '../open-store.js';
import { newJob } from './fixtures.js';

const [url, jobId] = process.argv.slice(2);
if (url === undefined || jobId === undefined) throw new Error('usage: open-store-child.ts DATABASE_URL JOB_ID');
const store = await openStore(url);
try {
  await store.jobs.record(newJob(jobId));
} finally {
  await store.close();
}
