import type { MigrationInterface, QueryRunner } from 'typeorm'
import { PENDING_LIST_KB } from './1764400001600-GinPendingLists.js'

/**
 * The word indexes (GIN) of the passages and of the profiles lead with the tenant: `(tenant_id, tsv)` and `(tenant_id,
 * lexemes)`, through the btree_gin extension (the tenant id as a GIN key). Before, they held the words alone, so a
 * search found the passages and profiles of every tenant that say its words and only then kept its own tenant's: one
 * tenant whose passages say a common word ("like") a million times made every other tenant's search of that word scan a
 * million entries (about 1 µs each; on the embedded database, on the one thread every tenant shares). With the tenant
 * as a key, the index intersects the tenant's entries with the words' and skips ahead in the longer list, so a search
 * costs what its own tenant holds. A query on the words alone can still use the index. The new indexes keep the pending
 * list of GinPendingLists; the old ones are dropped (two word indexes per table would double their writes).
 *
 * The indexes are built inside the migration: on a large server database it holds writes to the two tables while it
 * builds (`profiler migrate` before the new version serves, as for any migration).
 */
export class TenantWordIndexes1764400001700 implements MigrationInterface {
  name = 'TenantWordIndexes1764400001700'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`)
    for (const i of INDEXES) {
      await q.query(`DROP INDEX IF EXISTS ${i.old}`)
      await q.query(
        `CREATE INDEX ${i.name} ON ${i.table} USING gin (tenant_id, ${i.column}) WITH (gin_pending_list_limit = ${PENDING_LIST_KB})`,
      )
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const i of INDEXES) {
      await q.query(`DROP INDEX IF EXISTS ${i.name}`)
      await q.query(
        `CREATE INDEX ${i.old} ON ${i.table} USING gin (${i.column}) WITH (gin_pending_list_limit = ${PENDING_LIST_KB})`,
      )
    }
  }
}

/** Each word index: its name, the one it replaces, its table and column. */
const INDEXES = [
  { name: 'passages_tenant_tsv', old: 'passages_tsv', table: 'passages', column: 'tsv' },
  { name: 'profiles_tenant_lexemes', old: 'profiles_lexemes', table: 'profiles', column: 'lexemes' },
] as const
