import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql'
import { FilterFieldEnum, ProfileEventStatus, SortFieldEnum, SortOrderEnum } from './enums.js'
import { Profile } from './profile.type.js'

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
  @Field(() => Float, { nullable: true, description: "Calibrated 0-100 score (the embedding's similarity, raised when the profile holds every content word of the query); only when a query was given" })
  similarityScore?: number
  @Field(() => Profile) profile!: Profile
}

@ObjectType({ simpleResolvers: true })
export class SearchResult {
  @Field(() => [SearchHit]) profiles!: SearchHit[]
  @Field(() => Int) total!: number
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
  @Field(() => Profile, { nullable: true, description: 'The profile as it is now; null once deleted' }) profile!: Profile | null
}
