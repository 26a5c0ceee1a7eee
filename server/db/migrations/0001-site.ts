import { sql, type Kysely } from 'kysely';

/** Site-wide settings: feature switches, banners and free-form settings. */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('system_switch')
    .addColumn('name', 'text', (column) => column.primaryKey())
    .addColumn('enabled', 'boolean', (column) => column.notNull())
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('banner')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('banner_url', 'text', (column) => column.notNull())
    .addColumn('sort', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('active', 'boolean', (column) => column.notNull().defaultTo(true))
    .execute();

  await db.schema
    .createTable('site_setting')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('site_setting').execute();
  await db.schema.dropTable('banner').execute();
  await db.schema.dropTable('system_switch').execute();
}
