import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * The profiles' HNSW index over their embeddings at half precision (pgvector's halfvec; src/db/profile-vectors.ts):
 * half the pages, and an insert that costs the worker's database less (the index insert was the largest part of its
 * apply). The column keeps full precision. Built for the column's dimension as it stands (the configured embedder's,
 * set by `profiler reindex`); a column without one (never the case: the first migration gives it 1024) keeps no index.
 */
export class HalfPrecisionVectorIndex1764400001500 implements MigrationInterface {
  name = 'HalfPrecisionVectorIndex1764400001500'

  async up(q: QueryRunner): Promise<void> {
    const dimension = await columnDimension(q)
    await q.query(`DROP INDEX IF EXISTS profiles_embedding_hnsw`)
    if (dimension)
      await q.query(
        `CREATE INDEX profiles_embedding_hnsw ON profiles USING hnsw ((embedding::halfvec(${dimension})) halfvec_cosine_ops)`,
      )
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS profiles_embedding_hnsw`)
    await q.query(`CREATE INDEX profiles_embedding_hnsw ON profiles USING hnsw (embedding vector_cosine_ops)`)
  }
}

/** The dimension of profiles.embedding (its type modifier), or null when it has none. */
async function columnDimension(q: QueryRunner): Promise<number | null> {
  const rows: { d: number }[] = await q.query(
    `SELECT a.atttypmod AS d FROM pg_attribute a WHERE a.attrelid = 'profiles'::regclass AND a.attname = 'embedding' AND NOT a.attisdropped`,
  )
  const d = Number(rows[0]?.d ?? -1)
  return Number.isInteger(d) && d > 0 ? d : null
}
