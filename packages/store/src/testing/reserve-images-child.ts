/**
 * A second process for the reservation race: opens the store at argv[2] with
 * its clock stopped at argv[3], prints `ready`, and on the first line of its
 * input reserves one image for each job of argv[5...] at once, within a daily
 * limit of argv[4] images for workspace T1; prints how many it got and exits 0.
 * Run with `node --import tsx`.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { openStore } from '../open-store.js';
import { reservationHolder } from './fixtures.js';

const [url, at, limit, ...jobIds] = process.argv.slice(2);
if (url === undefined || at === undefined || limit === undefined) {
  throw new Error('usage: reserve-images-child.ts DATABASE_URL AT LIMIT JOB_ID...');
}
const store = await openStore(url, { now: () => new Date(at) });
try {
  // Connections opened now, not while racing, which would spread the reservations out.
  await Promise.all(jobIds.map(() => store.ping()));
  const input = createInterface({ input: process.stdin });
  process.stdout.write('ready\n');
  await once(input, 'line');
  input.close();
  const limits = [{ scope: { platform: 'slack', workspaceId: 'T1' }, images: Number(limit) }] as const;
  const reserved = await Promise.all(
    jobIds.map((jobId) => store.usage.reserveImages(reservationHolder(jobId), 1, limits)),
  );
  process.stdout.write(`${reserved.filter(Boolean).length}\n`);
} finally {
  await store.close();
}
