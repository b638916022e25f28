import { InitialSchema1763700000000 } from '../../migrations/1763700000000-InitialSchema.js'
import { SubmissionExtraction1763800000000 } from '../../migrations/1763800000000-SubmissionExtraction.js'
import { Accounts1763900000000 } from '../../migrations/1763900000000-Accounts.js'
import { RateCounters1764100000000 } from '../../migrations/1764100000000-RateCounters.js'
import { Invites1764200000000 } from '../../migrations/1764200000000-Invites.js'
import { StatusEventOrder1764300000000 } from '../../migrations/1764300000000-StatusEventOrder.js'
import { OpenSubmissionsByProfile1764300000001 } from '../../migrations/1764300000001-OpenSubmissionsByProfile.js'
import { Webhooks1764400000000 } from '../../migrations/1764400000000-Webhooks.js'
import { SubmissionTrace1764400000100 } from '../../migrations/1764400000100-SubmissionTrace.js'
import { Retention1764400000200 } from '../../migrations/1764400000200-Retention.js'
import { AppDisplayNames1764400000300 } from '../../migrations/1764400000300-AppDisplayNames.js'
import { SearchLexemes1764400000400 } from '../../migrations/1764400000400-SearchLexemes.js'
import { HistorySnapshots1764400000500 } from '../../migrations/1764400000500-HistorySnapshots.js'
import { SummaryInstructions1764400000600 } from '../../migrations/1764400000600-SummaryInstructions.js'
import { AppSchemas1764400000700 } from '../../migrations/1764400000700-AppSchemas.js'
import { HistoryBounds1764400000800 } from '../../migrations/1764400000800-HistoryBounds.js'
import { ProfileContentBytes1764400000910 } from '../../migrations/1764400000910-ProfileContentBytes.js'
import { SubmissionOccurredAt1764400001000 } from '../../migrations/1764400001000-SubmissionOccurredAt.js'
import { EvidencePassages1764400001100 } from '../../migrations/1764400001100-EvidencePassages.js'
import { CitusDistribution1764400001200 } from '../../migrations/1764400001200-CitusDistribution.js'
import { LoginFailureKey1764400001300 } from '../../migrations/1764400001300-LoginFailureKey.js'
import { GeneratedColumnExpressions1764400001400 } from '../../migrations/1764400001400-GeneratedColumnExpressions.js'
import { HalfPrecisionVectorIndex1764400001500 } from '../../migrations/1764400001500-HalfPrecisionVectorIndex.js'
import { GinPendingLists1764400001600 } from '../../migrations/1764400001600-GinPendingLists.js'
import { TenantWordIndexes1764400001700 } from '../../migrations/1764400001700-TenantWordIndexes.js'
import { DueTenants1764400001800 } from '../../migrations/1764400001800-DueTenants.js'
import { WebhookDue1764400001900 } from '../../migrations/1764400001900-WebhookDue.js'
import { ApiKeyRoutes1764400002000 } from '../../migrations/1764400002000-ApiKeyRoutes.js'
import { RetentionTenants1764400002100 } from '../../migrations/1764400002100-RetentionTenants.js'
import { ApiKeyRouteTimes1764400002200 } from '../../migrations/1764400002200-ApiKeyRouteTimes.js'

/** Every migration, in order. Listed explicitly so the same code runs under tsx, vitest and tsc output. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  SubmissionExtraction1763800000000,
  Accounts1763900000000,
  RateCounters1764100000000,
  Invites1764200000000,
  StatusEventOrder1764300000000,
  OpenSubmissionsByProfile1764300000001,
  Webhooks1764400000000,
  SubmissionTrace1764400000100,
  Retention1764400000200,
  AppDisplayNames1764400000300,
  SearchLexemes1764400000400,
  HistorySnapshots1764400000500,
  SummaryInstructions1764400000600,
  AppSchemas1764400000700,
  HistoryBounds1764400000800,
  ProfileContentBytes1764400000910,
  SubmissionOccurredAt1764400001000,
  EvidencePassages1764400001100,
  CitusDistribution1764400001200,
  LoginFailureKey1764400001300,
  GeneratedColumnExpressions1764400001400,
  HalfPrecisionVectorIndex1764400001500,
  GinPendingLists1764400001600,
  TenantWordIndexes1764400001700,
  DueTenants1764400001800,
  WebhookDue1764400001900,
  ApiKeyRoutes1764400002000,
  RetentionTenants1764400002100,
  ApiKeyRouteTimes1764400002200,
]
