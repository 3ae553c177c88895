import type { SweepResult } from '@genbot/core/store';
import { iso, type StoreContext } from './store-context.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Retention: content older than the cutoff goes; the usage ledger (counts only) and job outcomes stay. */
export async function sweep({ db, now }: StoreContext, options: { olderThanDays: number }): Promise<SweepResult> {
  if (!(Number.isFinite(options.olderThanDays) && options.olderThanDays >= 0)) {
    throw new RangeError(`olderThanDays must be a number of days, got ${options.olderThanDays}`);
  }
  const at = now();
  const cutoff = iso(new Date(at.getTime() - options.olderThanDays * DAY_MS));
  const inputs = await db
    .updateTable('jobs')
    .set({ input: null })
    .where('created_at', '<', cutoff)
    .where('input', 'is not', null)
    .executeTakeFirst();
  const versions = await db.deleteFrom('image_versions').where('created_at', '<', cutoff).executeTakeFirst();
  const messages = await db.deleteFrom('thread_messages').where('posted_at', '<', cutoff).executeTakeFirst();
  const tokens = await db
    .updateTable('jobs')
    .set({ interaction_token: null, interaction_expires_at: null })
    .where('interaction_expires_at', '<=', iso(at))
    .executeTakeFirst();
  return {
    jobInputsDeleted: Number(inputs.numUpdatedRows),
    imageVersionsDeleted: Number(versions.numDeletedRows),
    threadMessagesDeleted: Number(messages.numDeletedRows),
    interactionTokensDeleted: Number(tokens.numUpdatedRows),
  };
}
