import { Column, Entity, PrimaryColumn } from 'typeorm'

/**
 * Request budgets shared by every API process: hits per limiter scope, key and time window. UNLOGGED (counts are
 * worth nothing after a crash), which TypeORM does not describe; the migration says it.
 */
@Entity('rate_counters')
export class RateCounterEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'rate_counters_pkey' })
  scope!: string

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'rate_counters_pkey' })
  key!: string

  /** bigint: text in JavaScript. */
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'rate_counters_pkey' })
  window_id!: string

  @Column({ type: 'integer', default: 0 })
  hits!: number
}
