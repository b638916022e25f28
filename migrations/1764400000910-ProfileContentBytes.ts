import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Each profile's content size as PostgreSQL sends it (`content::text`, UTF-8 bytes), so that a search knows how much a
 * page weighs before it reads it: the page's profiles are read in chunks bounded by it, REST charges the page by it and
 * GraphQL refuses a page over its cap (README "Search").
 *
 * A stored generated column: computed in SQL from what is written by every statement that writes `content` (the
 * worker's apply, forget and rollback, re-extraction, import, a custom schema's drop, and any later writer), with no
 * writer to forget. Adding it computes it for every existing row (the backfill). PostgreSQL (13+) recomputes it only
 * when an UPDATE sets `content`, so the worker's lease updates do not read the content.
 */
export class ProfileContentBytes1764400000910 implements MigrationInterface {
  name = 'ProfileContentBytes1764400000910'

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE profiles ADD COLUMN content_bytes integer NOT NULL GENERATED ALWAYS AS (octet_length(content::text)) STORED`,
    )
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE profiles DROP COLUMN content_bytes`)
  }
}
