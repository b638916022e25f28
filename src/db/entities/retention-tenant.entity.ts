import { Column, Entity, PrimaryColumn } from 'typeorm'

/** A tenant that may have an app with a retention policy: the sweep's list on a sharded database. */
@Entity('retention_tenants')
export class RetentionTenantEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'retention_tenants_pkey' })
  tenant_id!: string

  /** Set again by every policy set, so that the sweep does not drop a tenant marked after it read the mark. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  marked_at!: Date
}
