import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm'

// Properties are named as their columns (snake_case): a row a raw statement returns and a row TypeORM returns are one
// shape, so both are typed by the entity. Constraint and index names are PostgreSQL's, as the migrations made them
// (test/integration/schema-drift.test.ts checks that TypeORM finds nothing to change).

/** A tenant: every other row belongs to one (accounts, apps and all that hangs off them). */
@Entity('tenants')
@Unique('tenants_name_key', ['name'])
export class TenantEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'tenants_pkey' })
  id!: string

  @Column({ type: 'text' })
  name!: string

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date
}

/** An app of a tenant: the API keys, webhooks, custom schema and policies hang off it. */
@Entity('apps')
@Unique('apps_tenant_id_name_key', ['tenant_id', 'name'])
@Index('apps_display_key', ['tenant_id', 'display_key'], { unique: true })
@Check('apps_delete_profiles_after_days_check', 'delete_profiles_after_days > 0')
@Check('apps_drop_submission_text_after_days_check', 'drop_submission_text_after_days > 0')
@Check(
  'apps_summary_instructions_check',
  `jsonb_typeof(summary_instructions) = 'array' AND jsonb_array_length(summary_instructions) <= 5`,
)
@ForeignKey(() => TenantEntity, ['tenant_id'], ['id'], { name: 'apps_tenant_id_fkey', onDelete: 'CASCADE' })
export class AppEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'apps_pkey' })
  tenant_id!: string

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'apps_pkey' })
  id!: string

  /** The slug: the handle scripts and the CLI use. */
  @Column({ type: 'text' })
  name!: string

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date

  /** Days a profile may stay untouched before the retention sweep deletes it; null: never. */
  @Column({ type: 'integer', nullable: true })
  delete_profiles_after_days!: number | null

  /** Days after which a finished submission's text is dropped; null: never. */
  @Column({ type: 'integer', nullable: true })
  drop_submission_text_after_days!: number | null

  /** What a person reads ("My Web App"). */
  @Column({ type: 'text' })
  display_name!: string

  /** The display name in NFKC, lower case (computed by the service): unique in the tenant. */
  @Column({ type: 'text' })
  display_key!: string

  @Column({ type: 'jsonb', default: [] })
  summary_instructions!: string[]

  /** The app's current custom schema (app_schemas.version); null: none. */
  @Column({ type: 'integer', nullable: true })
  schema_version!: number | null
}

/**
 * An API key, stored as the SHA-256 of its secret. Keyed by its public id: the lookup happens before the tenant is
 * known. (On Citus the migration 1764400001200-CitusDistribution makes the key (tenant_id, public_id); nothing here
 * relies on either: every statement names the columns it filters by.)
 */
@Entity('api_keys')
@Index('api_keys_one_live_per_app', ['tenant_id', 'app_id'], { unique: true, where: 'revoked_at IS NULL' })
@ForeignKey(() => AppEntity, ['tenant_id', 'app_id'], ['tenant_id', 'id'], {
  name: 'api_keys_tenant_id_app_id_fkey',
  onDelete: 'CASCADE',
})
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'api_keys_pkey' })
  public_id!: string

  @Column({ type: 'text' })
  tenant_id!: string

  @Column({ type: 'text' })
  app_id!: string

  @Column({ type: 'bytea' })
  key_hash!: Buffer

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at!: Date | null
}
