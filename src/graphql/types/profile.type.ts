import { GraphQLJSONObject } from 'graphql-scalars'
import { Field, Float, ID, Int, ObjectType } from 'type-graphql'
import { ContextIncludeEnum, InputTypeEnum, ProfileStatusEnum, SubmissionStatusEnum } from './enums.js'

// Explicit types in every decorator: esbuild (tsx, vitest) emits no decorator metadata.

@ObjectType({ simpleResolvers: true })
export class ScoredString {
  @Field(() => String) value!: string
  @Field(() => Float) confidence!: number
}

@ObjectType({ simpleResolvers: true })
export class ScoredInt {
  @Field(() => Int) value!: number
  @Field(() => Float) confidence!: number
}

@ObjectType({ simpleResolvers: true })
export class CoreInfo {
  @Field(() => ScoredString, { nullable: true }) name?: ScoredString
  @Field(() => ScoredInt, { nullable: true }) age?: ScoredInt
  @Field(() => ScoredString, { nullable: true }) gender?: ScoredString
  @Field(() => ScoredString, { nullable: true }) location?: ScoredString
  @Field(() => ScoredString, { nullable: true }) occupation?: ScoredString
}

@ObjectType({ description: 'One interest category (hobbies, music, food, ...) and its values', simpleResolvers: true })
export class InterestCategory {
  @Field(() => String) category!: string
  @Field(() => [ScoredString]) values!: ScoredString[]
}

@ObjectType({ simpleResolvers: true })
export class MoodTrends {
  @Field(() => ScoredString, { nullable: true, description: 'The mood seen most often' }) default?: ScoredString
  @Field(() => ScoredString, { nullable: true, description: 'The latest mood' }) recent?: ScoredString
}

@ObjectType({ simpleResolvers: true })
export class Personality {
  @Field(() => [ScoredString]) traits!: ScoredString[]
  @Field(() => MoodTrends) moodTrends!: MoodTrends
}

@ObjectType({ simpleResolvers: true })
export class Memory {
  @Field(() => String) event!: string
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) date?: string
  @Field(() => String, { nullable: true, description: 'low, medium or high' }) importance?: string
  @Field(() => Float, { nullable: true }) confidence?: number
}

@ObjectType({ simpleResolvers: true })
export class Preferences {
  @Field(() => ScoredString, { nullable: true }) conversationStyle?: ScoredString
  @Field(() => [ScoredString]) topicsToAvoid!: ScoredString[]
}

@ObjectType({
  description:
    'A value a scalar held before, with its window in event time (docs/guides/the-profile.md#facts-over-time)',
  simpleResolvers: true,
})
export class PastValue {
  @Field(() => String, { description: 'The value (an age as its decimal text)' }) value!: string
  @Field(() => Float) confidence!: number
  @Field(() => String, { description: 'ISO 8601: when it was first said' }) from!: string
  @Field(() => String, { description: 'ISO 8601: when the value after it was first said (it held until then)' })
  until!: string
  @Field(() => String, { description: 'ISO 8601: the latest time it was said' }) lastSaid!: string
}

@ObjectType({ description: 'The earlier values of one scalar, newest first', simpleResolvers: true })
export class ScalarPast {
  @Field(() => String, {
    description:
      'The scalar: core_info.name|age|gender|location|occupation, preferences.conversation_style or ' +
      'personality.mood_trends.recent',
  })
  field!: string
  @Field(() => [PastValue]) values!: PastValue[]
}

@ObjectType({ simpleResolvers: true })
export class FieldTimestamp {
  @Field(() => String, { description: 'A section (core_info) or field (core_info.location)' }) field!: string
  @Field(() => String, { description: 'ISO 8601 date-time of the last change' }) at!: string
}

@ObjectType({ simpleResolvers: true })
export class UpdateLogEntry {
  @Field(() => Int) seq!: number
  @Field(() => String) extractedOn!: string
  @Field(() => GraphQLJSONObject, {
    description:
      'The partial profile this batch added or changed (snake_case, as in REST), with `replaced` (old scalar ' +
      'values with the window they held: `from`, `until`), `past_values` (other past values recorded or ' +
      'changed), `removed` and `dropped` (what the profile limits let go); a list or object nested 100 levels ' +
      'down comes as its JSON text',
  })
  changes!: Record<string, unknown>
  @Field(() => [ID]) submissionIds!: string[]
  @Field(() => String) inputType!: string
}

@ObjectType({ simpleResolvers: true })
export class PageInfo {
  @Field(() => String, { nullable: true }) endCursor!: string | null
  @Field(() => Boolean) hasNextPage!: boolean
}

@ObjectType({ simpleResolvers: true })
export class HistoryPage {
  @Field(() => [UpdateLogEntry]) entries!: UpdateLogEntry[]
  @Field(() => PageInfo) pageInfo!: PageInfo
}

@ObjectType({ description: 'Tokens reported by the AI provider', simpleResolvers: true })
export class TokenUsage {
  // Float, not Int: a tenant's totals outgrow GraphQL's 32-bit Int.
  @Field(() => Float) promptTokens!: number
  @Field(() => Float) completionTokens!: number
  @Field(() => Float) totalTokens!: number
}

@ObjectType({ simpleResolvers: true })
export class TenantUsage extends TokenUsage {
  @Field(() => Int, { description: 'Submissions counted (of profiles that still exist)' }) submissions!: number
}

@ObjectType({ simpleResolvers: true })
export class Submission {
  @Field(() => ID) id!: string
  @Field(() => ID) profileId!: string
  @Field(() => InputTypeEnum) inputType!: InputTypeEnum
  @Field(() => SubmissionStatusEnum) status!: SubmissionStatusEnum
  @Field(() => Int) attempts!: number
  @Field(() => String, { nullable: true }) error!: string | null
  @Field(() => String) createdAt!: string
  @Field(() => String, {
    description:
      'When the text was said or written: as submitted, or the acceptance time (createdAt) when none was given',
  })
  occurredAt!: string
  @Field(() => String, { nullable: true }) startedAt!: string | null
  @Field(() => String, { nullable: true }) finishedAt!: string | null
  @Field(() => TokenUsage, {
    nullable: true,
    description: "This submission's share of the AI requests that served it (null: none, e.g. the local provider)",
  })
  usage!: TokenUsage | null
  @Field(() => String, { nullable: true, description: 'Version of the prompt that extracted it' }) promptVersion!:
    | string
    | null
  @Field(() => Boolean, {
    description:
      'Whether its text is still stored: false once retention dropped it or its evidence was deleted ' +
      '(deleteSubmissionEvidence)',
  })
  hasText!: boolean
  seq!: number
}

@ObjectType({ simpleResolvers: true })
export class SubmissionPage {
  @Field(() => [Submission]) nodes!: Submission[]
  @Field(() => PageInfo) pageInfo!: PageInfo
}

@ObjectType({ simpleResolvers: true })
export class Profile {
  @Field(() => ID) profileId!: string
  @Field(() => ID) tenantId!: string
  @Field(() => ProfileStatusEnum) status!: ProfileStatusEnum
  @Field(() => CoreInfo) coreInfo!: CoreInfo
  @Field(() => [InterestCategory]) interests!: InterestCategory[]
  @Field(() => Personality) personality!: Personality
  @Field(() => [Memory]) memories!: Memory[]
  @Field(() => Preferences) preferences!: Preferences
  @Field(() => GraphQLJSONObject, {
    description:
      'Values of the apps\' custom schema fields: {"<section>": {"<field>": {value, confidence} or [{value, ' +
      'confidence}]}}; {} when none',
  })
  custom!: Record<string, unknown>
  @Field(() => [ScalarPast], {
    description: 'Earlier values of the scalars that had another value, each with the window it held; [] when none',
  })
  pastValues!: ScalarPast[]
  @Field(() => String, { nullable: true, description: 'ISO 639-1 code of the language the person writes in' })
  language?: string
  @Field(() => [FieldTimestamp]) fieldTimestamps!: FieldTimestamp[]
  @Field(() => String, { nullable: true, description: 'For use as LLM context' }) summary?: string
  @Field(() => String) lastUpdated!: string
  @Field(() => String) createdAt!: string
}

@ObjectType({
  simpleResolvers: true,
  description: 'The profile as compact text for an LLM prompt, within a token budget (as GET /v1/profile/{id}/context)',
})
export class ProfileContext {
  @Field(() => String, {
    description:
      'Header line, then facts as "- " lines grouped by section, evidence passages under "What they said:" ' +
      'under a line of the date they were said (by day, "8 May 2023:", without a query or when the query asks ' +
      'about time; by year, "2023:", otherwise), then the summary when it fits; empty when not even the header ' +
      'fits',
  })
  text!: string
  @Field(() => Int, { description: 'Exact token count of text (encoding)' }) tokens!: number
  @Field(() => Int) maxTokens!: number
  @Field(() => String, { description: 'The tokenizer: o200k_base' }) encoding!: string
  @Field(() => Int) factsIncluded!: number
  @Field(() => Int) factsTotal!: number
  @Field(() => Int, { description: 'Evidence passages quoted (what the person said, dated)' }) passagesIncluded!: number
  @Field(() => ContextIncludeEnum) include!: ContextIncludeEnum
  @Field(() => Boolean) summaryIncluded!: boolean
  @Field(() => Boolean, { description: 'A fact or the summary was left out for the budget' }) truncated!: boolean
  @Field(() => String, {
    description: 'confidence (no query), query (words and embedding), query_lexical (the embedder failed: words only)',
  })
  rankedBy!: string
}
