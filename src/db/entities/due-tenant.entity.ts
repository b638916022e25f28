import { Column, Entity, PrimaryColumn } from 'typeorm'

/** A tenant that may have work, on a sharded database (src/jobs/due-tenants.ts). */
@Entity('due_tenants')
export class DueTenantEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'due_tenants_pkey' })
  tenant_id!: string

  @Column({ type: 'timestamptz', default: () => 'now()' })
  marked_at!: Date
}
