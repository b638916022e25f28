/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** How a passage was found to support a value: QUOTE, it holds the words the model quoted for it (openai); EXTRACTION, its submission's extraction proposed the value and it holds the value's words; WORDS, it holds every word of the value (no stored extraction says where it was said) */
export type EvidenceMatch =
  | 'EXTRACTION'
  | 'QUOTE'
  | 'WORDS';

export type FilterField =
  | 'AGE'
  | 'GENDER'
  | 'ID'
  | 'LANGUAGE'
  | 'LOCATION'
  | 'NAME'
  | 'STATUS';

export type InputType =
  | 'CONVERSATION'
  | 'STRUCTURED'
  | 'TEXT';

/** A profile status change, or its deletion */
export type ProfileEventStatus =
  | 'DELETED'
  | 'PROCESSING'
  | 'READY';

/** PROCESSING while a submission is pending, READY otherwise */
export type ProfileStatus =
  | 'PROCESSING'
  | 'READY';

export type SearchFilter = {
  field: FilterField;
  /** Case-insensitive partial match; % and _ are literals */
  value: string;
};

export type SearchSort = {
  field: SortField;
  order?: SortOrder;
};

export type SortField =
  | 'AGE'
  | 'CREATED_AT'
  | 'ID'
  | 'LAST_UPDATED'
  | 'LOCATION'
  | 'NAME';

export type SortOrder =
  | 'ASC'
  | 'DESC';

export type SubmissionStatus =
  | 'DONE'
  | 'FAILED'
  | 'PENDING'
  | 'PROCESSING';

/** PENDING until delivered (a 2xx) or given up after the last attempt (FAILED) */
export type WebhookDeliveryStatus =
  | 'DELIVERED'
  | 'FAILED'
  | 'PENDING';

/** An event a webhook endpoint can subscribe to */
export type WebhookEvent =
  | 'PROFILE_DELETED'
  | 'PROFILE_READY'
  | 'SUBMISSION_FAILED';

export type AccountFieldsFragment = { id: string, email: string, tenantId: string, tenantName: string };

export type AppFieldsFragment = { id: string, name: string, displayName: string, createdAt: string, keyPrefix: string | null, keyCreatedAt: string | null, deleteProfilesAfterDays: number | null, dropSubmissionTextAfterDays: number | null, summaryInstructions: Array<string> };

export type HistoryPageFieldsFragment = { entries: Array<{ seq: number, extractedOn: string, changes: Record<string, unknown>, submissionIds: Array<string>, inputType: string }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } };

export type HistoryEntryFieldsFragment = { seq: number, extractedOn: string, changes: Record<string, unknown>, submissionIds: Array<string>, inputType: string };

export type SubmissionPageFieldsFragment = { nodes: Array<{ id: string, inputType: InputType, status: SubmissionStatus, attempts: number, error: string | null, createdAt: string, occurredAt: string, startedAt: string | null, finishedAt: string | null, promptVersion: string | null, hasText: boolean, usage: { totalTokens: number } | null }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } };

export type SubmissionFieldsFragment = { id: string, inputType: InputType, status: SubmissionStatus, attempts: number, error: string | null, createdAt: string, occurredAt: string, startedAt: string | null, finishedAt: string | null, promptVersion: string | null, hasText: boolean, usage: { totalTokens: number } | null };

export type ProfileFieldsFragment = { profileId: string, status: ProfileStatus, language: string | null, summary: string | null, lastUpdated: string, createdAt: string, custom: Record<string, unknown>, coreInfo: { name: { value: string, confidence: number } | null, age: { value: number, confidence: number } | null, gender: { value: string, confidence: number } | null, location: { value: string, confidence: number } | null, occupation: { value: string, confidence: number } | null }, interests: Array<{ category: string, values: Array<{ value: string, confidence: number }> }>, personality: { traits: Array<{ value: string, confidence: number }>, moodTrends: { default: { value: string, confidence: number } | null, recent: { value: string, confidence: number } | null } }, preferences: { conversationStyle: { value: string, confidence: number } | null, topicsToAvoid: Array<{ value: string, confidence: number }> }, pastValues: Array<{ field: string, values: Array<{ value: string, confidence: number, from: string, until: string, lastSaid: string }> }>, memories: Array<{ event: string, date: string | null, importance: string | null, confidence: number | null }>, history: { entries: Array<{ seq: number, extractedOn: string, changes: Record<string, unknown>, submissionIds: Array<string>, inputType: string }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } }, submissions: { nodes: Array<{ id: string, inputType: InputType, status: SubmissionStatus, attempts: number, error: string | null, createdAt: string, occurredAt: string, startedAt: string | null, finishedAt: string | null, promptVersion: string | null, hasText: boolean, usage: { totalTokens: number } | null }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } };

export type SignInMutationVariables = Exact<{
  email: string;
  password: string;
}>;


export type SignInMutation = { signIn: { csrfToken: string, account: { id: string, email: string, tenantId: string, tenantName: string } } };

export type SignUpMutationVariables = Exact<{
  email: string;
  password: string;
  inviteCode?: string | null | undefined;
}>;


export type SignUpMutation = { signUp: { csrfToken: string, account: { id: string, email: string, tenantId: string, tenantName: string } } };

export type SignOutMutationVariables = Exact<{ [key: string]: never; }>;


export type SignOutMutation = { signOut: boolean };

export type ChangePasswordMutationVariables = Exact<{
  currentPassword: string;
  newPassword: string;
}>;


export type ChangePasswordMutation = { changePassword: boolean };

export type AppsQueryVariables = Exact<{ [key: string]: never; }>;


export type AppsQuery = { apps: Array<{ id: string, name: string, displayName: string, createdAt: string, keyPrefix: string | null, keyCreatedAt: string | null, deleteProfilesAfterDays: number | null, dropSubmissionTextAfterDays: number | null, summaryInstructions: Array<string> }> };

export type CreateAppMutationVariables = Exact<{
  name: string;
}>;


export type CreateAppMutation = { createApp: { apiKey: string, app: { id: string, name: string, displayName: string, createdAt: string, keyPrefix: string | null, keyCreatedAt: string | null, deleteProfilesAfterDays: number | null, dropSubmissionTextAfterDays: number | null, summaryInstructions: Array<string> } } };

export type RotateAppKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RotateAppKeyMutation = { rotateAppKey: { apiKey: string, app: { id: string, name: string, displayName: string, createdAt: string, keyPrefix: string | null, keyCreatedAt: string | null, deleteProfilesAfterDays: number | null, dropSubmissionTextAfterDays: number | null, summaryInstructions: Array<string> } } };

export type RenameAppMutationVariables = Exact<{
  id: string | number;
  name?: string | null | undefined;
}>;


export type RenameAppMutation = { renameApp: { id: string, name: string, displayName: string, createdAt: string, keyPrefix: string | null, keyCreatedAt: string | null, deleteProfilesAfterDays: number | null, dropSubmissionTextAfterDays: number | null, summaryInstructions: Array<string> } };

export type SetAppRetentionMutationVariables = Exact<{
  id: string | number;
  deleteProfilesAfterDays?: number | null | undefined;
  dropSubmissionTextAfterDays?: number | null | undefined;
}>;


export type SetAppRetentionMutation = { setAppRetention: { id: string, name: string, displayName: string, createdAt: string, keyPrefix: string | null, keyCreatedAt: string | null, deleteProfilesAfterDays: number | null, dropSubmissionTextAfterDays: number | null, summaryInstructions: Array<string> } };

export type SetAppSummaryInstructionsMutationVariables = Exact<{
  id: string | number;
  instructions: Array<string> | string;
}>;


export type SetAppSummaryInstructionsMutation = { setAppSummaryInstructions: { id: string, name: string, displayName: string, createdAt: string, keyPrefix: string | null, keyCreatedAt: string | null, deleteProfilesAfterDays: number | null, dropSubmissionTextAfterDays: number | null, summaryInstructions: Array<string> } };

export type AppCustomSchemaQueryVariables = Exact<{
  appId: string | number;
}>;


export type AppCustomSchemaQuery = { customSchema: { appId: string, version: number, schema: Record<string, unknown>, createdAt: string | null }, customSchemaVersions: Array<{ version: number, createdAt: string | null }> };

export type SetAppCustomSchemaMutationVariables = Exact<{
  appId: string | number;
  schema: Record<string, unknown>;
}>;


export type SetAppCustomSchemaMutation = { setCustomSchema: { appId: string, version: number, schema: Record<string, unknown>, createdAt: string | null, changed: boolean, droppedFields: Array<string>, profilesUpdated: number } };

export type RevokeAppKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeAppKeyMutation = { revokeAppKey: { id: string, name: string, displayName: string, createdAt: string, keyPrefix: string | null, keyCreatedAt: string | null, deleteProfilesAfterDays: number | null, dropSubmissionTextAfterDays: number | null, summaryInstructions: Array<string> } };

export type DeleteAppMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteAppMutation = { deleteApp: boolean };

export type WebhookEndpointFieldsFragment = { id: string, appId: string, url: string, description: string | null, events: Array<WebhookEvent>, enabled: boolean, disabledReason: string | null, previousSecretExpiresAt: string | null, createdAt: string };

export type WebhookDeliveryFieldsFragment = { id: string, eventId: string, event: string, profileId: string | null, test: boolean, status: WebhookDeliveryStatus, attempts: number, nextAttemptAt: string | null, lastStatusCode: number | null, lastError: string | null, createdAt: string, finishedAt: string | null };

export type WebhookEndpointsQueryVariables = Exact<{
  appId: string | number;
}>;


export type WebhookEndpointsQuery = { webhookEndpoints: Array<{ id: string, appId: string, url: string, description: string | null, events: Array<WebhookEvent>, enabled: boolean, disabledReason: string | null, previousSecretExpiresAt: string | null, createdAt: string }> };

export type WebhookDeliveriesQueryVariables = Exact<{
  endpointId: string | number;
  status?: WebhookDeliveryStatus | null | undefined;
  after?: string | null | undefined;
}>;


export type WebhookDeliveriesQuery = { webhookDeliveries: { nodes: Array<{ id: string, eventId: string, event: string, profileId: string | null, test: boolean, status: WebhookDeliveryStatus, attempts: number, nextAttemptAt: string | null, lastStatusCode: number | null, lastError: string | null, createdAt: string, finishedAt: string | null }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } };

export type CreateWebhookMutationVariables = Exact<{
  appId: string | number;
  url: string;
  events: Array<WebhookEvent> | WebhookEvent;
}>;


export type CreateWebhookMutation = { createWebhookEndpoint: { secret: string, endpoint: { id: string, appId: string, url: string, description: string | null, events: Array<WebhookEvent>, enabled: boolean, disabledReason: string | null, previousSecretExpiresAt: string | null, createdAt: string } } };

export type UpdateWebhookMutationVariables = Exact<{
  id: string | number;
  enabled?: boolean | null | undefined;
}>;


export type UpdateWebhookMutation = { updateWebhookEndpoint: { id: string, appId: string, url: string, description: string | null, events: Array<WebhookEvent>, enabled: boolean, disabledReason: string | null, previousSecretExpiresAt: string | null, createdAt: string } };

export type DeleteWebhookMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteWebhookMutation = { deleteWebhookEndpoint: boolean };

export type RotateWebhookSecretMutationVariables = Exact<{
  id: string | number;
}>;


export type RotateWebhookSecretMutation = { rotateWebhookSecret: { secret: string, endpoint: { id: string, appId: string, url: string, description: string | null, events: Array<WebhookEvent>, enabled: boolean, disabledReason: string | null, previousSecretExpiresAt: string | null, createdAt: string } } };

export type SendTestWebhookMutationVariables = Exact<{
  id: string | number;
}>;


export type SendTestWebhookMutation = { sendTestWebhook: { id: string, eventId: string, event: string, profileId: string | null, test: boolean, status: WebhookDeliveryStatus, attempts: number, nextAttemptAt: string | null, lastStatusCode: number | null, lastError: string | null, createdAt: string, finishedAt: string | null } };

export type RedeliverWebhookMutationVariables = Exact<{
  id: string | number;
}>;


export type RedeliverWebhookMutation = { redeliverWebhook: { id: string, eventId: string, event: string, profileId: string | null, test: boolean, status: WebhookDeliveryStatus, attempts: number, nextAttemptAt: string | null, lastStatusCode: number | null, lastError: string | null, createdAt: string, finishedAt: string | null } };

export type SearchProfilesQueryVariables = Exact<{
  query?: string | null | undefined;
  sensitivity?: number | null | undefined;
  filter?: SearchFilter | null | undefined;
  sort?: SearchSort | null | undefined;
  page?: number | null | undefined;
  pageSize?: number | null | undefined;
}>;


export type SearchProfilesQuery = { searchProfiles: { total: number, page: number, pageSize: number, profiles: Array<{ similarityScore: number | null, profile: { profileId: string, status: ProfileStatus, lastUpdated: string, coreInfo: { name: { value: string } | null } } }> } };

export type ProfileQueryVariables = Exact<{
  id: string | number;
}>;


export type ProfileQuery = { profile: { profileId: string, status: ProfileStatus, language: string | null, summary: string | null, lastUpdated: string, createdAt: string, custom: Record<string, unknown>, coreInfo: { name: { value: string, confidence: number } | null, age: { value: number, confidence: number } | null, gender: { value: string, confidence: number } | null, location: { value: string, confidence: number } | null, occupation: { value: string, confidence: number } | null }, interests: Array<{ category: string, values: Array<{ value: string, confidence: number }> }>, personality: { traits: Array<{ value: string, confidence: number }>, moodTrends: { default: { value: string, confidence: number } | null, recent: { value: string, confidence: number } | null } }, preferences: { conversationStyle: { value: string, confidence: number } | null, topicsToAvoid: Array<{ value: string, confidence: number }> }, pastValues: Array<{ field: string, values: Array<{ value: string, confidence: number, from: string, until: string, lastSaid: string }> }>, memories: Array<{ event: string, date: string | null, importance: string | null, confidence: number | null }>, history: { entries: Array<{ seq: number, extractedOn: string, changes: Record<string, unknown>, submissionIds: Array<string>, inputType: string }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } }, submissions: { nodes: Array<{ id: string, inputType: InputType, status: SubmissionStatus, attempts: number, error: string | null, createdAt: string, occurredAt: string, startedAt: string | null, finishedAt: string | null, promptVersion: string | null, hasText: boolean, usage: { totalTokens: number } | null }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } } | null };

export type ProfileHistoryQueryVariables = Exact<{
  id: string | number;
  after?: string | null | undefined;
}>;


export type ProfileHistoryQuery = { profile: { profileId: string, history: { entries: Array<{ seq: number, extractedOn: string, changes: Record<string, unknown>, submissionIds: Array<string>, inputType: string }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } } | null };

export type ProfileSubmissionsQueryVariables = Exact<{
  id: string | number;
  after?: string | null | undefined;
}>;


export type ProfileSubmissionsQuery = { profile: { profileId: string, submissions: { nodes: Array<{ id: string, inputType: InputType, status: SubmissionStatus, attempts: number, error: string | null, createdAt: string, occurredAt: string, startedAt: string | null, finishedAt: string | null, promptVersion: string | null, hasText: boolean, usage: { totalTokens: number } | null }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } } | null };

export type ProfileEvidenceQueryVariables = Exact<{
  id: string | number;
  field: string;
  value: string;
  category?: string | null | undefined;
}>;


export type ProfileEvidenceQuery = { profile: { profileId: string, evidence: { extractionsRead: number, passages: Array<{ submissionId: string, position: number, prompt: string | null, text: string, occurredAt: string, match: EvidenceMatch }>, sources: Array<{ submissionId: string, quote: string | null }> } } | null };

export type ProfileContextQueryVariables = Exact<{
  id: string | number;
  maxTokens: number;
  query?: string | null | undefined;
}>;


export type ProfileContextQuery = { profile: { profileId: string, context: { text: string, tokens: number, maxTokens: number, encoding: string, factsIncluded: number, factsTotal: number, summaryIncluded: boolean, truncated: boolean, rankedBy: string } } | null };

export type ReextractProfileMutationVariables = Exact<{
  id: string | number;
  dryRun: boolean;
  expectedVersion?: number | null | undefined;
}>;


export type ReextractProfileMutation = { reextractProfile: { profileId: string, dryRun: boolean, applied: boolean, version: number, newVersion: number | null, changed: boolean, changes: Record<string, unknown>, summary: string, reextracted: number, skippedWithoutText: number, batches: number } };

export type DeleteProfileMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteProfileMutation = { deleteProfile: boolean };

export type ForgetValueMutationVariables = Exact<{
  id: string | number;
  section: string;
  value: string;
  category?: string | null | undefined;
}>;


export type ForgetValueMutation = { forgetProfileValue: { profileId: string, status: ProfileStatus, language: string | null, summary: string | null, lastUpdated: string, createdAt: string, custom: Record<string, unknown>, coreInfo: { name: { value: string, confidence: number } | null, age: { value: number, confidence: number } | null, gender: { value: string, confidence: number } | null, location: { value: string, confidence: number } | null, occupation: { value: string, confidence: number } | null }, interests: Array<{ category: string, values: Array<{ value: string, confidence: number }> }>, personality: { traits: Array<{ value: string, confidence: number }>, moodTrends: { default: { value: string, confidence: number } | null, recent: { value: string, confidence: number } | null } }, preferences: { conversationStyle: { value: string, confidence: number } | null, topicsToAvoid: Array<{ value: string, confidence: number }> }, pastValues: Array<{ field: string, values: Array<{ value: string, confidence: number, from: string, until: string, lastSaid: string }> }>, memories: Array<{ event: string, date: string | null, importance: string | null, confidence: number | null }>, history: { entries: Array<{ seq: number, extractedOn: string, changes: Record<string, unknown>, submissionIds: Array<string>, inputType: string }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } }, submissions: { nodes: Array<{ id: string, inputType: InputType, status: SubmissionStatus, attempts: number, error: string | null, createdAt: string, occurredAt: string, startedAt: string | null, finishedAt: string | null, promptVersion: string | null, hasText: boolean, usage: { totalTokens: number } | null }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } } };

export type DeleteSubmissionEvidenceMutationVariables = Exact<{
  profileId: string | number;
  submissionId: string | number;
}>;


export type DeleteSubmissionEvidenceMutation = { deleteSubmissionEvidence: { submissionId: string, passagesDeleted: number, textDeleted: boolean } };

export type RollbackProfileMutationVariables = Exact<{
  id: string | number;
  toSeq: number;
}>;


export type RollbackProfileMutation = { rollbackProfile: { profileId: string, status: ProfileStatus, language: string | null, summary: string | null, lastUpdated: string, createdAt: string, custom: Record<string, unknown>, coreInfo: { name: { value: string, confidence: number } | null, age: { value: number, confidence: number } | null, gender: { value: string, confidence: number } | null, location: { value: string, confidence: number } | null, occupation: { value: string, confidence: number } | null }, interests: Array<{ category: string, values: Array<{ value: string, confidence: number }> }>, personality: { traits: Array<{ value: string, confidence: number }>, moodTrends: { default: { value: string, confidence: number } | null, recent: { value: string, confidence: number } | null } }, preferences: { conversationStyle: { value: string, confidence: number } | null, topicsToAvoid: Array<{ value: string, confidence: number }> }, pastValues: Array<{ field: string, values: Array<{ value: string, confidence: number, from: string, until: string, lastSaid: string }> }>, memories: Array<{ event: string, date: string | null, importance: string | null, confidence: number | null }>, history: { entries: Array<{ seq: number, extractedOn: string, changes: Record<string, unknown>, submissionIds: Array<string>, inputType: string }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } }, submissions: { nodes: Array<{ id: string, inputType: InputType, status: SubmissionStatus, attempts: number, error: string | null, createdAt: string, occurredAt: string, startedAt: string | null, finishedAt: string | null, promptVersion: string | null, hasText: boolean, usage: { totalTokens: number } | null }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } } };

export type ProfileStatusChangedSubscriptionVariables = Exact<{
  id: string | number;
}>;


export type ProfileStatusChangedSubscription = { profileStatusChanged: { profileId: string, status: ProfileEventStatus, profile: { profileId: string, status: ProfileStatus, language: string | null, summary: string | null, lastUpdated: string, createdAt: string, custom: Record<string, unknown>, coreInfo: { name: { value: string, confidence: number } | null, age: { value: number, confidence: number } | null, gender: { value: string, confidence: number } | null, location: { value: string, confidence: number } | null, occupation: { value: string, confidence: number } | null }, interests: Array<{ category: string, values: Array<{ value: string, confidence: number }> }>, personality: { traits: Array<{ value: string, confidence: number }>, moodTrends: { default: { value: string, confidence: number } | null, recent: { value: string, confidence: number } | null } }, preferences: { conversationStyle: { value: string, confidence: number } | null, topicsToAvoid: Array<{ value: string, confidence: number }> }, pastValues: Array<{ field: string, values: Array<{ value: string, confidence: number, from: string, until: string, lastSaid: string }> }>, memories: Array<{ event: string, date: string | null, importance: string | null, confidence: number | null }>, history: { entries: Array<{ seq: number, extractedOn: string, changes: Record<string, unknown>, submissionIds: Array<string>, inputType: string }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } }, submissions: { nodes: Array<{ id: string, inputType: InputType, status: SubmissionStatus, attempts: number, error: string | null, createdAt: string, occurredAt: string, startedAt: string | null, finishedAt: string | null, promptVersion: string | null, hasText: boolean, usage: { totalTokens: number } | null }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } } | null } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const AccountFieldsFragmentDoc = new TypedDocumentString(`
    fragment AccountFields on Account {
  id
  email
  tenantId
  tenantName
}
    `, {"fragmentName":"AccountFields"}) as unknown as TypedDocumentString<AccountFieldsFragment, unknown>;
export const AppFieldsFragmentDoc = new TypedDocumentString(`
    fragment AppFields on DashboardApp {
  id
  name
  displayName
  createdAt
  keyPrefix
  keyCreatedAt
  deleteProfilesAfterDays
  dropSubmissionTextAfterDays
  summaryInstructions
}
    `, {"fragmentName":"AppFields"}) as unknown as TypedDocumentString<AppFieldsFragment, unknown>;
export const HistoryEntryFieldsFragmentDoc = new TypedDocumentString(`
    fragment HistoryEntryFields on UpdateLogEntry {
  seq
  extractedOn
  changes
  submissionIds
  inputType
}
    `, {"fragmentName":"HistoryEntryFields"}) as unknown as TypedDocumentString<HistoryEntryFieldsFragment, unknown>;
export const HistoryPageFieldsFragmentDoc = new TypedDocumentString(`
    fragment HistoryPageFields on HistoryPage {
  entries {
    ...HistoryEntryFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
    fragment HistoryEntryFields on UpdateLogEntry {
  seq
  extractedOn
  changes
  submissionIds
  inputType
}`, {"fragmentName":"HistoryPageFields"}) as unknown as TypedDocumentString<HistoryPageFieldsFragment, unknown>;
export const SubmissionFieldsFragmentDoc = new TypedDocumentString(`
    fragment SubmissionFields on Submission {
  id
  inputType
  status
  attempts
  error
  createdAt
  occurredAt
  startedAt
  finishedAt
  promptVersion
  hasText
  usage {
    totalTokens
  }
}
    `, {"fragmentName":"SubmissionFields"}) as unknown as TypedDocumentString<SubmissionFieldsFragment, unknown>;
export const SubmissionPageFieldsFragmentDoc = new TypedDocumentString(`
    fragment SubmissionPageFields on SubmissionPage {
  nodes {
    ...SubmissionFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
    fragment SubmissionFields on Submission {
  id
  inputType
  status
  attempts
  error
  createdAt
  occurredAt
  startedAt
  finishedAt
  promptVersion
  hasText
  usage {
    totalTokens
  }
}`, {"fragmentName":"SubmissionPageFields"}) as unknown as TypedDocumentString<SubmissionPageFieldsFragment, unknown>;
export const ProfileFieldsFragmentDoc = new TypedDocumentString(`
    fragment ProfileFields on Profile {
  profileId
  status
  language
  summary
  lastUpdated
  createdAt
  coreInfo {
    name {
      value
      confidence
    }
    age {
      value
      confidence
    }
    gender {
      value
      confidence
    }
    location {
      value
      confidence
    }
    occupation {
      value
      confidence
    }
  }
  interests {
    category
    values {
      value
      confidence
    }
  }
  personality {
    traits {
      value
      confidence
    }
    moodTrends {
      default {
        value
        confidence
      }
      recent {
        value
        confidence
      }
    }
  }
  preferences {
    conversationStyle {
      value
      confidence
    }
    topicsToAvoid {
      value
      confidence
    }
  }
  custom
  pastValues {
    field
    values {
      value
      confidence
      from
      until
      lastSaid
    }
  }
  memories {
    event
    date
    importance
    confidence
  }
  history(first: 20) {
    ...HistoryPageFields
  }
  submissions(first: 20) {
    ...SubmissionPageFields
  }
}
    fragment HistoryPageFields on HistoryPage {
  entries {
    ...HistoryEntryFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment HistoryEntryFields on UpdateLogEntry {
  seq
  extractedOn
  changes
  submissionIds
  inputType
}
fragment SubmissionPageFields on SubmissionPage {
  nodes {
    ...SubmissionFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment SubmissionFields on Submission {
  id
  inputType
  status
  attempts
  error
  createdAt
  occurredAt
  startedAt
  finishedAt
  promptVersion
  hasText
  usage {
    totalTokens
  }
}`, {"fragmentName":"ProfileFields"}) as unknown as TypedDocumentString<ProfileFieldsFragment, unknown>;
export const WebhookEndpointFieldsFragmentDoc = new TypedDocumentString(`
    fragment WebhookEndpointFields on WebhookEndpoint {
  id
  appId
  url
  description
  events
  enabled
  disabledReason
  previousSecretExpiresAt
  createdAt
}
    `, {"fragmentName":"WebhookEndpointFields"}) as unknown as TypedDocumentString<WebhookEndpointFieldsFragment, unknown>;
export const WebhookDeliveryFieldsFragmentDoc = new TypedDocumentString(`
    fragment WebhookDeliveryFields on WebhookDelivery {
  id
  eventId
  event
  profileId
  test
  status
  attempts
  nextAttemptAt
  lastStatusCode
  lastError
  createdAt
  finishedAt
}
    `, {"fragmentName":"WebhookDeliveryFields"}) as unknown as TypedDocumentString<WebhookDeliveryFieldsFragment, unknown>;
export const SignInDocument = new TypedDocumentString(`
    mutation SignIn($email: String!, $password: String!) {
  signIn(email: $email, password: $password) {
    account {
      ...AccountFields
    }
    csrfToken
  }
}
    fragment AccountFields on Account {
  id
  email
  tenantId
  tenantName
}`) as unknown as TypedDocumentString<SignInMutation, SignInMutationVariables>;
export const SignUpDocument = new TypedDocumentString(`
    mutation SignUp($email: String!, $password: String!, $inviteCode: String) {
  signUp(email: $email, password: $password, inviteCode: $inviteCode) {
    account {
      ...AccountFields
    }
    csrfToken
  }
}
    fragment AccountFields on Account {
  id
  email
  tenantId
  tenantName
}`) as unknown as TypedDocumentString<SignUpMutation, SignUpMutationVariables>;
export const SignOutDocument = new TypedDocumentString(`
    mutation SignOut {
  signOut
}
    `) as unknown as TypedDocumentString<SignOutMutation, SignOutMutationVariables>;
export const ChangePasswordDocument = new TypedDocumentString(`
    mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
  changePassword(currentPassword: $currentPassword, newPassword: $newPassword)
}
    `) as unknown as TypedDocumentString<ChangePasswordMutation, ChangePasswordMutationVariables>;
export const AppsDocument = new TypedDocumentString(`
    query Apps {
  apps {
    ...AppFields
  }
}
    fragment AppFields on DashboardApp {
  id
  name
  displayName
  createdAt
  keyPrefix
  keyCreatedAt
  deleteProfilesAfterDays
  dropSubmissionTextAfterDays
  summaryInstructions
}`) as unknown as TypedDocumentString<AppsQuery, AppsQueryVariables>;
export const CreateAppDocument = new TypedDocumentString(`
    mutation CreateApp($name: String!) {
  createApp(name: $name) {
    app {
      ...AppFields
    }
    apiKey
  }
}
    fragment AppFields on DashboardApp {
  id
  name
  displayName
  createdAt
  keyPrefix
  keyCreatedAt
  deleteProfilesAfterDays
  dropSubmissionTextAfterDays
  summaryInstructions
}`) as unknown as TypedDocumentString<CreateAppMutation, CreateAppMutationVariables>;
export const RotateAppKeyDocument = new TypedDocumentString(`
    mutation RotateAppKey($id: ID!) {
  rotateAppKey(id: $id) {
    app {
      ...AppFields
    }
    apiKey
  }
}
    fragment AppFields on DashboardApp {
  id
  name
  displayName
  createdAt
  keyPrefix
  keyCreatedAt
  deleteProfilesAfterDays
  dropSubmissionTextAfterDays
  summaryInstructions
}`) as unknown as TypedDocumentString<RotateAppKeyMutation, RotateAppKeyMutationVariables>;
export const RenameAppDocument = new TypedDocumentString(`
    mutation RenameApp($id: ID!, $name: String) {
  renameApp(id: $id, name: $name) {
    ...AppFields
  }
}
    fragment AppFields on DashboardApp {
  id
  name
  displayName
  createdAt
  keyPrefix
  keyCreatedAt
  deleteProfilesAfterDays
  dropSubmissionTextAfterDays
  summaryInstructions
}`) as unknown as TypedDocumentString<RenameAppMutation, RenameAppMutationVariables>;
export const SetAppRetentionDocument = new TypedDocumentString(`
    mutation SetAppRetention($id: ID!, $deleteProfilesAfterDays: Int, $dropSubmissionTextAfterDays: Int) {
  setAppRetention(
    id: $id
    deleteProfilesAfterDays: $deleteProfilesAfterDays
    dropSubmissionTextAfterDays: $dropSubmissionTextAfterDays
  ) {
    ...AppFields
  }
}
    fragment AppFields on DashboardApp {
  id
  name
  displayName
  createdAt
  keyPrefix
  keyCreatedAt
  deleteProfilesAfterDays
  dropSubmissionTextAfterDays
  summaryInstructions
}`) as unknown as TypedDocumentString<SetAppRetentionMutation, SetAppRetentionMutationVariables>;
export const SetAppSummaryInstructionsDocument = new TypedDocumentString(`
    mutation SetAppSummaryInstructions($id: ID!, $instructions: [String!]!) {
  setAppSummaryInstructions(id: $id, instructions: $instructions) {
    ...AppFields
  }
}
    fragment AppFields on DashboardApp {
  id
  name
  displayName
  createdAt
  keyPrefix
  keyCreatedAt
  deleteProfilesAfterDays
  dropSubmissionTextAfterDays
  summaryInstructions
}`) as unknown as TypedDocumentString<SetAppSummaryInstructionsMutation, SetAppSummaryInstructionsMutationVariables>;
export const AppCustomSchemaDocument = new TypedDocumentString(`
    query AppCustomSchema($appId: ID!) {
  customSchema(appId: $appId) {
    appId
    version
    schema
    createdAt
  }
  customSchemaVersions(appId: $appId) {
    version
    createdAt
  }
}
    `) as unknown as TypedDocumentString<AppCustomSchemaQuery, AppCustomSchemaQueryVariables>;
export const SetAppCustomSchemaDocument = new TypedDocumentString(`
    mutation SetAppCustomSchema($appId: ID!, $schema: JSONObject!) {
  setCustomSchema(appId: $appId, schema: $schema) {
    appId
    version
    schema
    createdAt
    changed
    droppedFields
    profilesUpdated
  }
}
    `) as unknown as TypedDocumentString<SetAppCustomSchemaMutation, SetAppCustomSchemaMutationVariables>;
export const RevokeAppKeyDocument = new TypedDocumentString(`
    mutation RevokeAppKey($id: ID!) {
  revokeAppKey(id: $id) {
    ...AppFields
  }
}
    fragment AppFields on DashboardApp {
  id
  name
  displayName
  createdAt
  keyPrefix
  keyCreatedAt
  deleteProfilesAfterDays
  dropSubmissionTextAfterDays
  summaryInstructions
}`) as unknown as TypedDocumentString<RevokeAppKeyMutation, RevokeAppKeyMutationVariables>;
export const DeleteAppDocument = new TypedDocumentString(`
    mutation DeleteApp($id: ID!) {
  deleteApp(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteAppMutation, DeleteAppMutationVariables>;
export const WebhookEndpointsDocument = new TypedDocumentString(`
    query WebhookEndpoints($appId: ID!) {
  webhookEndpoints(appId: $appId) {
    ...WebhookEndpointFields
  }
}
    fragment WebhookEndpointFields on WebhookEndpoint {
  id
  appId
  url
  description
  events
  enabled
  disabledReason
  previousSecretExpiresAt
  createdAt
}`) as unknown as TypedDocumentString<WebhookEndpointsQuery, WebhookEndpointsQueryVariables>;
export const WebhookDeliveriesDocument = new TypedDocumentString(`
    query WebhookDeliveries($endpointId: ID!, $status: WebhookDeliveryStatus, $after: String) {
  webhookDeliveries(
    endpointId: $endpointId
    status: $status
    first: 20
    after: $after
  ) {
    nodes {
      ...WebhookDeliveryFields
    }
    pageInfo {
      endCursor
      hasNextPage
    }
  }
}
    fragment WebhookDeliveryFields on WebhookDelivery {
  id
  eventId
  event
  profileId
  test
  status
  attempts
  nextAttemptAt
  lastStatusCode
  lastError
  createdAt
  finishedAt
}`) as unknown as TypedDocumentString<WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables>;
export const CreateWebhookDocument = new TypedDocumentString(`
    mutation CreateWebhook($appId: ID!, $url: String!, $events: [WebhookEvent!]!) {
  createWebhookEndpoint(appId: $appId, url: $url, events: $events) {
    endpoint {
      ...WebhookEndpointFields
    }
    secret
  }
}
    fragment WebhookEndpointFields on WebhookEndpoint {
  id
  appId
  url
  description
  events
  enabled
  disabledReason
  previousSecretExpiresAt
  createdAt
}`) as unknown as TypedDocumentString<CreateWebhookMutation, CreateWebhookMutationVariables>;
export const UpdateWebhookDocument = new TypedDocumentString(`
    mutation UpdateWebhook($id: ID!, $enabled: Boolean) {
  updateWebhookEndpoint(id: $id, enabled: $enabled) {
    ...WebhookEndpointFields
  }
}
    fragment WebhookEndpointFields on WebhookEndpoint {
  id
  appId
  url
  description
  events
  enabled
  disabledReason
  previousSecretExpiresAt
  createdAt
}`) as unknown as TypedDocumentString<UpdateWebhookMutation, UpdateWebhookMutationVariables>;
export const DeleteWebhookDocument = new TypedDocumentString(`
    mutation DeleteWebhook($id: ID!) {
  deleteWebhookEndpoint(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteWebhookMutation, DeleteWebhookMutationVariables>;
export const RotateWebhookSecretDocument = new TypedDocumentString(`
    mutation RotateWebhookSecret($id: ID!) {
  rotateWebhookSecret(id: $id) {
    endpoint {
      ...WebhookEndpointFields
    }
    secret
  }
}
    fragment WebhookEndpointFields on WebhookEndpoint {
  id
  appId
  url
  description
  events
  enabled
  disabledReason
  previousSecretExpiresAt
  createdAt
}`) as unknown as TypedDocumentString<RotateWebhookSecretMutation, RotateWebhookSecretMutationVariables>;
export const SendTestWebhookDocument = new TypedDocumentString(`
    mutation SendTestWebhook($id: ID!) {
  sendTestWebhook(id: $id) {
    ...WebhookDeliveryFields
  }
}
    fragment WebhookDeliveryFields on WebhookDelivery {
  id
  eventId
  event
  profileId
  test
  status
  attempts
  nextAttemptAt
  lastStatusCode
  lastError
  createdAt
  finishedAt
}`) as unknown as TypedDocumentString<SendTestWebhookMutation, SendTestWebhookMutationVariables>;
export const RedeliverWebhookDocument = new TypedDocumentString(`
    mutation RedeliverWebhook($id: ID!) {
  redeliverWebhook(id: $id) {
    ...WebhookDeliveryFields
  }
}
    fragment WebhookDeliveryFields on WebhookDelivery {
  id
  eventId
  event
  profileId
  test
  status
  attempts
  nextAttemptAt
  lastStatusCode
  lastError
  createdAt
  finishedAt
}`) as unknown as TypedDocumentString<RedeliverWebhookMutation, RedeliverWebhookMutationVariables>;
export const SearchProfilesDocument = new TypedDocumentString(`
    query SearchProfiles($query: String, $sensitivity: Float, $filter: SearchFilter, $sort: SearchSort, $page: Int, $pageSize: Int) {
  searchProfiles(
    query: $query
    sensitivity: $sensitivity
    filter: $filter
    sort: $sort
    page: $page
    pageSize: $pageSize
  ) {
    total
    page
    pageSize
    profiles {
      similarityScore
      profile {
        profileId
        status
        lastUpdated
        coreInfo {
          name {
            value
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SearchProfilesQuery, SearchProfilesQueryVariables>;
export const ProfileDocument = new TypedDocumentString(`
    query Profile($id: ID!) {
  profile(id: $id) {
    ...ProfileFields
  }
}
    fragment HistoryPageFields on HistoryPage {
  entries {
    ...HistoryEntryFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment HistoryEntryFields on UpdateLogEntry {
  seq
  extractedOn
  changes
  submissionIds
  inputType
}
fragment SubmissionPageFields on SubmissionPage {
  nodes {
    ...SubmissionFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment SubmissionFields on Submission {
  id
  inputType
  status
  attempts
  error
  createdAt
  occurredAt
  startedAt
  finishedAt
  promptVersion
  hasText
  usage {
    totalTokens
  }
}
fragment ProfileFields on Profile {
  profileId
  status
  language
  summary
  lastUpdated
  createdAt
  coreInfo {
    name {
      value
      confidence
    }
    age {
      value
      confidence
    }
    gender {
      value
      confidence
    }
    location {
      value
      confidence
    }
    occupation {
      value
      confidence
    }
  }
  interests {
    category
    values {
      value
      confidence
    }
  }
  personality {
    traits {
      value
      confidence
    }
    moodTrends {
      default {
        value
        confidence
      }
      recent {
        value
        confidence
      }
    }
  }
  preferences {
    conversationStyle {
      value
      confidence
    }
    topicsToAvoid {
      value
      confidence
    }
  }
  custom
  pastValues {
    field
    values {
      value
      confidence
      from
      until
      lastSaid
    }
  }
  memories {
    event
    date
    importance
    confidence
  }
  history(first: 20) {
    ...HistoryPageFields
  }
  submissions(first: 20) {
    ...SubmissionPageFields
  }
}`) as unknown as TypedDocumentString<ProfileQuery, ProfileQueryVariables>;
export const ProfileHistoryDocument = new TypedDocumentString(`
    query ProfileHistory($id: ID!, $after: String) {
  profile(id: $id) {
    profileId
    history(first: 20, after: $after) {
      ...HistoryPageFields
    }
  }
}
    fragment HistoryPageFields on HistoryPage {
  entries {
    ...HistoryEntryFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment HistoryEntryFields on UpdateLogEntry {
  seq
  extractedOn
  changes
  submissionIds
  inputType
}`) as unknown as TypedDocumentString<ProfileHistoryQuery, ProfileHistoryQueryVariables>;
export const ProfileSubmissionsDocument = new TypedDocumentString(`
    query ProfileSubmissions($id: ID!, $after: String) {
  profile(id: $id) {
    profileId
    submissions(first: 20, after: $after) {
      ...SubmissionPageFields
    }
  }
}
    fragment SubmissionPageFields on SubmissionPage {
  nodes {
    ...SubmissionFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment SubmissionFields on Submission {
  id
  inputType
  status
  attempts
  error
  createdAt
  occurredAt
  startedAt
  finishedAt
  promptVersion
  hasText
  usage {
    totalTokens
  }
}`) as unknown as TypedDocumentString<ProfileSubmissionsQuery, ProfileSubmissionsQueryVariables>;
export const ProfileEvidenceDocument = new TypedDocumentString(`
    query ProfileEvidence($id: ID!, $field: String!, $value: String!, $category: String) {
  profile(id: $id) {
    profileId
    evidence(field: $field, value: $value, category: $category, limit: 10) {
      extractionsRead
      passages {
        submissionId
        position
        prompt
        text
        occurredAt
        match
      }
      sources {
        submissionId
        quote
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ProfileEvidenceQuery, ProfileEvidenceQueryVariables>;
export const ProfileContextDocument = new TypedDocumentString(`
    query ProfileContext($id: ID!, $maxTokens: Int!, $query: String) {
  profile(id: $id) {
    profileId
    context(maxTokens: $maxTokens, query: $query) {
      text
      tokens
      maxTokens
      encoding
      factsIncluded
      factsTotal
      summaryIncluded
      truncated
      rankedBy
    }
  }
}
    `) as unknown as TypedDocumentString<ProfileContextQuery, ProfileContextQueryVariables>;
export const ReextractProfileDocument = new TypedDocumentString(`
    mutation ReextractProfile($id: ID!, $dryRun: Boolean!, $expectedVersion: Int) {
  reextractProfile(id: $id, dryRun: $dryRun, expectedVersion: $expectedVersion) {
    profileId
    dryRun
    applied
    version
    newVersion
    changed
    changes
    summary
    reextracted
    skippedWithoutText
    batches
  }
}
    `) as unknown as TypedDocumentString<ReextractProfileMutation, ReextractProfileMutationVariables>;
export const DeleteProfileDocument = new TypedDocumentString(`
    mutation DeleteProfile($id: ID!) {
  deleteProfile(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteProfileMutation, DeleteProfileMutationVariables>;
export const ForgetValueDocument = new TypedDocumentString(`
    mutation ForgetValue($id: ID!, $section: String!, $value: String!, $category: String) {
  forgetProfileValue(
    id: $id
    section: $section
    value: $value
    category: $category
  ) {
    ...ProfileFields
  }
}
    fragment HistoryPageFields on HistoryPage {
  entries {
    ...HistoryEntryFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment HistoryEntryFields on UpdateLogEntry {
  seq
  extractedOn
  changes
  submissionIds
  inputType
}
fragment SubmissionPageFields on SubmissionPage {
  nodes {
    ...SubmissionFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment SubmissionFields on Submission {
  id
  inputType
  status
  attempts
  error
  createdAt
  occurredAt
  startedAt
  finishedAt
  promptVersion
  hasText
  usage {
    totalTokens
  }
}
fragment ProfileFields on Profile {
  profileId
  status
  language
  summary
  lastUpdated
  createdAt
  coreInfo {
    name {
      value
      confidence
    }
    age {
      value
      confidence
    }
    gender {
      value
      confidence
    }
    location {
      value
      confidence
    }
    occupation {
      value
      confidence
    }
  }
  interests {
    category
    values {
      value
      confidence
    }
  }
  personality {
    traits {
      value
      confidence
    }
    moodTrends {
      default {
        value
        confidence
      }
      recent {
        value
        confidence
      }
    }
  }
  preferences {
    conversationStyle {
      value
      confidence
    }
    topicsToAvoid {
      value
      confidence
    }
  }
  custom
  pastValues {
    field
    values {
      value
      confidence
      from
      until
      lastSaid
    }
  }
  memories {
    event
    date
    importance
    confidence
  }
  history(first: 20) {
    ...HistoryPageFields
  }
  submissions(first: 20) {
    ...SubmissionPageFields
  }
}`) as unknown as TypedDocumentString<ForgetValueMutation, ForgetValueMutationVariables>;
export const DeleteSubmissionEvidenceDocument = new TypedDocumentString(`
    mutation DeleteSubmissionEvidence($profileId: ID!, $submissionId: ID!) {
  deleteSubmissionEvidence(profileId: $profileId, submissionId: $submissionId) {
    submissionId
    passagesDeleted
    textDeleted
  }
}
    `) as unknown as TypedDocumentString<DeleteSubmissionEvidenceMutation, DeleteSubmissionEvidenceMutationVariables>;
export const RollbackProfileDocument = new TypedDocumentString(`
    mutation RollbackProfile($id: ID!, $toSeq: Int!) {
  rollbackProfile(id: $id, toSeq: $toSeq) {
    ...ProfileFields
  }
}
    fragment HistoryPageFields on HistoryPage {
  entries {
    ...HistoryEntryFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment HistoryEntryFields on UpdateLogEntry {
  seq
  extractedOn
  changes
  submissionIds
  inputType
}
fragment SubmissionPageFields on SubmissionPage {
  nodes {
    ...SubmissionFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment SubmissionFields on Submission {
  id
  inputType
  status
  attempts
  error
  createdAt
  occurredAt
  startedAt
  finishedAt
  promptVersion
  hasText
  usage {
    totalTokens
  }
}
fragment ProfileFields on Profile {
  profileId
  status
  language
  summary
  lastUpdated
  createdAt
  coreInfo {
    name {
      value
      confidence
    }
    age {
      value
      confidence
    }
    gender {
      value
      confidence
    }
    location {
      value
      confidence
    }
    occupation {
      value
      confidence
    }
  }
  interests {
    category
    values {
      value
      confidence
    }
  }
  personality {
    traits {
      value
      confidence
    }
    moodTrends {
      default {
        value
        confidence
      }
      recent {
        value
        confidence
      }
    }
  }
  preferences {
    conversationStyle {
      value
      confidence
    }
    topicsToAvoid {
      value
      confidence
    }
  }
  custom
  pastValues {
    field
    values {
      value
      confidence
      from
      until
      lastSaid
    }
  }
  memories {
    event
    date
    importance
    confidence
  }
  history(first: 20) {
    ...HistoryPageFields
  }
  submissions(first: 20) {
    ...SubmissionPageFields
  }
}`) as unknown as TypedDocumentString<RollbackProfileMutation, RollbackProfileMutationVariables>;
export const ProfileStatusChangedDocument = new TypedDocumentString(`
    subscription ProfileStatusChanged($id: ID!) {
  profileStatusChanged(id: $id) {
    profileId
    status
    profile {
      ...ProfileFields
    }
  }
}
    fragment HistoryPageFields on HistoryPage {
  entries {
    ...HistoryEntryFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment HistoryEntryFields on UpdateLogEntry {
  seq
  extractedOn
  changes
  submissionIds
  inputType
}
fragment SubmissionPageFields on SubmissionPage {
  nodes {
    ...SubmissionFields
  }
  pageInfo {
    endCursor
    hasNextPage
  }
}
fragment SubmissionFields on Submission {
  id
  inputType
  status
  attempts
  error
  createdAt
  occurredAt
  startedAt
  finishedAt
  promptVersion
  hasText
  usage {
    totalTokens
  }
}
fragment ProfileFields on Profile {
  profileId
  status
  language
  summary
  lastUpdated
  createdAt
  coreInfo {
    name {
      value
      confidence
    }
    age {
      value
      confidence
    }
    gender {
      value
      confidence
    }
    location {
      value
      confidence
    }
    occupation {
      value
      confidence
    }
  }
  interests {
    category
    values {
      value
      confidence
    }
  }
  personality {
    traits {
      value
      confidence
    }
    moodTrends {
      default {
        value
        confidence
      }
      recent {
        value
        confidence
      }
    }
  }
  preferences {
    conversationStyle {
      value
      confidence
    }
    topicsToAvoid {
      value
      confidence
    }
  }
  custom
  pastValues {
    field
    values {
      value
      confidence
      from
      until
      lastSaid
    }
  }
  memories {
    event
    date
    importance
    confidence
  }
  history(first: 20) {
    ...HistoryPageFields
  }
  submissions(first: 20) {
    ...SubmissionPageFields
  }
}`) as unknown as TypedDocumentString<ProfileStatusChangedSubscription, ProfileStatusChangedSubscriptionVariables>;