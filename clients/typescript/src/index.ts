export {
  ProfilerClient,
  SearchIterator,
  parseRetryAfter,
  type ContextOptions,
  type ForgetOptions,
  type Logger,
  type ProfilerClientOptions,
  type RequestOptions,
  type RetryInfo,
  type SearchOptions,
  type SubmitInput,
  type SubmitOptions,
  type WaitOptions,
} from './client.js'
export * from './errors.js'
export type * from './types.js'
export type { WebSocketConstructor } from './subscription.js'
export type { paths, components } from './generated/openapi.js'
