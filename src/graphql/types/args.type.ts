import { ArgsType, Field, Float, ID, Int } from 'type-graphql'
import { ContextIncludeEnum, InputTypeEnum, SubmissionStatusEnum } from './enums.js'
import { SearchFilter, SearchSort } from './operations.type.js'

// Argument classes keep the schema's argument order as declared (esbuild applies parameter decorators in reverse).

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 20, description: '1-100' }) first!: number
  @Field(() => String, { nullable: true, description: 'endCursor of the previous page' }) after?: string | null
}

@ArgsType()
export class SubmissionPageArgs extends PageArgs {
  @Field(() => SubmissionStatusEnum, { nullable: true }) status?: SubmissionStatusEnum | null
}

@ArgsType()
export class SubmitArgs {
  @Field(() => ID) id!: string
  @Field(() => String) data!: string
  @Field(() => InputTypeEnum, { defaultValue: InputTypeEnum.TEXT }) inputType!: InputTypeEnum
  @Field(() => String, {
    nullable: true,
    description:
      'When the text was said or written, as occurred_at of REST: an ISO 8601 date-time with an offset or a ' +
      "date (YYYY-MM-DD), from 1900-01-01 to 5 minutes past the service's clock. Default: the latest timestamp " +
      "of a JSON conversation's messages, else the acceptance time",
  })
  occurredAt?: string | null
  @Field(() => String, { nullable: true, description: 'As the Idempotency-Key header of REST' }) idempotencyKey?:
    | string
    | null
}

@ArgsType()
export class ForgetArgs {
  @Field(() => ID) id!: string
  @Field(() => String, {
    description:
      'The section, as named in the profile: core_info.name, core_info.age, core_info.gender, ' +
      'core_info.location, core_info.occupation, interests, personality.traits, preferences.conversation_style, ' +
      'preferences.topics_to_avoid, memories, or custom.<section>.<field> of a custom schema',
  })
  section!: string
  @Field(() => String, { description: 'The value (for memories, the event); compared as the merge compares values' })
  value!: string
  @Field(() => String, { nullable: true, description: 'interests only: the category (any when omitted)' }) category?:
    | string
    | null
}

@ArgsType()
export class RollbackArgs {
  @Field(() => ID) id!: string
  @Field(() => Int, { description: 'seq of the history entry whose state to return to' }) toSeq!: number
}

@ArgsType()
export class SearchArgs {
  @Field(() => String, {
    nullable: true,
    description:
      'Natural-language text; when given, hybrid search: results are ranked by similarityScore, from the ' +
      "embedding and the profile's words",
  })
  query?: string | null
  @Field(() => Float, { nullable: true, description: '0-100, default 63' }) sensitivity?: number | null
  @Field(() => SearchFilter, { nullable: true }) filter?: SearchFilter | null
  @Field(() => SearchSort, { nullable: true, description: 'Ignored when query is given' }) sort?: SearchSort | null
  @Field(() => Int, { nullable: true, description: 'Default 1' }) page?: number | null
  @Field(() => Int, { nullable: true, description: 'Default 10, at most 100' }) pageSize?: number | null
}

@ArgsType()
export class ContextArgs {
  @Field(() => Int, { defaultValue: 1000, description: 'Token budget, 1-32000 (o200k_base)' }) maxTokens!: number
  @Field(() => String, {
    nullable: true,
    description: 'What the conversation is about: relevant facts and passages first (at most 1000 characters)',
  })
  query?: string | null
  @Field(() => ContextIncludeEnum, {
    nullable: true,
    description: 'ALL (default): facts and evidence passages (passages only with a query); FACTS; PASSAGES',
  })
  include?: ContextIncludeEnum | null
}
