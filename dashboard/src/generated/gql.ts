/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment AccountFields on Account {\n    id\n    email\n    tenantId\n    tenantName\n  }\n": typeof types.AccountFieldsFragmentDoc,
    "\n  fragment AppFields on DashboardApp {\n    id\n    name\n    displayName\n    createdAt\n    keyPrefix\n    keyCreatedAt\n    deleteProfilesAfterDays\n    dropSubmissionTextAfterDays\n    summaryInstructions\n  }\n": typeof types.AppFieldsFragmentDoc,
    "\n  fragment HistoryPageFields on HistoryPage {\n    entries {\n      ...HistoryEntryFields\n    }\n    pageInfo {\n      endCursor\n      hasNextPage\n    }\n  }\n": typeof types.HistoryPageFieldsFragmentDoc,
    "\n  fragment HistoryEntryFields on UpdateLogEntry {\n    seq\n    extractedOn\n    changes\n    submissionIds\n    inputType\n  }\n": typeof types.HistoryEntryFieldsFragmentDoc,
    "\n  fragment SubmissionPageFields on SubmissionPage {\n    nodes {\n      ...SubmissionFields\n    }\n    pageInfo {\n      endCursor\n      hasNextPage\n    }\n  }\n": typeof types.SubmissionPageFieldsFragmentDoc,
    "\n  fragment SubmissionFields on Submission {\n    id\n    inputType\n    status\n    attempts\n    error\n    createdAt\n    occurredAt\n    startedAt\n    finishedAt\n    promptVersion\n    hasText\n    usage {\n      totalTokens\n    }\n  }\n": typeof types.SubmissionFieldsFragmentDoc,
    "\n  fragment ProfileFields on Profile {\n    profileId\n    status\n    language\n    summary\n    lastUpdated\n    createdAt\n    coreInfo {\n      name { value confidence }\n      age { value confidence }\n      gender { value confidence }\n      location { value confidence }\n      occupation { value confidence }\n    }\n    interests {\n      category\n      values { value confidence }\n    }\n    personality {\n      traits { value confidence }\n      moodTrends {\n        default { value confidence }\n        recent { value confidence }\n      }\n    }\n    preferences {\n      conversationStyle { value confidence }\n      topicsToAvoid { value confidence }\n    }\n    custom\n    pastValues {\n      field\n      values { value confidence from until lastSaid }\n    }\n    memories {\n      event\n      date\n      importance\n      confidence\n    }\n    history(first: 20) {\n      ...HistoryPageFields\n    }\n    submissions(first: 20) {\n      ...SubmissionPageFields\n    }\n  }\n": typeof types.ProfileFieldsFragmentDoc,
    "\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      account { ...AccountFields }\n      csrfToken\n    }\n  }\n": typeof types.SignInDocument,
    "\n  mutation SignUp($email: String!, $password: String!, $inviteCode: String) {\n    signUp(email: $email, password: $password, inviteCode: $inviteCode) {\n      account { ...AccountFields }\n      csrfToken\n    }\n  }\n": typeof types.SignUpDocument,
    "\n  mutation SignOut {\n    signOut\n  }\n": typeof types.SignOutDocument,
    "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)\n  }\n": typeof types.ChangePasswordDocument,
    "\n  query Apps {\n    apps { ...AppFields }\n  }\n": typeof types.AppsDocument,
    "\n  mutation CreateApp($name: String!) {\n    createApp(name: $name) {\n      app { ...AppFields }\n      apiKey\n    }\n  }\n": typeof types.CreateAppDocument,
    "\n  mutation RotateAppKey($id: ID!) {\n    rotateAppKey(id: $id) {\n      app { ...AppFields }\n      apiKey\n    }\n  }\n": typeof types.RotateAppKeyDocument,
    "\n  mutation RenameApp($id: ID!, $name: String) {\n    renameApp(id: $id, name: $name) { ...AppFields }\n  }\n": typeof types.RenameAppDocument,
    "\n  mutation SetAppRetention($id: ID!, $deleteProfilesAfterDays: Int, $dropSubmissionTextAfterDays: Int) {\n    setAppRetention(id: $id, deleteProfilesAfterDays: $deleteProfilesAfterDays, dropSubmissionTextAfterDays: $dropSubmissionTextAfterDays) {\n      ...AppFields\n    }\n  }\n": typeof types.SetAppRetentionDocument,
    "\n  mutation SetAppSummaryInstructions($id: ID!, $instructions: [String!]!) {\n    setAppSummaryInstructions(id: $id, instructions: $instructions) { ...AppFields }\n  }\n": typeof types.SetAppSummaryInstructionsDocument,
    "\n  query AppCustomSchema($appId: ID!) {\n    customSchema(appId: $appId) { appId version schema createdAt }\n    customSchemaVersions(appId: $appId) { version createdAt }\n  }\n": typeof types.AppCustomSchemaDocument,
    "\n  mutation SetAppCustomSchema($appId: ID!, $schema: JSONObject!) {\n    setCustomSchema(appId: $appId, schema: $schema) { appId version schema createdAt changed droppedFields profilesUpdated }\n  }\n": typeof types.SetAppCustomSchemaDocument,
    "\n  mutation RevokeAppKey($id: ID!) {\n    revokeAppKey(id: $id) { ...AppFields }\n  }\n": typeof types.RevokeAppKeyDocument,
    "\n  mutation DeleteApp($id: ID!) {\n    deleteApp(id: $id)\n  }\n": typeof types.DeleteAppDocument,
    "\n  fragment WebhookEndpointFields on WebhookEndpoint {\n    id\n    appId\n    url\n    description\n    events\n    enabled\n    disabledReason\n    previousSecretExpiresAt\n    createdAt\n  }\n": typeof types.WebhookEndpointFieldsFragmentDoc,
    "\n  fragment WebhookDeliveryFields on WebhookDelivery {\n    id\n    eventId\n    event\n    profileId\n    test\n    status\n    attempts\n    nextAttemptAt\n    lastStatusCode\n    lastError\n    createdAt\n    finishedAt\n  }\n": typeof types.WebhookDeliveryFieldsFragmentDoc,
    "\n  query WebhookEndpoints($appId: ID!) {\n    webhookEndpoints(appId: $appId) { ...WebhookEndpointFields }\n  }\n": typeof types.WebhookEndpointsDocument,
    "\n  query WebhookDeliveries($endpointId: ID!, $status: WebhookDeliveryStatus, $after: String) {\n    webhookDeliveries(endpointId: $endpointId, status: $status, first: 20, after: $after) {\n      nodes { ...WebhookDeliveryFields }\n      pageInfo { endCursor hasNextPage }\n    }\n  }\n": typeof types.WebhookDeliveriesDocument,
    "\n  mutation CreateWebhook($appId: ID!, $url: String!, $events: [WebhookEvent!]!) {\n    createWebhookEndpoint(appId: $appId, url: $url, events: $events) {\n      endpoint { ...WebhookEndpointFields }\n      secret\n    }\n  }\n": typeof types.CreateWebhookDocument,
    "\n  mutation UpdateWebhook($id: ID!, $enabled: Boolean) {\n    updateWebhookEndpoint(id: $id, enabled: $enabled) { ...WebhookEndpointFields }\n  }\n": typeof types.UpdateWebhookDocument,
    "\n  mutation DeleteWebhook($id: ID!) {\n    deleteWebhookEndpoint(id: $id)\n  }\n": typeof types.DeleteWebhookDocument,
    "\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) {\n      endpoint { ...WebhookEndpointFields }\n      secret\n    }\n  }\n": typeof types.RotateWebhookSecretDocument,
    "\n  mutation SendTestWebhook($id: ID!) {\n    sendTestWebhook(id: $id) { ...WebhookDeliveryFields }\n  }\n": typeof types.SendTestWebhookDocument,
    "\n  mutation RedeliverWebhook($id: ID!) {\n    redeliverWebhook(id: $id) { ...WebhookDeliveryFields }\n  }\n": typeof types.RedeliverWebhookDocument,
    "\n  query SearchProfiles(\n    $query: String\n    $sensitivity: Float\n    $filter: SearchFilter\n    $sort: SearchSort\n    $page: Int\n    $pageSize: Int\n  ) {\n    searchProfiles(\n      query: $query\n      sensitivity: $sensitivity\n      filter: $filter\n      sort: $sort\n      page: $page\n      pageSize: $pageSize\n    ) {\n      total\n      page\n      pageSize\n      profiles {\n        similarityScore\n        profile {\n          profileId\n          status\n          lastUpdated\n          coreInfo { name { value } }\n        }\n      }\n    }\n  }\n": typeof types.SearchProfilesDocument,
    "\n  query Profile($id: ID!) {\n    profile(id: $id) { ...ProfileFields }\n  }\n": typeof types.ProfileDocument,
    "\n  query ProfileHistory($id: ID!, $after: String) {\n    profile(id: $id) {\n      profileId\n      history(first: 20, after: $after) { ...HistoryPageFields }\n    }\n  }\n": typeof types.ProfileHistoryDocument,
    "\n  query ProfileSubmissions($id: ID!, $after: String) {\n    profile(id: $id) {\n      profileId\n      submissions(first: 20, after: $after) { ...SubmissionPageFields }\n    }\n  }\n": typeof types.ProfileSubmissionsDocument,
    "\n  query ProfileEvidence($id: ID!, $field: String!, $value: String!, $category: String) {\n    profile(id: $id) {\n      profileId\n      evidence(field: $field, value: $value, category: $category, limit: 10) {\n        extractionsRead\n        passages {\n          submissionId\n          position\n          prompt\n          text\n          occurredAt\n          match\n        }\n        sources {\n          submissionId\n          quote\n        }\n      }\n    }\n  }\n": typeof types.ProfileEvidenceDocument,
    "\n  query ProfileContext($id: ID!, $maxTokens: Int!, $query: String) {\n    profile(id: $id) {\n      profileId\n      context(maxTokens: $maxTokens, query: $query) {\n        text\n        tokens\n        maxTokens\n        encoding\n        factsIncluded\n        factsTotal\n        summaryIncluded\n        truncated\n        rankedBy\n      }\n    }\n  }\n": typeof types.ProfileContextDocument,
    "\n  mutation ReextractProfile($id: ID!, $dryRun: Boolean!, $expectedVersion: Int) {\n    reextractProfile(id: $id, dryRun: $dryRun, expectedVersion: $expectedVersion) {\n      profileId\n      dryRun\n      applied\n      version\n      newVersion\n      changed\n      changes\n      summary\n      reextracted\n      skippedWithoutText\n      batches\n    }\n  }\n": typeof types.ReextractProfileDocument,
    "\n  mutation DeleteProfile($id: ID!) {\n    deleteProfile(id: $id)\n  }\n": typeof types.DeleteProfileDocument,
    "\n  mutation ForgetValue($id: ID!, $section: String!, $value: String!, $category: String) {\n    forgetProfileValue(id: $id, section: $section, value: $value, category: $category) { ...ProfileFields }\n  }\n": typeof types.ForgetValueDocument,
    "\n  mutation DeleteSubmissionEvidence($profileId: ID!, $submissionId: ID!) {\n    deleteSubmissionEvidence(profileId: $profileId, submissionId: $submissionId) { submissionId passagesDeleted textDeleted }\n  }\n": typeof types.DeleteSubmissionEvidenceDocument,
    "\n  mutation RollbackProfile($id: ID!, $toSeq: Int!) {\n    rollbackProfile(id: $id, toSeq: $toSeq) { ...ProfileFields }\n  }\n": typeof types.RollbackProfileDocument,
    "\n  subscription ProfileStatusChanged($id: ID!) {\n    profileStatusChanged(id: $id) {\n      profileId\n      status\n      profile { ...ProfileFields }\n    }\n  }\n": typeof types.ProfileStatusChangedDocument,
};
const documents: Documents = {
    "\n  fragment AccountFields on Account {\n    id\n    email\n    tenantId\n    tenantName\n  }\n": types.AccountFieldsFragmentDoc,
    "\n  fragment AppFields on DashboardApp {\n    id\n    name\n    displayName\n    createdAt\n    keyPrefix\n    keyCreatedAt\n    deleteProfilesAfterDays\n    dropSubmissionTextAfterDays\n    summaryInstructions\n  }\n": types.AppFieldsFragmentDoc,
    "\n  fragment HistoryPageFields on HistoryPage {\n    entries {\n      ...HistoryEntryFields\n    }\n    pageInfo {\n      endCursor\n      hasNextPage\n    }\n  }\n": types.HistoryPageFieldsFragmentDoc,
    "\n  fragment HistoryEntryFields on UpdateLogEntry {\n    seq\n    extractedOn\n    changes\n    submissionIds\n    inputType\n  }\n": types.HistoryEntryFieldsFragmentDoc,
    "\n  fragment SubmissionPageFields on SubmissionPage {\n    nodes {\n      ...SubmissionFields\n    }\n    pageInfo {\n      endCursor\n      hasNextPage\n    }\n  }\n": types.SubmissionPageFieldsFragmentDoc,
    "\n  fragment SubmissionFields on Submission {\n    id\n    inputType\n    status\n    attempts\n    error\n    createdAt\n    occurredAt\n    startedAt\n    finishedAt\n    promptVersion\n    hasText\n    usage {\n      totalTokens\n    }\n  }\n": types.SubmissionFieldsFragmentDoc,
    "\n  fragment ProfileFields on Profile {\n    profileId\n    status\n    language\n    summary\n    lastUpdated\n    createdAt\n    coreInfo {\n      name { value confidence }\n      age { value confidence }\n      gender { value confidence }\n      location { value confidence }\n      occupation { value confidence }\n    }\n    interests {\n      category\n      values { value confidence }\n    }\n    personality {\n      traits { value confidence }\n      moodTrends {\n        default { value confidence }\n        recent { value confidence }\n      }\n    }\n    preferences {\n      conversationStyle { value confidence }\n      topicsToAvoid { value confidence }\n    }\n    custom\n    pastValues {\n      field\n      values { value confidence from until lastSaid }\n    }\n    memories {\n      event\n      date\n      importance\n      confidence\n    }\n    history(first: 20) {\n      ...HistoryPageFields\n    }\n    submissions(first: 20) {\n      ...SubmissionPageFields\n    }\n  }\n": types.ProfileFieldsFragmentDoc,
    "\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      account { ...AccountFields }\n      csrfToken\n    }\n  }\n": types.SignInDocument,
    "\n  mutation SignUp($email: String!, $password: String!, $inviteCode: String) {\n    signUp(email: $email, password: $password, inviteCode: $inviteCode) {\n      account { ...AccountFields }\n      csrfToken\n    }\n  }\n": types.SignUpDocument,
    "\n  mutation SignOut {\n    signOut\n  }\n": types.SignOutDocument,
    "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)\n  }\n": types.ChangePasswordDocument,
    "\n  query Apps {\n    apps { ...AppFields }\n  }\n": types.AppsDocument,
    "\n  mutation CreateApp($name: String!) {\n    createApp(name: $name) {\n      app { ...AppFields }\n      apiKey\n    }\n  }\n": types.CreateAppDocument,
    "\n  mutation RotateAppKey($id: ID!) {\n    rotateAppKey(id: $id) {\n      app { ...AppFields }\n      apiKey\n    }\n  }\n": types.RotateAppKeyDocument,
    "\n  mutation RenameApp($id: ID!, $name: String) {\n    renameApp(id: $id, name: $name) { ...AppFields }\n  }\n": types.RenameAppDocument,
    "\n  mutation SetAppRetention($id: ID!, $deleteProfilesAfterDays: Int, $dropSubmissionTextAfterDays: Int) {\n    setAppRetention(id: $id, deleteProfilesAfterDays: $deleteProfilesAfterDays, dropSubmissionTextAfterDays: $dropSubmissionTextAfterDays) {\n      ...AppFields\n    }\n  }\n": types.SetAppRetentionDocument,
    "\n  mutation SetAppSummaryInstructions($id: ID!, $instructions: [String!]!) {\n    setAppSummaryInstructions(id: $id, instructions: $instructions) { ...AppFields }\n  }\n": types.SetAppSummaryInstructionsDocument,
    "\n  query AppCustomSchema($appId: ID!) {\n    customSchema(appId: $appId) { appId version schema createdAt }\n    customSchemaVersions(appId: $appId) { version createdAt }\n  }\n": types.AppCustomSchemaDocument,
    "\n  mutation SetAppCustomSchema($appId: ID!, $schema: JSONObject!) {\n    setCustomSchema(appId: $appId, schema: $schema) { appId version schema createdAt changed droppedFields profilesUpdated }\n  }\n": types.SetAppCustomSchemaDocument,
    "\n  mutation RevokeAppKey($id: ID!) {\n    revokeAppKey(id: $id) { ...AppFields }\n  }\n": types.RevokeAppKeyDocument,
    "\n  mutation DeleteApp($id: ID!) {\n    deleteApp(id: $id)\n  }\n": types.DeleteAppDocument,
    "\n  fragment WebhookEndpointFields on WebhookEndpoint {\n    id\n    appId\n    url\n    description\n    events\n    enabled\n    disabledReason\n    previousSecretExpiresAt\n    createdAt\n  }\n": types.WebhookEndpointFieldsFragmentDoc,
    "\n  fragment WebhookDeliveryFields on WebhookDelivery {\n    id\n    eventId\n    event\n    profileId\n    test\n    status\n    attempts\n    nextAttemptAt\n    lastStatusCode\n    lastError\n    createdAt\n    finishedAt\n  }\n": types.WebhookDeliveryFieldsFragmentDoc,
    "\n  query WebhookEndpoints($appId: ID!) {\n    webhookEndpoints(appId: $appId) { ...WebhookEndpointFields }\n  }\n": types.WebhookEndpointsDocument,
    "\n  query WebhookDeliveries($endpointId: ID!, $status: WebhookDeliveryStatus, $after: String) {\n    webhookDeliveries(endpointId: $endpointId, status: $status, first: 20, after: $after) {\n      nodes { ...WebhookDeliveryFields }\n      pageInfo { endCursor hasNextPage }\n    }\n  }\n": types.WebhookDeliveriesDocument,
    "\n  mutation CreateWebhook($appId: ID!, $url: String!, $events: [WebhookEvent!]!) {\n    createWebhookEndpoint(appId: $appId, url: $url, events: $events) {\n      endpoint { ...WebhookEndpointFields }\n      secret\n    }\n  }\n": types.CreateWebhookDocument,
    "\n  mutation UpdateWebhook($id: ID!, $enabled: Boolean) {\n    updateWebhookEndpoint(id: $id, enabled: $enabled) { ...WebhookEndpointFields }\n  }\n": types.UpdateWebhookDocument,
    "\n  mutation DeleteWebhook($id: ID!) {\n    deleteWebhookEndpoint(id: $id)\n  }\n": types.DeleteWebhookDocument,
    "\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) {\n      endpoint { ...WebhookEndpointFields }\n      secret\n    }\n  }\n": types.RotateWebhookSecretDocument,
    "\n  mutation SendTestWebhook($id: ID!) {\n    sendTestWebhook(id: $id) { ...WebhookDeliveryFields }\n  }\n": types.SendTestWebhookDocument,
    "\n  mutation RedeliverWebhook($id: ID!) {\n    redeliverWebhook(id: $id) { ...WebhookDeliveryFields }\n  }\n": types.RedeliverWebhookDocument,
    "\n  query SearchProfiles(\n    $query: String\n    $sensitivity: Float\n    $filter: SearchFilter\n    $sort: SearchSort\n    $page: Int\n    $pageSize: Int\n  ) {\n    searchProfiles(\n      query: $query\n      sensitivity: $sensitivity\n      filter: $filter\n      sort: $sort\n      page: $page\n      pageSize: $pageSize\n    ) {\n      total\n      page\n      pageSize\n      profiles {\n        similarityScore\n        profile {\n          profileId\n          status\n          lastUpdated\n          coreInfo { name { value } }\n        }\n      }\n    }\n  }\n": types.SearchProfilesDocument,
    "\n  query Profile($id: ID!) {\n    profile(id: $id) { ...ProfileFields }\n  }\n": types.ProfileDocument,
    "\n  query ProfileHistory($id: ID!, $after: String) {\n    profile(id: $id) {\n      profileId\n      history(first: 20, after: $after) { ...HistoryPageFields }\n    }\n  }\n": types.ProfileHistoryDocument,
    "\n  query ProfileSubmissions($id: ID!, $after: String) {\n    profile(id: $id) {\n      profileId\n      submissions(first: 20, after: $after) { ...SubmissionPageFields }\n    }\n  }\n": types.ProfileSubmissionsDocument,
    "\n  query ProfileEvidence($id: ID!, $field: String!, $value: String!, $category: String) {\n    profile(id: $id) {\n      profileId\n      evidence(field: $field, value: $value, category: $category, limit: 10) {\n        extractionsRead\n        passages {\n          submissionId\n          position\n          prompt\n          text\n          occurredAt\n          match\n        }\n        sources {\n          submissionId\n          quote\n        }\n      }\n    }\n  }\n": types.ProfileEvidenceDocument,
    "\n  query ProfileContext($id: ID!, $maxTokens: Int!, $query: String) {\n    profile(id: $id) {\n      profileId\n      context(maxTokens: $maxTokens, query: $query) {\n        text\n        tokens\n        maxTokens\n        encoding\n        factsIncluded\n        factsTotal\n        summaryIncluded\n        truncated\n        rankedBy\n      }\n    }\n  }\n": types.ProfileContextDocument,
    "\n  mutation ReextractProfile($id: ID!, $dryRun: Boolean!, $expectedVersion: Int) {\n    reextractProfile(id: $id, dryRun: $dryRun, expectedVersion: $expectedVersion) {\n      profileId\n      dryRun\n      applied\n      version\n      newVersion\n      changed\n      changes\n      summary\n      reextracted\n      skippedWithoutText\n      batches\n    }\n  }\n": types.ReextractProfileDocument,
    "\n  mutation DeleteProfile($id: ID!) {\n    deleteProfile(id: $id)\n  }\n": types.DeleteProfileDocument,
    "\n  mutation ForgetValue($id: ID!, $section: String!, $value: String!, $category: String) {\n    forgetProfileValue(id: $id, section: $section, value: $value, category: $category) { ...ProfileFields }\n  }\n": types.ForgetValueDocument,
    "\n  mutation DeleteSubmissionEvidence($profileId: ID!, $submissionId: ID!) {\n    deleteSubmissionEvidence(profileId: $profileId, submissionId: $submissionId) { submissionId passagesDeleted textDeleted }\n  }\n": types.DeleteSubmissionEvidenceDocument,
    "\n  mutation RollbackProfile($id: ID!, $toSeq: Int!) {\n    rollbackProfile(id: $id, toSeq: $toSeq) { ...ProfileFields }\n  }\n": types.RollbackProfileDocument,
    "\n  subscription ProfileStatusChanged($id: ID!) {\n    profileStatusChanged(id: $id) {\n      profileId\n      status\n      profile { ...ProfileFields }\n    }\n  }\n": types.ProfileStatusChangedDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AccountFields on Account {\n    id\n    email\n    tenantId\n    tenantName\n  }\n"): typeof import('./graphql').AccountFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AppFields on DashboardApp {\n    id\n    name\n    displayName\n    createdAt\n    keyPrefix\n    keyCreatedAt\n    deleteProfilesAfterDays\n    dropSubmissionTextAfterDays\n    summaryInstructions\n  }\n"): typeof import('./graphql').AppFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment HistoryPageFields on HistoryPage {\n    entries {\n      ...HistoryEntryFields\n    }\n    pageInfo {\n      endCursor\n      hasNextPage\n    }\n  }\n"): typeof import('./graphql').HistoryPageFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment HistoryEntryFields on UpdateLogEntry {\n    seq\n    extractedOn\n    changes\n    submissionIds\n    inputType\n  }\n"): typeof import('./graphql').HistoryEntryFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SubmissionPageFields on SubmissionPage {\n    nodes {\n      ...SubmissionFields\n    }\n    pageInfo {\n      endCursor\n      hasNextPage\n    }\n  }\n"): typeof import('./graphql').SubmissionPageFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SubmissionFields on Submission {\n    id\n    inputType\n    status\n    attempts\n    error\n    createdAt\n    occurredAt\n    startedAt\n    finishedAt\n    promptVersion\n    hasText\n    usage {\n      totalTokens\n    }\n  }\n"): typeof import('./graphql').SubmissionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ProfileFields on Profile {\n    profileId\n    status\n    language\n    summary\n    lastUpdated\n    createdAt\n    coreInfo {\n      name { value confidence }\n      age { value confidence }\n      gender { value confidence }\n      location { value confidence }\n      occupation { value confidence }\n    }\n    interests {\n      category\n      values { value confidence }\n    }\n    personality {\n      traits { value confidence }\n      moodTrends {\n        default { value confidence }\n        recent { value confidence }\n      }\n    }\n    preferences {\n      conversationStyle { value confidence }\n      topicsToAvoid { value confidence }\n    }\n    custom\n    pastValues {\n      field\n      values { value confidence from until lastSaid }\n    }\n    memories {\n      event\n      date\n      importance\n      confidence\n    }\n    history(first: 20) {\n      ...HistoryPageFields\n    }\n    submissions(first: 20) {\n      ...SubmissionPageFields\n    }\n  }\n"): typeof import('./graphql').ProfileFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      account { ...AccountFields }\n      csrfToken\n    }\n  }\n"): typeof import('./graphql').SignInDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignUp($email: String!, $password: String!, $inviteCode: String) {\n    signUp(email: $email, password: $password, inviteCode: $inviteCode) {\n      account { ...AccountFields }\n      csrfToken\n    }\n  }\n"): typeof import('./graphql').SignUpDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignOut {\n    signOut\n  }\n"): typeof import('./graphql').SignOutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)\n  }\n"): typeof import('./graphql').ChangePasswordDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Apps {\n    apps { ...AppFields }\n  }\n"): typeof import('./graphql').AppsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApp($name: String!) {\n    createApp(name: $name) {\n      app { ...AppFields }\n      apiKey\n    }\n  }\n"): typeof import('./graphql').CreateAppDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateAppKey($id: ID!) {\n    rotateAppKey(id: $id) {\n      app { ...AppFields }\n      apiKey\n    }\n  }\n"): typeof import('./graphql').RotateAppKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RenameApp($id: ID!, $name: String) {\n    renameApp(id: $id, name: $name) { ...AppFields }\n  }\n"): typeof import('./graphql').RenameAppDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetAppRetention($id: ID!, $deleteProfilesAfterDays: Int, $dropSubmissionTextAfterDays: Int) {\n    setAppRetention(id: $id, deleteProfilesAfterDays: $deleteProfilesAfterDays, dropSubmissionTextAfterDays: $dropSubmissionTextAfterDays) {\n      ...AppFields\n    }\n  }\n"): typeof import('./graphql').SetAppRetentionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetAppSummaryInstructions($id: ID!, $instructions: [String!]!) {\n    setAppSummaryInstructions(id: $id, instructions: $instructions) { ...AppFields }\n  }\n"): typeof import('./graphql').SetAppSummaryInstructionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AppCustomSchema($appId: ID!) {\n    customSchema(appId: $appId) { appId version schema createdAt }\n    customSchemaVersions(appId: $appId) { version createdAt }\n  }\n"): typeof import('./graphql').AppCustomSchemaDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetAppCustomSchema($appId: ID!, $schema: JSONObject!) {\n    setCustomSchema(appId: $appId, schema: $schema) { appId version schema createdAt changed droppedFields profilesUpdated }\n  }\n"): typeof import('./graphql').SetAppCustomSchemaDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeAppKey($id: ID!) {\n    revokeAppKey(id: $id) { ...AppFields }\n  }\n"): typeof import('./graphql').RevokeAppKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteApp($id: ID!) {\n    deleteApp(id: $id)\n  }\n"): typeof import('./graphql').DeleteAppDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookEndpointFields on WebhookEndpoint {\n    id\n    appId\n    url\n    description\n    events\n    enabled\n    disabledReason\n    previousSecretExpiresAt\n    createdAt\n  }\n"): typeof import('./graphql').WebhookEndpointFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookDeliveryFields on WebhookDelivery {\n    id\n    eventId\n    event\n    profileId\n    test\n    status\n    attempts\n    nextAttemptAt\n    lastStatusCode\n    lastError\n    createdAt\n    finishedAt\n  }\n"): typeof import('./graphql').WebhookDeliveryFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEndpoints($appId: ID!) {\n    webhookEndpoints(appId: $appId) { ...WebhookEndpointFields }\n  }\n"): typeof import('./graphql').WebhookEndpointsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookDeliveries($endpointId: ID!, $status: WebhookDeliveryStatus, $after: String) {\n    webhookDeliveries(endpointId: $endpointId, status: $status, first: 20, after: $after) {\n      nodes { ...WebhookDeliveryFields }\n      pageInfo { endCursor hasNextPage }\n    }\n  }\n"): typeof import('./graphql').WebhookDeliveriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateWebhook($appId: ID!, $url: String!, $events: [WebhookEvent!]!) {\n    createWebhookEndpoint(appId: $appId, url: $url, events: $events) {\n      endpoint { ...WebhookEndpointFields }\n      secret\n    }\n  }\n"): typeof import('./graphql').CreateWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateWebhook($id: ID!, $enabled: Boolean) {\n    updateWebhookEndpoint(id: $id, enabled: $enabled) { ...WebhookEndpointFields }\n  }\n"): typeof import('./graphql').UpdateWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteWebhook($id: ID!) {\n    deleteWebhookEndpoint(id: $id)\n  }\n"): typeof import('./graphql').DeleteWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) {\n      endpoint { ...WebhookEndpointFields }\n      secret\n    }\n  }\n"): typeof import('./graphql').RotateWebhookSecretDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendTestWebhook($id: ID!) {\n    sendTestWebhook(id: $id) { ...WebhookDeliveryFields }\n  }\n"): typeof import('./graphql').SendTestWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeliverWebhook($id: ID!) {\n    redeliverWebhook(id: $id) { ...WebhookDeliveryFields }\n  }\n"): typeof import('./graphql').RedeliverWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchProfiles(\n    $query: String\n    $sensitivity: Float\n    $filter: SearchFilter\n    $sort: SearchSort\n    $page: Int\n    $pageSize: Int\n  ) {\n    searchProfiles(\n      query: $query\n      sensitivity: $sensitivity\n      filter: $filter\n      sort: $sort\n      page: $page\n      pageSize: $pageSize\n    ) {\n      total\n      page\n      pageSize\n      profiles {\n        similarityScore\n        profile {\n          profileId\n          status\n          lastUpdated\n          coreInfo { name { value } }\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').SearchProfilesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Profile($id: ID!) {\n    profile(id: $id) { ...ProfileFields }\n  }\n"): typeof import('./graphql').ProfileDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProfileHistory($id: ID!, $after: String) {\n    profile(id: $id) {\n      profileId\n      history(first: 20, after: $after) { ...HistoryPageFields }\n    }\n  }\n"): typeof import('./graphql').ProfileHistoryDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProfileSubmissions($id: ID!, $after: String) {\n    profile(id: $id) {\n      profileId\n      submissions(first: 20, after: $after) { ...SubmissionPageFields }\n    }\n  }\n"): typeof import('./graphql').ProfileSubmissionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProfileEvidence($id: ID!, $field: String!, $value: String!, $category: String) {\n    profile(id: $id) {\n      profileId\n      evidence(field: $field, value: $value, category: $category, limit: 10) {\n        extractionsRead\n        passages {\n          submissionId\n          position\n          prompt\n          text\n          occurredAt\n          match\n        }\n        sources {\n          submissionId\n          quote\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').ProfileEvidenceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProfileContext($id: ID!, $maxTokens: Int!, $query: String) {\n    profile(id: $id) {\n      profileId\n      context(maxTokens: $maxTokens, query: $query) {\n        text\n        tokens\n        maxTokens\n        encoding\n        factsIncluded\n        factsTotal\n        summaryIncluded\n        truncated\n        rankedBy\n      }\n    }\n  }\n"): typeof import('./graphql').ProfileContextDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReextractProfile($id: ID!, $dryRun: Boolean!, $expectedVersion: Int) {\n    reextractProfile(id: $id, dryRun: $dryRun, expectedVersion: $expectedVersion) {\n      profileId\n      dryRun\n      applied\n      version\n      newVersion\n      changed\n      changes\n      summary\n      reextracted\n      skippedWithoutText\n      batches\n    }\n  }\n"): typeof import('./graphql').ReextractProfileDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteProfile($id: ID!) {\n    deleteProfile(id: $id)\n  }\n"): typeof import('./graphql').DeleteProfileDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForgetValue($id: ID!, $section: String!, $value: String!, $category: String) {\n    forgetProfileValue(id: $id, section: $section, value: $value, category: $category) { ...ProfileFields }\n  }\n"): typeof import('./graphql').ForgetValueDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteSubmissionEvidence($profileId: ID!, $submissionId: ID!) {\n    deleteSubmissionEvidence(profileId: $profileId, submissionId: $submissionId) { submissionId passagesDeleted textDeleted }\n  }\n"): typeof import('./graphql').DeleteSubmissionEvidenceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RollbackProfile($id: ID!, $toSeq: Int!) {\n    rollbackProfile(id: $id, toSeq: $toSeq) { ...ProfileFields }\n  }\n"): typeof import('./graphql').RollbackProfileDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ProfileStatusChanged($id: ID!) {\n    profileStatusChanged(id: $id) {\n      profileId\n      status\n      profile { ...ProfileFields }\n    }\n  }\n"): typeof import('./graphql').ProfileStatusChangedDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
