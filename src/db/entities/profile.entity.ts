import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm'
import type { ProfileContent, ProfileInternals } from '../../domain/profile.js'
import { TenantEntity } from './tenant.entity.js'

/**
 * A profile: its content (the interface's own shape, jsonb), the scalars kept in columns for filters and sorts, the
 * embedding and search lexemes, the version and history counter, and the worker's lease.
 */
@Entity('profiles')
@Check('profiles_status_check', `status IN ('processing', 'ready')`)
@ForeignKey(() => TenantEntity, ['tenant_id'], ['id'], { name: 'profiles_tenant_id_fkey', onDelete: 'CASCADE' })
@Index('profiles_last_updated', ['tenant_id', 'last_updated', 'profile_id'])
@Index('profiles_created_at', ['tenant_id', 'created_at', 'profile_id'])
@Index('profiles_age', ['tenant_id', 'age', 'profile_id'])
@Index('profiles_tenant_lexemes', ['tenant_id', 'lexemes'], { type: 'gin' })
// Indexes TypeORM cannot describe (expressions, trigram operator classes, pgvector's HNSW): the migrations own them,
// the schema builder leaves them alone, and the drift test checks that they exist.
@Index('profiles_name', { synchronize: false }) // (tenant_id, lower(name), profile_id)
@Index('profiles_location', { synchronize: false }) // (tenant_id, lower(location), profile_id)
@Index('profiles_name_trgm', { synchronize: false }) // gin (lower(name) gin_trgm_ops)
@Index('profiles_location_trgm', { synchronize: false }) // gin (lower(location) gin_trgm_ops)
@Index('profiles_id_trgm', { synchronize: false }) // gin (lower(profile_id) gin_trgm_ops)
// hnsw ((embedding::halfvec(n)) halfvec_cosine_ops): profile-vectors.ts
@Index('profiles_embedding_hnsw', { synchronize: false })
export class ProfileEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'profiles_pkey' })
  tenant_id!: string

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'profiles_pkey' })
  profile_id!: string

  @Column({ type: 'text', default: 'processing' })
  status!: 'processing' | 'ready'

  /** As stored: a row written before a part of the content existed lacks it (toRecord fills the defaults). */
  @Column({ type: 'jsonb', default: {} })
  content!: Partial<ProfileContent>

  @Column({ type: 'jsonb', default: {} })
  field_timestamps!: Record<string, string>

  /** What the merge keeps for itself (never shown); as stored, possibly without parts added since. */
  @Column({ type: 'jsonb', default: {} })
  internals!: Partial<ProfileInternals>

  @Column({ type: 'text', nullable: true })
  summary!: string | null

  /** ISO 639-1 code of the language the person writes in; null when unknown. */
  @Column({ type: 'text', nullable: true })
  language!: string | null

  @Column({ type: 'text', nullable: true })
  name!: string | null

  @Column({ type: 'integer', nullable: true })
  age!: number | null

  @Column({ type: 'text', nullable: true })
  gender!: string | null

  @Column({ type: 'text', nullable: true })
  location!: string | null

  /**
   * The migrations make it vector(1024); a start on an empty database, or `profiler reindex`, changes the dimension to
   * the configured embedder's (EmbeddingRepository.changeDimension).
   */
  @Column({ type: 'vector', length: 1024, nullable: true })
  embedding!: number[] | null

  @Column({ type: 'text', nullable: true })
  embedding_model!: string | null

  @Column({ type: 'integer', default: 0 })
  version!: number

  /** The seq of its newest history entry. */
  @Column({ type: 'integer', default: 0 })
  history_seq!: number

  @Column({ type: 'text', nullable: true })
  claimed_by!: string | null

  @Column({ type: 'timestamptz', nullable: true })
  lease_until!: Date | null

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date

  @Column({ type: 'timestamptz', default: () => 'now()' })
  last_updated!: Date

  /**
   * Its search lexemes (src/domain/lexical.ts), written with the embedding; NULL until a reindex for older profiles.
   */
  @Column({ type: 'tsvector', nullable: true })
  lexemes!: string | null

  /**
   * The content's size as PostgreSQL sends it, computed by PostgreSQL (a stored generated column). The expression is
   * written as PostgreSQL prints it back (pg_get_expr), which is what the drift test compares.
   */
  @Column({
    type: 'integer',
    generatedType: 'STORED',
    asExpression: 'octet_length((content)::text)',
    insert: false,
    update: false,
  })
  content_bytes!: number
}

/** One entry of a profile's history: what changed, from which submissions; the newest keep a snapshot for rollbacks. */
@Entity('profile_history')
@ForeignKey(() => ProfileEntity, ['tenant_id', 'profile_id'], ['tenant_id', 'profile_id'], {
  name: 'profile_history_tenant_id_profile_id_fkey',
  onDelete: 'CASCADE',
})
@Index('profile_history_snapshots', ['tenant_id', 'profile_id', 'seq'], { where: 'snapshot IS NOT NULL' })
export class ProfileHistoryEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'profile_history_pkey' })
  tenant_id!: string

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'profile_history_pkey' })
  profile_id!: string

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'profile_history_pkey' })
  seq!: number

  @Column({ type: 'timestamptz' })
  extracted_on!: Date

  @Column({ type: 'jsonb' })
  changes!: Record<string, unknown>

  @Column({ type: 'jsonb' })
  submission_ids!: string[]

  @Column({ type: 'text' })
  input_type!: string

  /** The profile's state once this entry applied (content, field_timestamps, internals, language); null: none kept. */
  @Column({ type: 'jsonb', nullable: true })
  snapshot!: Record<string, unknown> | null
}
