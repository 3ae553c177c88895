import type { QueuedJob } from '@genbot/core/scheduling';
import { z } from 'zod';

/**
 * The version of the entries this code writes. A deploy that changes what an
 * entry holds raises it and teaches `readEntry` to migrate the older shape,
 * so new workers can take what old ingress processes queued.
 */
export const ENTRY_SCHEMA = 1;

const entryV1 = z.object({
  schema: z.literal(1),
  id: z.string().min(1),
  lane: z.enum(['image', 'stream']),
  platform: z.string().min(1),
  userId: z.string().min(1),
});

const versioned = z.object({ schema: z.number().int().positive() });

export type EntryReading =
  | { kind: 'job'; job: QueuedJob }
  /** Written by a newer deploy: left for a worker that knows its shape. */
  | { kind: 'newer'; schema: number }
  | { kind: 'invalid'; reason: string };

/** What a queue entry holds: the job's routing, never its content. */
export function writeEntry(job: QueuedJob): z.infer<typeof entryV1> {
  return { schema: ENTRY_SCHEMA, id: job.id, lane: job.lane, platform: job.platform, userId: job.userId };
}

/** Parses an entry taken from the queue, whichever deploy wrote it. */
export function readEntry(data: unknown): EntryReading {
  const version = versioned.safeParse(data);
  if (!version.success) return { kind: 'invalid', reason: `no schema version (${z.prettifyError(version.error)})` };
  if (version.data.schema > ENTRY_SCHEMA) return { kind: 'newer', schema: version.data.schema };
  const entry = entryV1.safeParse(data);
  if (!entry.success) return { kind: 'invalid', reason: z.prettifyError(entry.error) };
  const { id, lane, platform, userId } = entry.data;
  return { kind: 'job', job: { id, lane, platform, userId } };
}

/**
 * BullMQ's id for a job: prefixed, so it is never digits only (BullMQ reads
 * those as its own counter), and with `:` and `%` escaped, since `:` separates
 * the parts of BullMQ's Redis keys.
 */
export function bullJobId(id: string): string {
  return `job-${id.replaceAll('%', '%25').replaceAll(':', '%3A')}`;
}

/** The BullMQ queue of one platform's jobs in one lane. */
export function queueName(platform: string, lane: string): string {
  return `genbot-${platform}-${lane}`;
}
