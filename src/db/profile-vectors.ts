/**
 * The HNSW index of profiles' embeddings holds them at half precision (pgvector's halfvec): half the pages of the
 * index, and an insert (the worker embeds every profile it applies) that measures distances over half the bytes. The
 * column keeps full precision, so every distance a search shows or compares with a threshold is exact; only the walk of
 * the index, the order in which it offers candidates, is at half precision, and a page is sorted again by its exact
 * distances (as it already was, for relaxed_order's near-ties).
 */
import { MAX_EMBEDDING_DIMENSIONS } from '../domain/embedding.js'

function checked(dimension: number): number {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > MAX_EMBEDDING_DIMENSIONS) {
    throw new Error(`a profile vector index takes 1 to ${MAX_EMBEDDING_DIMENSIONS} dimensions, not ${dimension}`)
  }
  return dimension
}

/** The statement that creates the index, for the column's `dimension`. */
export const profileVectorIndexSql = (dimension: number): string =>
  `CREATE INDEX profiles_embedding_hnsw ON profiles
     USING hnsw ((embedding::halfvec(${checked(dimension)})) halfvec_cosine_ops)`

/**
 * The distance the index orders by, from the profile's embedding to `q` (a parameter of type vector, e.g. `$5`): an
 * ORDER BY of exactly this expression is served by the index.
 */
export const indexedDistance = (q: string, dimension: number): string =>
  `embedding::halfvec(${checked(dimension)}) <=> ${q}::vector::halfvec(${checked(dimension)})`
