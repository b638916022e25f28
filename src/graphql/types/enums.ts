import { registerEnumType } from 'type-graphql'

// GraphQL names are SCREAMING_CASE; the values are the domain's lower-case strings, so no mapping code is needed.
export enum ProfileStatusEnum {
  PROCESSING = 'processing',
  READY = 'ready',
}
export enum ProfileEventStatus {
  PROCESSING = 'processing',
  READY = 'ready',
  DELETED = 'deleted',
}
export enum InputTypeEnum {
  TEXT = 'text',
  CONVERSATION = 'conversation',
  STRUCTURED = 'structured',
}
export enum SubmissionStatusEnum {
  PENDING = 'pending',
  PROCESSING = 'processing',
  DONE = 'done',
  FAILED = 'failed',
}
export enum FilterFieldEnum {
  ID = 'id',
  NAME = 'name',
  LOCATION = 'location',
  AGE = 'age',
  GENDER = 'gender',
  LANGUAGE = 'language',
  STATUS = 'status',
}
export enum SortFieldEnum {
  LAST_UPDATED = 'last_updated',
  CREATED_AT = 'created_at',
  ID = 'id',
  NAME = 'name',
  AGE = 'age',
  LOCATION = 'location',
}
export enum SortOrderEnum {
  ASC = 'asc',
  DESC = 'desc',
}

registerEnumType(ProfileStatusEnum, { name: 'ProfileStatus', description: 'PROCESSING while a submission is pending, READY otherwise' })
registerEnumType(ProfileEventStatus, { name: 'ProfileEventStatus', description: 'A profile status change, or its deletion' })
registerEnumType(InputTypeEnum, { name: 'InputType' })
registerEnumType(SubmissionStatusEnum, { name: 'SubmissionStatus' })
registerEnumType(FilterFieldEnum, { name: 'FilterField' })
registerEnumType(SortFieldEnum, { name: 'SortField' })
registerEnumType(SortOrderEnum, { name: 'SortOrder' })
