import { AccountEntity, InviteEntity, LoginFailureEntity, SessionEntity } from './account.entity.js'
import { AppSchemaEntity } from './app-schema.entity.js'
import { PassageEntity } from './passage.entity.js'
import { ProfileEntity, ProfileHistoryEntity } from './profile.entity.js'
import { RateCounterEntity } from './rate-counter.entity.js'
import { DueTenantEntity } from './due-tenant.entity.js'
import { SubmissionEntity } from './submission.entity.js'
import { ApiKeyEntity, AppEntity, TenantEntity } from './tenant.entity.js'
import { WebhookDueEntity } from './webhook-due.entity.js'
import { ApiKeyRouteEntity } from './api-key-route.entity.js'
import { RetentionTenantEntity } from './retention-tenant.entity.js'
import { WebhookAttemptEntity, WebhookDeliveryEntity, WebhookEndpointEntity } from './webhook.entity.js'

/**
 * Every table the migrations create, as an entity (not pg-boss's schema, nor profiler_migrations). Loaded with TypeORM
 * by openDatabase (src/db/database.ts), never by the repositories: they name a table through src/db/entities/tables.ts.
 */
export const ENTITIES = [
  TenantEntity,
  AppEntity,
  ApiKeyEntity,
  ProfileEntity,
  ProfileHistoryEntity,
  SubmissionEntity,
  AppSchemaEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  WebhookAttemptEntity,
  PassageEntity,
  AccountEntity,
  SessionEntity,
  InviteEntity,
  LoginFailureEntity,
  RateCounterEntity,
  DueTenantEntity,
  WebhookDueEntity,
  ApiKeyRouteEntity,
  RetentionTenantEntity,
]
