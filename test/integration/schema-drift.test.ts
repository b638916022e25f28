// The entities (src/db/entities) against the migrations: a fresh database, migrated, is what the entities describe, by
// TypeORM's own schema builder (the statements `synchronize` would run: none), with the generated columns' expressions
// compared with PostgreSQL's own. Then the same database changed by hand (a column, an index, a foreign key, a check, a
// default, a generated column) and the builder must see each change, so an empty answer means something. On the
// embedded database and, with DATABASE_URL, on the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate, openDatabase, type Database } from '../../src/db/database.js'
import { ENTITIES } from '../../src/db/entities/index.js'
import { hybridSearchSql, tenantFilter, vectorSearchSql } from '../../src/db/search.repository.js'
import { recordGeneratedColumns } from '../../migrations/1764400001400-GeneratedColumnExpressions.js'
import { freshDatabase, testConfig, type TestDatabase } from '../support/harness.js'

let tdb: TestDatabase
let db: Database
beforeAll(async () => {
  tdb = await freshDatabase()
  db = await openDatabase(testConfig(tdb), { poolSize: 2 })
  await migrate(db)
})
afterAll(async () => {
  await db?.close()
  await tdb?.drop()
})

/**
 * Stored generated columns whose expression TypeORM's record (typeorm_metadata, what the builder compares an entity's
 * expression with) is not what PostgreSQL holds: migration 1764400001400 records them; a later change must too.
 */
async function unrecordedExpressions(): Promise<string[]> {
  const rows: { c: string }[] = await db.dataSource.query(`
    SELECT c.relname || '.' || a.attname AS c
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      LEFT JOIN typeorm_metadata m
        ON m.type = 'GENERATED_COLUMN' AND m.schema = 'public' AND m."table" = c.relname AND m.name = a.attname
     WHERE a.attgenerated = 's' AND c.relnamespace = 'public'::regnamespace
       AND m.value IS DISTINCT FROM pg_get_expr(d.adbin, d.adrelid)
     ORDER BY 1`)
  return rows.map((r) => r.c)
}

/** What TypeORM's schema builder would run to make the database match the entities. */
async function drift(): Promise<string[]> {
  const { upQueries } = await db.dataSource.driver.createSchemaBuilder().log()
  return upQueries.map((q) => q.query)
}

describe('entities and migrations', () => {
  it('every table the migrations create has an entity', async () => {
    const rows: { t: string }[] = await db.dataSource.query(
      `SELECT relname AS t FROM pg_class
        WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'
          AND relname NOT IN ('profiler_migrations', 'typeorm_metadata')
        ORDER BY 1`,
    )
    const described = db.dataSource.entityMetadatas.map((m) => m.tableName).sort()
    expect(described).toEqual(rows.map((r) => r.t))
    expect(ENTITIES).toHaveLength(described.length)
  })

  it("TypeORM's schema builder finds nothing to change after the migrations", async () => {
    expect(await unrecordedExpressions()).toEqual([])
    const queries = await drift()
    expect(queries, `the entities and the migrations differ; synchronize would run:\n${queries.join(';\n')}`).toEqual(
      [],
    )
  })

  it('the indexes the entities leave to the migrations (expressions, operator classes, HNSW) exist', async () => {
    const unsynced = db.dataSource.entityMetadatas.flatMap((m) =>
      m.indices.filter((i) => !i.synchronize).map((i) => `${m.tableName}.${i.name}`),
    )
    expect(unsynced.length).toBeGreaterThan(0)
    const rows: { i: string }[] = await db.dataSource.query(
      `SELECT tablename || '.' || indexname AS i FROM pg_indexes WHERE schemaname = 'public'`,
    )
    const present = new Set(rows.map((r) => r.i))
    expect(unsynced.filter((i) => !present.has(i))).toEqual([])
  })

  it('semantic and hybrid pages walk the HNSW index: their ORDER BY is its expression (EXPLAIN)', async () => {
    const vector = `[${Array.from({ length: 1024 }, (_, i) => (i === 7 ? 1 : 0)).join(',')}]`
    const base = { ...tenantFilter('t'), vector, maxDistance: 0.5, model: 'm' }
    const semantic = vectorSearchSql({ ...base, pageSize: 10, offset: 0 })
    const hybrid = hybridSearchSql({
      ...base,
      lexicalMaxDistance: [0.6, 0.7],
      terms: `'hike'`,
      words: `'hiking'`,
      every: [`'hike'`],
      required: 1,
      limit: 10,
    })
    const plan = async (sql: string, args: unknown[]) =>
      db.dataSource.transaction(async (m) => {
        for (const s of [`enable_seqscan`, `enable_sort`]) await m.query(`SET LOCAL ${s} = off`)
        const rows: Record<string, string>[] = await m.query(`EXPLAIN ${sql}`, args)
        return rows.map((r) => Object.values(r)[0]).join('\n')
      })
    expect(await plan(semantic.page, semantic.args)).toMatch(/Index Scan using profiles_embedding_hnsw/)
    expect(await plan(hybrid.page, hybrid.args)).toMatch(/Index Scan using profiles_embedding_hnsw/)
    const [{ def }]: { def: string }[] = await db.dataSource.query(
      `SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'profiles_embedding_hnsw'`,
    )
    expect(def).toMatch(/halfvec\(1024\)\)?\) halfvec_cosine_ops/)
  })

  // Last: it changes the database.
  it('sees a schema that differs from the entities', async () => {
    for (const sql of [
      `ALTER TABLE apps ALTER COLUMN display_key DROP NOT NULL`,
      `ALTER TABLE tenants ADD COLUMN note text`,
      `ALTER TABLE profiles ALTER COLUMN status SET DEFAULT 'ready'`,
      `ALTER TABLE profiles DROP COLUMN content_bytes`,
      `ALTER TABLE profiles ADD COLUMN content_bytes integer NOT NULL
         GENERATED ALWAYS AS (length(content::text)) STORED`,
      `DROP INDEX submissions_profile`,
      `ALTER TABLE passages DROP CONSTRAINT passages_tenant_id_submission_id_fkey`,
      `ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check`,
      `ALTER TABLE invites ALTER COLUMN uses_left TYPE bigint`,
    ]) {
      await db.dataSource.query(sql)
    }
    // A generated column changed without its record is caught by the record's check; once recorded, by the builder.
    expect(await unrecordedExpressions()).toEqual(['profiles.content_bytes'])
    const qr = db.dataSource.createQueryRunner()
    await recordGeneratedColumns(qr).finally(() => qr.release())
    const queries = (await drift()).join(';\n')
    for (const expected of [
      /ALTER TABLE "apps" ALTER COLUMN "display_key" SET NOT NULL/,
      /ALTER TABLE "tenants" DROP COLUMN "note"/,
      /ALTER TABLE "profiles" ALTER COLUMN "status" SET DEFAULT 'processing'/,
      /ADD "content_bytes" integer GENERATED ALWAYS AS \(octet_length\(\(content\)::text\)\) STORED NOT NULL/,
      /CREATE INDEX "submissions_profile" ON "submissions"/,
      /ADD CONSTRAINT "passages_tenant_id_submission_id_fkey" FOREIGN KEY/,
      /ADD CONSTRAINT "webhook_deliveries_status_check" CHECK/,
      /"invites" ADD "uses_left" integer NOT NULL|"invites" ALTER COLUMN "uses_left" TYPE integer/,
    ]) {
      expect(queries, `expected ${expected} in:\n${queries}`).toMatch(expected)
    }
  })
})
