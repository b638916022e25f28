import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm'
import type { InputType } from '../../domain/profile.js'
import type { SubmissionStatus } from '../../domain/submission.js'
import { ProfileEntity } from './profile.entity.js'

/** Tokens a submission cost, as the worker stores them (counts may come back as text from older rows). */
export interface StoredUsage {
  promptTokens: number | string
  completionTokens: number | string
  totalTokens: number | string
}

/** What a client sent for a profile, and what became of it (src/domain/submission.ts). */
@Entity('submissions')
@Check('submissions_input_type_check', `input_type IN ('text', 'conversation', 'structured')`)
@Check('submissions_status_check', `status IN ('pending', 'processing', 'done', 'failed')`)
@ForeignKey(() => ProfileEntity, ['tenant_id', 'profile_id'], ['tenant_id', 'profile_id'], {
  name: 'submissions_tenant_id_profile_id_fkey',
  onDelete: 'CASCADE',
})
@Index('submissions_idempotency', ['tenant_id', 'idempotency_key'], {
  unique: true,
  where: 'idempotency_key IS NOT NULL',
})
@Index('submissions_profile', ['tenant_id', 'profile_id', 'seq'])
@Index('submissions_open', ['created_at'], { where: `status IN ('pending', 'processing')` })
@Index('submissions_open_by_profile', ['tenant_id', 'profile_id', 'seq'], {
  where: `status IN ('pending', 'processing')`,
})
@Index('submissions_text_kept', ['tenant_id', 'app_id', 'finished_at'], {
  where: 'data IS NOT NULL AND finished_at IS NOT NULL',
})
export class SubmissionEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'submissions_pkey' })
  tenant_id!: string

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'submissions_pkey' })
  id!: string

  @Column({ type: 'text' })
  profile_id!: string

  /** The order of acceptance (bigint: text in JavaScript). */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', insert: false, update: false })
  seq!: string

  @Column({ type: 'text' })
  input_type!: InputType

  /** Its text; null once retention or an evidence deletion dropped it (or an import left it out). */
  @Column({ type: 'text', nullable: true })
  data!: string | null

  @Column({ type: 'text', default: 'pending' })
  status!: SubmissionStatus

  @Column({ type: 'integer', default: 0 })
  attempts!: number

  @Column({ type: 'text', nullable: true })
  error!: string | null

  /** Not to be tried again before this (a retry's backoff). */
  @Column({ type: 'timestamptz', nullable: true })
  not_before!: Date | null

  @Column({ type: 'text', nullable: true })
  idempotency_key!: string | null

  @Column({ type: 'text', nullable: true })
  request_hash!: string | null

  @Column({ type: 'jsonb', nullable: true })
  usage!: StoredUsage | null

  @Column({ type: 'text', nullable: true })
  prompt_version!: string | null

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date

  @Column({ type: 'timestamptz', nullable: true })
  started_at!: Date | null

  @Column({ type: 'timestamptz', nullable: true })
  finished_at!: Date | null

  /** What the extractor proposed, with the evidence quoted for each value (provenance). */
  @Column({ type: 'jsonb', nullable: true })
  extraction!: unknown

  /** The W3C traceparent of the request that accepted it, when tracing is on. */
  @Column({ type: 'text', nullable: true })
  traceparent!: string | null

  /** The app that sent it (null for submissions made before apps were recorded). */
  @Column({ type: 'text', nullable: true })
  app_id!: string | null

  /** When its text was said or written; null: its acceptance time (created_at). */
  @Column({ type: 'timestamptz', nullable: true })
  occurred_at!: Date | null
}
