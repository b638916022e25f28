import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * The word indexes (GIN) of the passages and of the profiles keep at most 256 kB of new entries in their pending list
 * instead of PostgreSQL's default 4 MB. New entries go to that list, which every search reads through whole, and the
 * insert that overflows it moves all of it into the index in one go. The embedded database has no autovacuum to do that
 * in the background: it was the insert's own statement, on the main thread (an import of 20,000 passages: a few inserts
 * of 156-160 ms where the others took at most 60), and searches right after an import read 223 pending pages. At 256 kB
 * the same import's slowest insert took 60 ms and it took as long in all (34 s). On a server the same smaller batches
 * are merged by autovacuum or an insert, more often and more briefly.
 */
export class GinPendingLists1764400001600 implements MigrationInterface {
  name = 'GinPendingLists1764400001600'

  async up(q: QueryRunner): Promise<void> {
    for (const index of INDEXES) await q.query(`ALTER INDEX ${index} SET (gin_pending_list_limit = ${PENDING_LIST_KB})`)
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of INDEXES) await q.query(`ALTER INDEX ${index} RESET (gin_pending_list_limit)`)
  }
}

const INDEXES = ['passages_tsv', 'profiles_lexemes']
/** The pending list's bound, in kB. */
export const PENDING_LIST_KB = 256
