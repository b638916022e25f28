import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm'
import type { WebhookEvent, WebhookPayload } from '../../domain/webhooks.js'
import { AppEntity } from './tenant.entity.js'

/** A receiver of an app's events, with its signing secrets (sealed: src/services/webhooks/secrets.ts). */
@Entity('webhook_endpoints')
@ForeignKey(() => AppEntity, ['tenant_id', 'app_id'], ['tenant_id', 'id'], {
  name: 'webhook_endpoints_tenant_id_app_id_fkey',
  onDelete: 'CASCADE',
})
@Index('webhook_endpoints_app', ['tenant_id', 'app_id'])
export class WebhookEndpointEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'webhook_endpoints_pkey' })
  tenant_id!: string

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'webhook_endpoints_pkey' })
  id!: string

  @Column({ type: 'text' })
  app_id!: string

  @Column({ type: 'text' })
  url!: string

  @Column({ type: 'text', nullable: true })
  description!: string | null

  @Column({ type: 'text', array: true })
  events!: WebhookEvent[]

  @Column({ type: 'text' })
  secret!: string

  /** The secret before the last rotation, valid until previous_secret_until. */
  @Column({ type: 'text', nullable: true })
  previous_secret!: string | null

  @Column({ type: 'timestamptz', nullable: true })
  previous_secret_until!: Date | null

  @Column({ type: 'boolean', default: true })
  enabled!: boolean

  @Column({ type: 'text', nullable: true })
  disabled_reason!: string | null

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

/** The outbox and the delivery log in one: an event for one endpoint, sent until delivered or given up. */
@Entity('webhook_deliveries')
@Check('webhook_deliveries_status_check', `status IN ('pending', 'delivered', 'failed')`)
@ForeignKey(() => WebhookEndpointEntity, ['tenant_id', 'endpoint_id'], ['tenant_id', 'id'], {
  name: 'webhook_deliveries_tenant_id_endpoint_id_fkey',
  onDelete: 'CASCADE',
})
@Index('webhook_deliveries_due', ['next_attempt_at'], { where: `status = 'pending'` })
@Index('webhook_deliveries_endpoint', ['tenant_id', 'endpoint_id', 'seq'])
@Index('webhook_deliveries_profile', ['tenant_id', 'profile_id'], { where: 'profile_id IS NOT NULL' })
@Index('webhook_deliveries_finished', ['finished_at'], { where: `status <> 'pending'` })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'webhook_deliveries_pkey' })
  tenant_id!: string

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'webhook_deliveries_pkey' })
  id!: string

  /** The order of insertion, for an endpoint's log pages (bigint: text in JavaScript). */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', insert: false, update: false })
  seq!: string

  @Column({ type: 'text' })
  endpoint_id!: string

  @Column({ type: 'text' })
  event_id!: string

  @Column({ type: 'text' })
  event!: string

  @Column({ type: 'text', nullable: true })
  profile_id!: string | null

  @Column({ type: 'jsonb' })
  payload!: WebhookPayload

  @Column({ type: 'boolean', default: false })
  test!: boolean

  @Column({ type: 'text', default: 'pending' })
  status!: DeliveryStatus

  @Column({ type: 'integer', default: 0 })
  attempts!: number

  @Column({ type: 'timestamptz', nullable: true })
  next_attempt_at!: Date | null

  @Column({ type: 'integer', nullable: true })
  last_status_code!: number | null

  @Column({ type: 'text', nullable: true })
  last_error!: string | null

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date

  @Column({ type: 'timestamptz', nullable: true })
  finished_at!: Date | null
}

/** One attempt at a delivery. */
@Entity('webhook_attempts')
@ForeignKey(() => WebhookDeliveryEntity, ['tenant_id', 'delivery_id'], ['tenant_id', 'id'], {
  name: 'webhook_attempts_tenant_id_delivery_id_fkey',
  onDelete: 'CASCADE',
})
export class WebhookAttemptEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'webhook_attempts_pkey' })
  tenant_id!: string

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'webhook_attempts_pkey' })
  delivery_id!: string

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'webhook_attempts_pkey' })
  attempt!: number

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at!: Date

  @Column({ type: 'integer' })
  duration_ms!: number

  @Column({ type: 'integer', nullable: true })
  status_code!: number | null

  @Column({ type: 'text', nullable: true })
  error!: string | null
}
