import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm'
import { ProfileEntity } from './profile.entity.js'
import { SubmissionEntity } from './submission.entity.js'

/** What a person said, per profile, with the submission it came from and where in it (docs/guides/evidence.md). */
@Entity('passages')
@ForeignKey(() => ProfileEntity, ['tenant_id', 'profile_id'], ['tenant_id', 'profile_id'], {
  name: 'passages_tenant_id_profile_id_fkey',
  onDelete: 'CASCADE',
})
@ForeignKey(() => SubmissionEntity, ['tenant_id', 'submission_id'], ['tenant_id', 'id'], {
  name: 'passages_tenant_id_submission_id_fkey',
  onDelete: 'CASCADE',
})
@Index('passages_profile', ['tenant_id', 'profile_id', 'occurred_at', 'submission_id', 'position'])
@Index('passages_tenant_tsv', ['tenant_id', 'tsv'], { type: 'gin' })
export class PassageEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'passages_pkey' })
  tenant_id!: string

  @Column({ type: 'text' })
  profile_id!: string

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'passages_pkey' })
  submission_id!: string

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'passages_pkey' })
  position!: number

  @Column({ type: 'text', nullable: true })
  speaker!: string | null

  /** What the other side said just before, when the submission was a conversation. */
  @Column({ type: 'text', nullable: true })
  prompt!: string | null

  @Column({ type: 'text' })
  text!: string

  @Column({ type: 'timestamptz' })
  occurred_at!: Date

  /** The text search configuration its words are stemmed with (a regconfig: see REGCONFIG in src/db/database.ts). */
  @Column({ type: 'regconfig' as 'text', default: 'simple' })
  language!: string

  /** Its words in its language and exactly (`simple`), computed by PostgreSQL; written as pg_get_expr prints it. */
  @Column({
    type: 'tsvector',
    generatedType: 'STORED',
    asExpression:
      "(to_tsvector(language, ((COALESCE(prompt, ''::text) || ' '::text) || text)) || " +
      "to_tsvector('simple'::regconfig, ((COALESCE(prompt, ''::text) || ' '::text) || text)))",
    nullable: true,
    insert: false,
    update: false,
  })
  tsv!: string | null

  /** Any dimension: the model that made it is beside it. */
  @Column({ type: 'vector', nullable: true })
  embedding!: number[] | null

  @Column({ type: 'text', nullable: true })
  embedding_model!: string | null

  /** Set while a forgotten value's evidence is kept out of every context and search result. */
  @Column({ type: 'timestamptz', nullable: true })
  hidden_at!: Date | null

  @Column({ type: 'text', nullable: true })
  hidden_by!: string | null

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date
}
