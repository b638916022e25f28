import { Column, Entity, Index, PrimaryColumn } from 'typeorm'

/** The tenant and app of a live API key, by its public id: its shard, on a sharded database (tenant.repository.ts). */
@Entity('api_key_routes')
@Index('api_key_routes_app', ['tenant_id', 'app_id'])
export class ApiKeyRouteEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'api_key_routes_pkey' })
  public_id!: string

  @Column({ type: 'text' })
  tenant_id!: string

  @Column({ type: 'text' })
  app_id!: string

  /** When the route was written: what a read of the keys made since looks at (TenantRepository.keyIds). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date
}
