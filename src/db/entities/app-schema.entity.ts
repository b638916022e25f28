import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm'
import type { CustomSchema } from '../../domain/custom-schema.js'
import { AppEntity } from './tenant.entity.js'

/** A version of an app's custom profile schema (apps.schema_version points at the current one). */
@Entity('app_schemas')
@ForeignKey(() => AppEntity, ['tenant_id', 'app_id'], ['tenant_id', 'id'], {
  name: 'app_schemas_tenant_id_app_id_fkey',
  onDelete: 'CASCADE',
})
export class AppSchemaEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'app_schemas_pkey' })
  tenant_id!: string

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'app_schemas_pkey' })
  app_id!: string

  /** Numbered from 1 per app. */
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'app_schemas_pkey' })
  version!: number

  @Column({ type: 'jsonb' })
  schema!: CustomSchema

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date
}
