import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Hybrid search: each profile's lexemes (its summary and every value, folded and stemmed by the service, see
 * src/domain/lexical.ts) as a tsvector written with the embedding, and a GIN index to find the profiles holding a
 * query's words. Existing profiles get theirs from `profiler reindex` (they are pending while `lexemes` is NULL);
 * until then they are found by the vector alone.
 */
export class SearchLexemes1764400000400 implements MigrationInterface {
  name = 'SearchLexemes1764400000400'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE profiles ADD COLUMN lexemes tsvector`)
    await q.query(`CREATE INDEX profiles_lexemes ON profiles USING gin (lexemes)`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS profiles_lexemes`)
    await q.query(`ALTER TABLE profiles DROP COLUMN lexemes`)
  }
}
