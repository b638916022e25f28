import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * TypeORM keeps the expression of each stored generated column in its own table, typeorm_metadata (which it creates
 * when migrating, as the entities have generated columns: profiles.content_bytes, passages.tsv), and its schema builder
 * compares an entity's expression with the one recorded there. The migrations write SQL, so TypeORM recorded none:
 * recorded here from what PostgreSQL holds (pg_get_expr). A migration that changes a generated column records it again
 * (test/integration/schema-drift.test.ts fails while the record and the column differ).
 */
export class GeneratedColumnExpressions1764400001400 implements MigrationInterface {
  name = 'GeneratedColumnExpressions1764400001400'

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE IF NOT EXISTS typeorm_metadata (type varchar NOT NULL, database varchar, schema varchar, "table" varchar, name varchar, value text)`,
    )
    await recordGeneratedColumns(q)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM typeorm_metadata WHERE type = 'GENERATED_COLUMN' AND schema = current_schema()`)
  }
}

/**
 * Records, in typeorm_metadata, the expression of every stored generated column of the current schema as PostgreSQL
 * prints it.
 */
export async function recordGeneratedColumns(q: QueryRunner): Promise<void> {
  await q.query(`DELETE FROM typeorm_metadata WHERE type = 'GENERATED_COLUMN' AND schema = current_schema()`)
  await q.query(`
    INSERT INTO typeorm_metadata (type, database, schema, "table", name, value)
    SELECT 'GENERATED_COLUMN', current_database(), n.nspname, c.relname, a.attname, pg_get_expr(d.adbin, d.adrelid)
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attgenerated = 's' AND NOT a.attisdropped AND n.nspname = current_schema()`)
}
