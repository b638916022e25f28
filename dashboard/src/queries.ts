/**
 * Every GraphQL document the dashboard sends. Each is written inside graphql(), which GraphQL Code Generator finds,
 * validates against schema/dashboard.graphql and types (npm run codegen writes ./generated/): the value returned is
 * the document with its result and variable types, which gql() and subscribe() in ./api carry through.
 */
import { graphql } from './generated'

// Fragments are found by name: the generator appends each to every document that spreads it.

graphql(`
  fragment AccountFields on Account {
    id
    email
    tenantId
    tenantName
  }
`)

graphql(`
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
`)

graphql(`
  fragment HistoryPageFields on HistoryPage {
    entries {
      ...HistoryEntryFields
    }
    pageInfo {
      endCursor
      hasNextPage
    }
  }
`)

graphql(`
  fragment HistoryEntryFields on UpdateLogEntry {
    seq
    extractedOn
    changes
    submissionIds
    inputType
  }
`)

graphql(`
  fragment SubmissionPageFields on SubmissionPage {
    nodes {
      ...SubmissionFields
    }
    pageInfo {
      endCursor
      hasNextPage
    }
  }
`)

graphql(`
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
`)

/** Everything the profile page shows; also what the live subscription returns. Pages of 20 (the schema's default). */
graphql(`
  fragment ProfileFields on Profile {
    profileId
    status
    language
    summary
    lastUpdated
    createdAt
    coreInfo {
      name { value confidence }
      age { value confidence }
      gender { value confidence }
      location { value confidence }
      occupation { value confidence }
    }
    interests {
      category
      values { value confidence }
    }
    personality {
      traits { value confidence }
      moodTrends {
        default { value confidence }
        recent { value confidence }
      }
    }
    preferences {
      conversationStyle { value confidence }
      topicsToAvoid { value confidence }
    }
    custom
    pastValues {
      field
      values { value confidence from until lastSaid }
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
`)

// --- account and session -------------------------------------------------------------------------------------

export const SIGN_IN = graphql(`
  mutation SignIn($email: String!, $password: String!) {
    signIn(email: $email, password: $password) {
      account { ...AccountFields }
      csrfToken
    }
  }
`)

export const SIGN_UP = graphql(`
  mutation SignUp($email: String!, $password: String!, $inviteCode: String) {
    signUp(email: $email, password: $password, inviteCode: $inviteCode) {
      account { ...AccountFields }
      csrfToken
    }
  }
`)

export const SIGN_OUT = graphql(`
  mutation SignOut {
    signOut
  }
`)

export const CHANGE_PASSWORD = graphql(`
  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)
  }
`)

// --- apps ------------------------------------------------------------------------------------------------------

export const APPS = graphql(`
  query Apps {
    apps { ...AppFields }
  }
`)

export const CREATE_APP = graphql(`
  mutation CreateApp($name: String!) {
    createApp(name: $name) {
      app { ...AppFields }
      apiKey
    }
  }
`)

export const ROTATE_APP_KEY = graphql(`
  mutation RotateAppKey($id: ID!) {
    rotateAppKey(id: $id) {
      app { ...AppFields }
      apiKey
    }
  }
`)

export const RENAME_APP = graphql(`
  mutation RenameApp($id: ID!, $name: String) {
    renameApp(id: $id, name: $name) { ...AppFields }
  }
`)

export const SET_APP_RETENTION = graphql(`
  mutation SetAppRetention($id: ID!, $deleteProfilesAfterDays: Int, $dropSubmissionTextAfterDays: Int) {
    setAppRetention(id: $id, deleteProfilesAfterDays: $deleteProfilesAfterDays, dropSubmissionTextAfterDays: $dropSubmissionTextAfterDays) {
      ...AppFields
    }
  }
`)

export const SET_APP_SUMMARY_INSTRUCTIONS = graphql(`
  mutation SetAppSummaryInstructions($id: ID!, $instructions: [String!]!) {
    setAppSummaryInstructions(id: $id, instructions: $instructions) { ...AppFields }
  }
`)

export const APP_CUSTOM_SCHEMA = graphql(`
  query AppCustomSchema($appId: ID!) {
    customSchema(appId: $appId) { appId version schema createdAt }
    customSchemaVersions(appId: $appId) { version createdAt }
  }
`)

export const SET_APP_CUSTOM_SCHEMA = graphql(`
  mutation SetAppCustomSchema($appId: ID!, $schema: JSONObject!) {
    setCustomSchema(appId: $appId, schema: $schema) { appId version schema createdAt changed droppedFields profilesUpdated }
  }
`)

export const REVOKE_APP_KEY = graphql(`
  mutation RevokeAppKey($id: ID!) {
    revokeAppKey(id: $id) { ...AppFields }
  }
`)

export const DELETE_APP = graphql(`
  mutation DeleteApp($id: ID!) {
    deleteApp(id: $id)
  }
`)

// --- webhooks --------------------------------------------------------------------------------------------------

graphql(`
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
`)

graphql(`
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
`)

export const WEBHOOK_ENDPOINTS = graphql(`
  query WebhookEndpoints($appId: ID!) {
    webhookEndpoints(appId: $appId) { ...WebhookEndpointFields }
  }
`)

export const WEBHOOK_DELIVERIES = graphql(`
  query WebhookDeliveries($endpointId: ID!, $status: WebhookDeliveryStatus, $after: String) {
    webhookDeliveries(endpointId: $endpointId, status: $status, first: 20, after: $after) {
      nodes { ...WebhookDeliveryFields }
      pageInfo { endCursor hasNextPage }
    }
  }
`)

export const CREATE_WEBHOOK = graphql(`
  mutation CreateWebhook($appId: ID!, $url: String!, $events: [WebhookEvent!]!) {
    createWebhookEndpoint(appId: $appId, url: $url, events: $events) {
      endpoint { ...WebhookEndpointFields }
      secret
    }
  }
`)

export const UPDATE_WEBHOOK = graphql(`
  mutation UpdateWebhook($id: ID!, $enabled: Boolean) {
    updateWebhookEndpoint(id: $id, enabled: $enabled) { ...WebhookEndpointFields }
  }
`)

export const DELETE_WEBHOOK = graphql(`
  mutation DeleteWebhook($id: ID!) {
    deleteWebhookEndpoint(id: $id)
  }
`)

export const ROTATE_WEBHOOK_SECRET = graphql(`
  mutation RotateWebhookSecret($id: ID!) {
    rotateWebhookSecret(id: $id) {
      endpoint { ...WebhookEndpointFields }
      secret
    }
  }
`)

export const SEND_TEST_WEBHOOK = graphql(`
  mutation SendTestWebhook($id: ID!) {
    sendTestWebhook(id: $id) { ...WebhookDeliveryFields }
  }
`)

export const REDELIVER_WEBHOOK = graphql(`
  mutation RedeliverWebhook($id: ID!) {
    redeliverWebhook(id: $id) { ...WebhookDeliveryFields }
  }
`)

// --- profiles --------------------------------------------------------------------------------------------------

export const SEARCH_PROFILES = graphql(`
  query SearchProfiles(
    $query: String
    $sensitivity: Float
    $filter: SearchFilter
    $sort: SearchSort
    $page: Int
    $pageSize: Int
  ) {
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
          coreInfo { name { value } }
        }
      }
    }
  }
`)

export const PROFILE = graphql(`
  query Profile($id: ID!) {
    profile(id: $id) { ...ProfileFields }
  }
`)

export const PROFILE_HISTORY = graphql(`
  query ProfileHistory($id: ID!, $after: String) {
    profile(id: $id) {
      profileId
      history(first: 20, after: $after) { ...HistoryPageFields }
    }
  }
`)

export const PROFILE_SUBMISSIONS = graphql(`
  query ProfileSubmissions($id: ID!, $after: String) {
    profile(id: $id) {
      profileId
      submissions(first: 20, after: $after) { ...SubmissionPageFields }
    }
  }
`)

/** Why the profile says a value: the evidence passages that support it (README "Provenance"). */
export const PROFILE_EVIDENCE = graphql(`
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
`)

export const PROFILE_CONTEXT = graphql(`
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
`)

export const REEXTRACT_PROFILE = graphql(`
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
`)

export const DELETE_PROFILE = graphql(`
  mutation DeleteProfile($id: ID!) {
    deleteProfile(id: $id)
  }
`)

export const FORGET_VALUE = graphql(`
  mutation ForgetValue($id: ID!, $section: String!, $value: String!, $category: String) {
    forgetProfileValue(id: $id, section: $section, value: $value, category: $category) { ...ProfileFields }
  }
`)

export const DELETE_SUBMISSION_EVIDENCE = graphql(`
  mutation DeleteSubmissionEvidence($profileId: ID!, $submissionId: ID!) {
    deleteSubmissionEvidence(profileId: $profileId, submissionId: $submissionId) { submissionId passagesDeleted textDeleted }
  }
`)

export const ROLLBACK_PROFILE = graphql(`
  mutation RollbackProfile($id: ID!, $toSeq: Int!) {
    rollbackProfile(id: $id, toSeq: $toSeq) { ...ProfileFields }
  }
`)

export const PROFILE_STATUS_CHANGED = graphql(`
  subscription ProfileStatusChanged($id: ID!) {
    profileStatusChanged(id: $id) {
      profileId
      status
      profile { ...ProfileFields }
    }
  }
`)
