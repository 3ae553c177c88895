import { versionRef } from '@genbot/core/store';
import { type Kysely, sql } from 'kysely';

/**
 * Version numbers per image tree: every version records the tree it belongs
 * to (`tree_ref`, the ref of its first version), so a new version takes the
 * next number in that tree, whichever branch it grows on. Rows from before
 * keep the numbers they were shown with; the back-fill follows each row's
 * parent chain to its root (a row whose parent is gone starts a tree).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('image_versions').addColumn('tree_ref', 'text').execute();
  const rows = await sql<{
    job_id: string;
    image_index: number;
    parent_job_id: string | null;
    parent_image_index: number | null;
  }>`
    select job_id, image_index, parent_job_id, parent_image_index from image_versions`.execute(db);
  const key = (jobId: string, index: number): string => `${jobId}#${index}`;
  const parents = new Map<string, string | undefined>();
  for (const row of rows.rows) {
    const parent =
      row.parent_job_id === null || row.parent_image_index === null
        ? undefined
        : key(row.parent_job_id, Number(row.parent_image_index));
    parents.set(key(row.job_id, Number(row.image_index)), parent);
  }
  const rootOf = (start: string): string => {
    const seen = new Set([start]);
    let at = start;
    for (;;) {
      const parent = parents.get(at);
      if (parent === undefined || !parents.has(parent) || seen.has(parent)) return at;
      seen.add(parent);
      at = parent;
    }
  };
  for (const row of rows.rows) {
    const index = Number(row.image_index);
    const [rootJob, rootIndex] = splitKey(rootOf(key(row.job_id, index)));
    await sql`update image_versions set tree_ref = ${versionRef(rootJob, rootIndex)}
      where job_id = ${row.job_id} and image_index = ${index}`.execute(db);
  }
  await db.schema.createIndex('image_versions_tree').on('image_versions').column('tree_ref').execute();
}

function splitKey(key: string): [string, number] {
  const at = key.lastIndexOf('#');
  return [key.slice(0, at), Number(key.slice(at + 1))];
}
