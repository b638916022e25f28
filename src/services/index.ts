import type { AccountService } from './account.service.js'
import type { AppSchemaService } from './app-schema.service.js'
import type { RequestBudget } from './budget.js'
import type { ExportService } from './export.service.js'
import type { PassageService } from './passage.service.js'
import type { ProcessingService } from './processing.service.js'
import type { ProfileContextService } from './profile-context.service.js'
import type { ProfileEditService } from './profile-edit.service.js'
import type { ProfileService } from './profile.service.js'
import type { ProvenanceService } from './provenance.service.js'
import type { ReextractionService } from './reextraction.service.js'
import type { SearchService } from './search.service.js'
import type { SubmissionService } from './submission.service.js'
import type { TenantService } from './tenant.service.js'
import type { WebhookService } from './webhook.service.js'

export interface Services {
  tenants: TenantService
  accounts: AccountService
  submissions: SubmissionService
  profiles: ProfileService
  /** Forgetting a value, rolling back to a history entry. */
  edits: ProfileEditService
  search: SearchService
  /**
   * Why a profile says a value (its evidence passages), and deleting a submission's evidence (docs/guides/evidence.md).
   */
  provenance: ProvenanceService
  /** A profile as compact text for an LLM prompt, under a token budget. */
  llmContext: ProfileContextService
  /** A profile's evidence passages, paged. */
  passages: PassageService
  processing: ProcessingService
  /**
   * A profile rebuilt from its stored submissions with the current provider, as a diff first
   * (docs/guides/profile-lifecycle.md).
   */
  reextraction: ReextractionService
  /** Export and import (JSON Lines) of a tenant's profiles. */
  exports: ExportService
  webhooks: WebhookService
  /** Custom profile schemas per app. */
  schemas: AppSchemaService
  /** Request budgets shared by every transport (rate per key, failed sign-ins per address, calls per tenant). */
  budget: RequestBudget
}
