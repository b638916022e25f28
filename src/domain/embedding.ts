/**
 * The most dimensions an embedding model's vectors may have: the profiles' HNSW index holds them at half precision
 * (src/db/profile-vectors.ts), which pgvector indexes up to 4,000 dimensions (at full precision, 2,000).
 */
export const MAX_EMBEDDING_DIMENSIONS = 4000
