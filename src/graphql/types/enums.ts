import { registerEnumType } from 'type-graphql'
import { FILTER_FIELDS, SORT_FIELDS } from '../../domain/requests.js'
import { INPUT_TYPES } from '../../domain/profile.js'

// GraphQL names are SCREAMING_CASE; the values are the domain's lower-case strings, so no mapping code is needed.

/** An enum object built from one of the domain's value lists, so GraphQL cannot drift from REST's validation. */
function screaming<T extends string>(values: readonly T[]): { [K in T as Uppercase<K>]: K } {
  return Object.fromEntries(values.map((v) => [v.toUpperCase(), v])) as { [K in T as Uppercase<K>]: K }
}
export enum ProfileStatusEnum {
  PROCESSING = 'processing',
  READY = 'ready',
}
export enum ProfileEventStatus {
  PROCESSING = 'processing',
  READY = 'ready',
  DELETED = 'deleted',
}
export const InputTypeEnum = screaming(INPUT_TYPES)
export type InputTypeEnum = (typeof INPUT_TYPES)[number]
export enum SubmissionStatusEnum {
  PENDING = 'pending',
  PROCESSING = 'processing',
  DONE = 'done',
  FAILED = 'failed',
}
export const FilterFieldEnum = screaming(FILTER_FIELDS)
export type FilterFieldEnum = (typeof FILTER_FIELDS)[number]
export const SortFieldEnum = screaming(SORT_FIELDS)
export type SortFieldEnum = (typeof SORT_FIELDS)[number]
export enum SortOrderEnum {
  ASC = 'asc',
  DESC = 'desc',
}

registerEnumType(ProfileStatusEnum, {
  name: 'ProfileStatus',
  description: 'PROCESSING while a submission is pending, READY otherwise',
})
registerEnumType(ProfileEventStatus, {
  name: 'ProfileEventStatus',
  description: 'A profile status change, or its deletion',
})
registerEnumType(InputTypeEnum, { name: 'InputType' })
registerEnumType(SubmissionStatusEnum, { name: 'SubmissionStatus' })
registerEnumType(FilterFieldEnum, { name: 'FilterField' })
registerEnumType(SortFieldEnum, { name: 'SortField' })
registerEnumType(SortOrderEnum, { name: 'SortOrder' })

export enum ContextIncludeEnum {
  ALL = 'ALL',
  FACTS = 'FACTS',
  PASSAGES = 'PASSAGES',
}
registerEnumType(ContextIncludeEnum, {
  name: 'ContextInclude',
  description: 'What a context is made of: facts and evidence passages, facts only, or passages only',
})
