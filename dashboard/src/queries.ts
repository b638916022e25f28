/** Every GraphQL document the dashboard sends. */

const ACCOUNT = 'id email tenantId tenantName'
const APP = 'id name createdAt keyPrefix keyCreatedAt'
const SCORED = '{ value confidence }'
const PAGE_INFO = 'pageInfo { endCursor hasNextPage }'

export const HISTORY_PAGE_SIZE = 20
export const SUBMISSION_PAGE_SIZE = 20

const HISTORY_ENTRY = 'seq extractedOn changes submissionIds inputType'
const SUBMISSION =
  'id inputType status attempts error createdAt startedAt finishedAt promptVersion ' +
  'usage { totalTokens }'

/** Everything the profile page shows; also what the live subscription returns. */
const PROFILE_FIELDS = `
fragment ProfileFields on Profile {
  profileId
  status
  language
  summary
  lastUpdated
  createdAt
  coreInfo {
    name ${SCORED}
    age ${SCORED}
    gender ${SCORED}
    location ${SCORED}
    occupation ${SCORED}
  }
  interests { category values ${SCORED} }
  personality {
    traits ${SCORED}
    moodTrends { default ${SCORED} recent ${SCORED} }
  }
  preferences { conversationStyle ${SCORED} topicsToAvoid ${SCORED} }
  memories { event date importance confidence }
  history(first: ${HISTORY_PAGE_SIZE}) { entries { ${HISTORY_ENTRY} } ${PAGE_INFO} }
  submissions(first: ${SUBMISSION_PAGE_SIZE}) { nodes { ${SUBMISSION} } ${PAGE_INFO} }
}`

// --- account and session -------------------------------------------------------------------------------------

export const SIGN_IN = `mutation SignIn($email: String!, $password: String!) {
  signIn(email: $email, password: $password) { account { ${ACCOUNT} } csrfToken }
}`

export const SIGN_UP = `mutation SignUp($email: String!, $password: String!, $inviteCode: String) {
  signUp(email: $email, password: $password, inviteCode: $inviteCode) { account { ${ACCOUNT} } csrfToken }
}`

export const SIGN_OUT = `mutation SignOut { signOut }`

export const ME = `query Me { me { ${ACCOUNT} } }`

export const CHANGE_PASSWORD = `mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
  changePassword(currentPassword: $currentPassword, newPassword: $newPassword)
}`

// --- apps ------------------------------------------------------------------------------------------------------

export const APPS = `query Apps { apps { ${APP} } }`

export const CREATE_APP = `mutation CreateApp($name: String!) {
  createApp(name: $name) { app { ${APP} } apiKey }
}`

export const ROTATE_APP_KEY = `mutation RotateAppKey($id: ID!) {
  rotateAppKey(id: $id) { app { ${APP} } apiKey }
}`

export const RENAME_APP = `mutation RenameApp($id: ID!, $name: String!) {
  renameApp(id: $id, name: $name) { ${APP} }
}`

export const REVOKE_APP_KEY = `mutation RevokeAppKey($id: ID!) {
  revokeAppKey(id: $id) { ${APP} }
}`

export const DELETE_APP = `mutation DeleteApp($id: ID!) { deleteApp(id: $id) }`

// --- profiles --------------------------------------------------------------------------------------------------

export const SEARCH_PROFILES = `query SearchProfiles(
  $query: String, $sensitivity: Float, $filter: SearchFilter, $sort: SearchSort, $page: Int, $pageSize: Int
) {
  searchProfiles(
    query: $query, sensitivity: $sensitivity, filter: $filter, sort: $sort, page: $page, pageSize: $pageSize
  ) {
    total
    page
    pageSize
    profiles {
      similarityScore
      profile { profileId status lastUpdated coreInfo { name { value } } }
    }
  }
}`

export const PROFILE = `query Profile($id: ID!) { profile(id: $id) { ...ProfileFields } }
${PROFILE_FIELDS}`

export const PROFILE_HISTORY = `query ProfileHistory($id: ID!, $after: String) {
  profile(id: $id) {
    profileId
    history(first: ${HISTORY_PAGE_SIZE}, after: $after) { entries { ${HISTORY_ENTRY} } ${PAGE_INFO} }
  }
}`

export const PROFILE_SUBMISSIONS = `query ProfileSubmissions($id: ID!, $after: String) {
  profile(id: $id) {
    profileId
    submissions(first: ${SUBMISSION_PAGE_SIZE}, after: $after) { nodes { ${SUBMISSION} } ${PAGE_INFO} }
  }
}`

export const DELETE_PROFILE = `mutation DeleteProfile($id: ID!) { deleteProfile(id: $id) }`

export const PROFILE_STATUS_CHANGED = `subscription ProfileStatusChanged($id: ID!) {
  profileStatusChanged(id: $id) { profileId status profile { ...ProfileFields } }
}
${PROFILE_FIELDS}`
