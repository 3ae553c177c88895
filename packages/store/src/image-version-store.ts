import {
  type ImageVersion,
  type ImageVersionKey,
  type ImageVersionStore,
  type NewImageVersion,
  type Platform,
  versionRef,
} from '@genbot/core/store';
import type { Kysely, Transaction } from 'kysely';
import { parseVersion } from './rows.js';
import type { Database } from './schema.js';
import { iso, type StoreContext } from './store-context.js';

type Db = Kysely<Database> | Transaction<Database>;

function selectVersion(db: Db, key: ImageVersionKey) {
  return db
    .selectFrom('image_versions')
    .selectAll()
    .where('job_id', '=', key.jobId)
    .where('image_index', '=', key.index)
    .executeTakeFirst();
}

/**
 * A new version's tree and number: the first of its own tree without a
 * parent; its parent's number when it shows the parent again (an undo); else
 * the tree's next. The tree's rows are written first (a no-op update), which
 * takes their locks (PostgreSQL) or the database's write lock (SQLite) before
 * the highest number is read, so two versions made at once in one tree, on
 * any processes, never take the same number.
 */
async function numbered(
  trx: Transaction<Database>,
  version: NewImageVersion,
): Promise<{ tree: string; number: number }> {
  const own = versionRef(version.jobId, version.index);
  const parent = version.parent === undefined ? undefined : await selectVersion(trx, version.parent);
  if (parent === undefined) return { tree: own, number: 1 };
  const tree = parent.tree_ref ?? parent.ref ?? versionRef(parent.job_id, parent.image_index);
  if (version.origin === 'restored') return { tree, number: parent.version_number };
  await trx
    .updateTable('image_versions')
    .set((eb) => ({ tree_ref: eb.ref('tree_ref') }))
    .where('tree_ref', '=', tree)
    .execute();
  const highest = await trx
    .selectFrom('image_versions')
    .select((eb) => eb.fn.max('version_number').as('highest'))
    .where('tree_ref', '=', tree)
    .executeTakeFirst();
  return { tree, number: Math.max(Number(highest?.highest ?? 0), parent.version_number) + 1 };
}

export function createImageVersionStore({ db, now }: StoreContext): ImageVersionStore {
  return {
    async record(version: NewImageVersion): Promise<ImageVersion> {
      const where = {
        platform: version.platform,
        workspace_id: version.workspaceId ?? '',
        channel_id: version.channelId,
        thread_id: version.threadId ?? null,
        message_id: version.messageId ?? null,
        file_id: version.fileId ?? null,
        mime_type: version.mimeType,
        size_bytes: version.sizeBytes,
        sha256: version.sha256,
        parent_job_id: version.parent?.jobId ?? null,
        parent_image_index: version.parent?.index ?? null,
        prompt: version.prompt,
        origin: version.origin ?? (version.parent === undefined ? 'generated' : 'edited'),
        aspect_ratio: version.aspectRatio ?? null,
      };
      const row = await db.transaction().execute(async (trx) => {
        // A write first: SQLite then holds its write lock for the whole transaction (no stale read to upgrade).
        await trx
          .updateTable('image_versions')
          .set((eb) => ({ image_index: eb.ref('image_index') }))
          .where('job_id', '=', version.jobId)
          .where('image_index', '=', version.index)
          .execute();
        const existing = await selectVersion(trx, version);
        if (existing !== undefined) {
          // Recorded before it was posted: the ids come now, the number stays.
          await trx
            .updateTable('image_versions')
            .set(where)
            .where('job_id', '=', version.jobId)
            .where('image_index', '=', version.index)
            .execute();
        } else {
          const { tree, number } = await numbered(trx, version);
          await trx
            .insertInto('image_versions')
            .values({
              job_id: version.jobId,
              image_index: version.index,
              ref: versionRef(version.jobId, version.index),
              ...where,
              version_number: number,
              tree_ref: tree,
              created_at: iso(now()),
            })
            .execute();
        }
        return selectVersion(trx, version);
      });
      if (row === undefined) throw new Error(`image version ${version.jobId}#${version.index} was not recorded`);
      return parseVersion(row);
    },

    async get(key: ImageVersionKey): Promise<ImageVersion | undefined> {
      const row = await selectVersion(db, key);
      return row === undefined ? undefined : parseVersion(row);
    },

    async byRef(ref: string): Promise<ImageVersion | undefined> {
      const row = await db.selectFrom('image_versions').selectAll().where('ref', '=', ref).executeTakeFirst();
      return row === undefined ? undefined : parseVersion(row);
    },

    async byMessage(platform: Platform, channelId: string, messageId: string): Promise<ImageVersion[]> {
      const rows = await db
        .selectFrom('image_versions')
        .selectAll()
        .where('platform', '=', platform)
        .where('channel_id', '=', channelId)
        .where('message_id', '=', messageId)
        .orderBy('image_index')
        .execute();
      return rows.map(parseVersion);
    },

    async latestInThread(platform: Platform, channelId: string, threadId: string): Promise<ImageVersion | undefined> {
      const row = await db
        .selectFrom('image_versions')
        .selectAll()
        .where('platform', '=', platform)
        .where('channel_id', '=', channelId)
        .where('thread_id', '=', threadId)
        // A version still being posted (or whose post failed) is not in the thread yet.
        .where((eb) => eb.or([eb('message_id', 'is not', null), eb('file_id', 'is not', null)]))
        .orderBy('created_at', 'desc')
        .orderBy('image_index', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row === undefined ? undefined : parseVersion(row);
    },
  };
}
