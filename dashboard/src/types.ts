/** Shapes of the GraphQL data the dashboard reads (only the fields it selects). */

export interface Account {
  id: string
  email: string
  tenantId: string
  tenantName: string
}

export interface SessionState {
  account: Account | null
  csrfToken: string | null
  signUpOpen: boolean
  /** Sign-up needs an invite code (PROFILER_SIGNUP=invite). */
  signUpByInvite: boolean
}

export interface DashboardApp {
  id: string
  name: string
  createdAt: string
  keyPrefix: string | null
  keyCreatedAt: string | null
}

export interface AppWithKey {
  app: DashboardApp
  apiKey: string
}

export interface Scored<T = string> {
  value: T
  confidence: number
}

export type ProfileStatus = 'PROCESSING' | 'READY'
export type ProfileEventStatus = ProfileStatus | 'DELETED'

export interface PageInfo {
  endCursor: string | null
  hasNextPage: boolean
}

export interface HistoryEntry {
  seq: number
  extractedOn: string
  changes: Record<string, unknown>
  submissionIds: string[]
  inputType: string
}

export interface HistoryPage {
  entries: HistoryEntry[]
  pageInfo: PageInfo
}

export type SubmissionStatus = 'PENDING' | 'PROCESSING' | 'DONE' | 'FAILED'

export interface Submission {
  id: string
  inputType: 'TEXT' | 'CONVERSATION' | 'STRUCTURED'
  status: SubmissionStatus
  attempts: number
  error: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  usage: { totalTokens: number } | null
  promptVersion: string | null
}

export interface SubmissionPage {
  nodes: Submission[]
  pageInfo: PageInfo
}

export interface Memory {
  event: string
  date: string | null
  importance: string | null
  confidence: number | null
}

export interface Profile {
  profileId: string
  status: ProfileStatus
  language: string | null
  summary: string | null
  lastUpdated: string
  createdAt: string
  coreInfo: {
    name: Scored | null
    age: Scored<number> | null
    gender: Scored | null
    location: Scored | null
    occupation: Scored | null
  }
  interests: { category: string; values: Scored[] }[]
  personality: {
    traits: Scored[]
    moodTrends: { default: Scored | null; recent: Scored | null }
  }
  preferences: { conversationStyle: Scored | null; topicsToAvoid: Scored[] }
  memories: Memory[]
  history: HistoryPage
  submissions: SubmissionPage
}

export interface ProfileStatusEvent {
  profileId: string
  status: ProfileEventStatus
  profile: Profile | null
}

export interface SearchHit {
  similarityScore: number | null
  profile: {
    profileId: string
    status: ProfileStatus
    lastUpdated: string
    coreInfo: { name: { value: string } | null }
  }
}

export interface SearchResult {
  profiles: SearchHit[]
  total: number
  page: number
  pageSize: number
}

export type FilterField = 'ID' | 'NAME' | 'LOCATION' | 'AGE' | 'GENDER' | 'LANGUAGE' | 'STATUS'
export type SortField = 'LAST_UPDATED' | 'CREATED_AT' | 'ID' | 'NAME' | 'AGE' | 'LOCATION'
export type SortOrder = 'ASC' | 'DESC'
