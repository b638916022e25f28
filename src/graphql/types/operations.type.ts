import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql'
import { FilterFieldEnum, ProfileEventStatus, SortFieldEnum, SortOrderEnum } from './enums.js'
import { GraphQLJSONObject } from 'graphql-scalars'
import { Profile, TokenUsage } from './profile.type.js'

@InputType()
export class SearchFilter {
  @Field(() => FilterFieldEnum) field!: FilterFieldEnum
  @Field(() => String, { description: 'Case-insensitive partial match; % and _ are literals' }) value!: string
}

@InputType()
export class SearchSort {
  @Field(() => SortFieldEnum) field!: SortFieldEnum
  @Field(() => SortOrderEnum, { defaultValue: SortOrderEnum.DESC }) order!: SortOrderEnum
}

@ObjectType({ simpleResolvers: true })
export class SearchHit {
  @Field(() => Float, {
    nullable: true,
    description:
      "Calibrated 0-100 score (the embedding's similarity, raised when the profile holds every content word of " +
      'the query); only when a query was given',
  })
  similarityScore?: number
  @Field(() => Profile) profile!: Profile
}

@ObjectType({ simpleResolvers: true })
export class SearchResult {
  @Field(() => [SearchHit]) profiles!: SearchHit[]
  @Field(() => Int, {
    description:
      'How many profiles match in all. Exact, except for a search with a query whose candidates (the profiles ' +
      'that pass the filter) are more than PROFILER_SEARCH_EXACT_TOTAL_MAX (default 5,000) and whose page is ' +
      'full: then estimated from a sample, and totalIsEstimate is true',
  })
  total!: number
  @Field(() => Boolean, {
    description: 'Whether total is an estimate (see total); false for a listing and for a search of a small tenant',
  })
  totalIsEstimate!: boolean
  @Field(() => Int) page!: number
  @Field(() => Int) pageSize!: number
}

@ObjectType({ simpleResolvers: true })
export class SubmissionAck {
  @Field(() => ID, { description: 'The submission id' }) id!: string
  @Field(() => ID) profileId!: string
  @Field(() => String) message!: string
}

@ObjectType({ simpleResolvers: true })
export class ProfileStatusEvent {
  @Field(() => ID) profileId!: string
  @Field(() => ProfileEventStatus) status!: ProfileEventStatus
  @Field(() => Profile, { nullable: true, description: 'The profile as it is now; null once deleted' })
  profile!: Profile | null
}

@ObjectType({
  simpleResolvers: true,
  description:
    'A re-extraction: the diff against the profile at `version`, and whether it was applied (as POST ' +
    '/v1/profile/{id}/reextract)',
})
export class Reextraction {
  @Field(() => ID) profileId!: string
  @Field(() => Boolean) dryRun!: boolean
  @Field(() => Boolean, { description: 'True when the re-extracted profile was written' }) applied!: boolean
  @Field(() => Int, {
    description: 'The profile version the diff was computed on: pass it as expectedVersion to apply exactly this diff',
  })
  version!: number
  @Field(() => Int, { nullable: true, description: 'The version after the apply' }) newVersion?: number | null
  @Field(() => Boolean) changed!: boolean
  @Field(() => GraphQLJSONObject, {
    description:
      'As an update_log entry (snake_case): values added or changed, `replaced`, `removed` (list entries), and ' +
      '`cleared` (scalars and memories no longer held)',
  })
  changes!: Record<string, unknown>
  @Field(() => String, { description: 'The summary of the re-extracted profile' }) summary!: string
  @Field(() => String, { nullable: true }) previousSummary!: string | null
  @Field(() => Int, { description: 'Applied submissions replayed' }) reextracted!: number
  @Field(() => Int, {
    description: 'Applied submissions skipped because retention dropped their text (or an import left it out)',
  })
  skippedWithoutText!: number
  @Field(() => Int, {
    description:
      'Applied submissions whose text is longer than PROFILER_MAX_DATA_BYTES (imported before imports were ' +
      'bounded): not replayed',
  })
  skippedTooLarge!: number
  @Field(() => Int, { description: 'Extraction requests made (PROFILER_BATCH_SIZE submissions each)' }) batches!: number
  @Field(() => TokenUsage, { nullable: true, description: 'Tokens the provider reported for this re-extraction' })
  usage?: TokenUsage | null
}
