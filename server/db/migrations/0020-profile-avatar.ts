import type { Kysely } from 'kysely';

/**
 * The customer's avatar (`user/infoSubmit`): the id of the re-encoded image in `stored_file`,
 * read back only by its owner through `/v1/waa/file/:id`. Null: no avatar chosen.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('app_user')
    .addColumn('avatar_file_id', 'text', (column) => column.references('stored_file.id'))
    .execute();
}
