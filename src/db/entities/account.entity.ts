import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm'
import { TenantEntity } from './tenant.entity.js'

/** A dashboard account: it belongs to one tenant. */
@Entity('accounts')
@ForeignKey(() => TenantEntity, ['tenant_id'], ['id'], { name: 'accounts_tenant_id_fkey', onDelete: 'CASCADE' })
@Index('accounts_email', { synchronize: false }) // unique (lower(email)): an expression, which TypeORM cannot describe
export class AccountEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'accounts_pkey' })
  id!: string

  @Column({ type: 'text' })
  email!: string

  @Column({ type: 'text' })
  password_hash!: string

  @Column({ type: 'text' })
  tenant_id!: string

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date

  @Column({ type: 'timestamptz', default: () => 'now()' })
  password_changed_at!: Date
}

/** A dashboard session, stored by the SHA-256 of its token (the cookie holds the token), with its CSRF token. */
@Entity('sessions')
@ForeignKey(() => AccountEntity, ['account_id'], ['id'], { name: 'sessions_account_id_fkey', onDelete: 'CASCADE' })
@Index('sessions_account', ['account_id'])
export class SessionEntity {
  @PrimaryColumn({ type: 'bytea', primaryKeyConstraintName: 'sessions_pkey' })
  token_hash!: Buffer

  @Column({ type: 'text' })
  account_id!: string

  @Column({ type: 'text' })
  csrf_token!: string

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date

  @Column({ type: 'timestamptz' })
  expires_at!: Date
}

/** An invite code for sign-up, stored by its SHA-256; it may name the tenant the new account joins. */
@Entity('invites')
@Check('invites_uses_left_check', 'uses_left >= 0')
@ForeignKey(() => TenantEntity, ['tenant_id'], ['id'], { name: 'invites_tenant_id_fkey', onDelete: 'CASCADE' })
export class InviteEntity {
  @PrimaryColumn({ type: 'bytea', primaryKeyConstraintName: 'invites_pkey' })
  code_hash!: Buffer

  /** null: the new account gets a tenant of its own. */
  @Column({ type: 'text', nullable: true })
  tenant_id!: string | null

  @Column({ type: 'integer' })
  uses_left!: number

  @Column({ type: 'timestamptz', nullable: true })
  expires_at!: Date | null

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date
}

/** A failed sign-in, kept for the login rate limit while it is within the window. */
@Entity('login_failures')
@Index('login_failures_email', ['email', 'at'])
@Index('login_failures_ip', ['ip', 'at'])
export class LoginFailureEntity {
  /**
   * A key of its own (migration 1764400001300-LoginFailureKey): TypeORM needs one, and two failures may share the rest.
   */
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'login_failures_pkey',
  })
  id!: string

  @Column({ type: 'text' })
  email!: string

  @Column({ type: 'text' })
  ip!: string

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at!: Date
}
