import { versionRef } from '@genbot/core/store';
import { type Kysely, sql } from 'kysely';

/** Longest parent chain the back-fill of version numbers follows; older rows past it keep a smaller number. */
const BACKFILL_DEPTH = 16;

/**
 * Buttons and the version tree: each image version gets the short opaque id
 * buttons carry (`ref`, unique), how it was made (`origin`), its number in
 * its lineage and its aspect ratio (a re-roll asks for the same); a job may
 * hold an `active_key` (one person's press of one button) that no other
 * unfinished job holds at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('image_versions').addColumn('ref', 'text').execute();
  await db.schema
    .alterTable('image_versions')
    .addColumn('origin', 'text', (col) => col.notNull().defaultTo('generated'))
    .execute();
  await db.schema
    .alterTable('image_versions')
    .addColumn('version_number', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('image_versions').addColumn('aspect_ratio', 'text').execute();
  await sql`update image_versions set origin = 'edited' where parent_job_id is not null`.execute(db);
  for (let depth = 0; depth < BACKFILL_DEPTH; depth += 1) {
    await sql`
      update image_versions set version_number = (
        select p.version_number + 1 from image_versions p
        where p.job_id = image_versions.parent_job_id and p.image_index = image_versions.parent_image_index
      )
      where parent_job_id is not null and version_number <= (
        select p.version_number from image_versions p
        where p.job_id = image_versions.parent_job_id and p.image_index = image_versions.parent_image_index
      )`.execute(db);
  }
  const rows = await sql<{ job_id: string; image_index: number }>`
    select job_id, image_index from image_versions`.execute(db);
  for (const row of rows.rows) {
    await sql`update image_versions set ref = ${versionRef(row.job_id, Number(row.image_index))}
      where job_id = ${row.job_id} and image_index = ${row.image_index}`.execute(db);
  }
  await db.schema.createIndex('image_versions_ref').on('image_versions').column('ref').unique().execute();
  await db.schema.alterTable('jobs').addColumn('active_key', 'text').execute();
  await db.schema.createIndex('jobs_active_key').on('jobs').column('active_key').unique().execute();
}
