import { Column, Entity, Index, PrimaryColumn } from 'typeorm'

/** When a tenant's pending webhook deliveries next need a look, on a sharded database (webhooks/due-index.ts). */
@Entity('webhook_due')
export class WebhookDueEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'webhook_due_pkey' })
  tenant_id!: string

  @Index('webhook_due_due_at')
  @Column({ type: 'timestamptz' })
  due_at!: Date

  /** Raised by every write, so that a look's rescheduling does not overwrite a mark made meanwhile. */
  @Column({ type: 'bigint', default: 0 })
  version!: string
}
