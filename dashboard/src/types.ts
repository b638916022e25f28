/**
 * Names for the GraphQL result types the pages hold on to. They are generated from schema/dashboard.graphql and the
 * documents in ./queries (npm run codegen): a field the schema lacks, or one the documents do not select, is a type
 * error here. The one hand-written shape is the session, which comes from GET /dashboard/session, not GraphQL.
 */
import type {
  AccountFieldsFragment,
  AppFieldsFragment,
  HistoryEntryFieldsFragment,
  ProfileFieldsFragment,
  ProfileStatusChangedSubscription,
  SearchProfilesQuery,
  SubmissionFieldsFragment,
  WebhookDeliveryFieldsFragment,
  WebhookEndpointFieldsFragment,
} from './generated/graphql'

export type { FilterField, SortField, SortOrder, WebhookDeliveryStatus, WebhookEvent } from './generated/graphql'

export type Account = AccountFieldsFragment
export type DashboardApp = AppFieldsFragment
export type Profile = ProfileFieldsFragment
export type Memory = Profile['memories'][number]
export type HistoryEntry = HistoryEntryFieldsFragment
export type Submission = SubmissionFieldsFragment
export type ProfileStatusEvent = ProfileStatusChangedSubscription['profileStatusChanged']
export type SearchResult = SearchProfilesQuery['searchProfiles']
export type WebhookEndpoint = WebhookEndpointFieldsFragment
export type WebhookDelivery = WebhookDeliveryFieldsFragment

export interface SessionState {
  account: Account | null
  csrfToken: string | null
  signUpOpen: boolean
  /** Sign-up needs an invite code (PROFILER_SIGNUP=invite). */
  signUpByInvite: boolean
}
