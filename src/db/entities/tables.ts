import type { EntityManager, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm'
import type { AccountEntity, InviteEntity, LoginFailureEntity, SessionEntity } from './account.entity.js'
import type { AppSchemaEntity } from './app-schema.entity.js'
import type { PassageEntity } from './passage.entity.js'
import type { ProfileEntity, ProfileHistoryEntity } from './profile.entity.js'
import type { RateCounterEntity } from './rate-counter.entity.js'
import type { DueTenantEntity } from './due-tenant.entity.js'
import type { SubmissionEntity } from './submission.entity.js'
import type { ApiKeyEntity, AppEntity, TenantEntity } from './tenant.entity.js'
import type { WebhookDueEntity } from './webhook-due.entity.js'
import type { ApiKeyRouteEntity } from './api-key-route.entity.js'
import type { RetentionTenantEntity } from './retention-tenant.entity.js'
import type { WebhookAttemptEntity, WebhookDeliveryEntity, WebhookEndpointEntity } from './webhook.entity.js'

/** Each table's entity, by table name. */
export interface Tables {
  tenants: TenantEntity
  apps: AppEntity
  api_keys: ApiKeyEntity
  profiles: ProfileEntity
  profile_history: ProfileHistoryEntity
  submissions: SubmissionEntity
  app_schemas: AppSchemaEntity
  webhook_endpoints: WebhookEndpointEntity
  webhook_deliveries: WebhookDeliveryEntity
  webhook_attempts: WebhookAttemptEntity
  passages: PassageEntity
  accounts: AccountEntity
  sessions: SessionEntity
  invites: InviteEntity
  login_failures: LoginFailureEntity
  rate_counters: RateCounterEntity
  due_tenants: DueTenantEntity
  webhook_due: WebhookDueEntity
  api_key_routes: ApiKeyRouteEntity
  retention_tenants: RetentionTenantEntity
}

/**
 * The repository of a table on the manager of a transaction (or the pool's), typed by its entity. By table name, so
 * that a repository module loads neither the entity classes nor TypeORM: those load with the database, while the
 * embedded one starts (src/db/database.ts), and a CLI command that opens no database loads neither.
 */
export function table<T extends keyof Tables>(manager: EntityManager, name: T): Repository<Tables[T]> {
  return manager.getRepository<Tables[T]>(name)
}

/**
 * Selects columns of the query's entity (as `alias`) under their own names, for getRawMany/getRawOne: rows shaped as
 * the entity.
 */
export function columns<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  alias: string,
  names: readonly (keyof T & string)[],
): SelectQueryBuilder<T> {
  names.forEach((c, i) => (i === 0 ? query.select(`${alias}.${c}`, c) : query.addSelect(`${alias}.${c}`, c)))
  return query
}
