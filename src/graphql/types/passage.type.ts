import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql'
import { DEFAULT_PASSAGE_PAGE } from '../../domain/requests.js'
import { PageInfo } from './profile.type.js'

@ObjectType({
  description: 'What the person said, kept as evidence beside the facts (docs/guides/evidence.md)',
  simpleResolvers: true,
})
export class Passage {
  @Field(() => ID) submissionId!: string
  @Field(() => Int, { description: 'Order within its submission, from 0' }) position!: number
  @Field(() => String, {
    nullable: true,
    description: "The conversation's label of the profiled person; null for a text",
  })
  speaker!: string | null
  @Field(() => String, {
    nullable: true,
    description: "The partner's turn this answers (at most 300 characters); null when none",
  })
  prompt!: string | null
  @Field(() => String, { description: "The person's own words (at most 1,000 characters)" }) text!: string
  @Field(() => String, {
    description: "When it was said: its message's timestamp, else its submission's occurredAt (ISO 8601)",
  })
  occurredAt!: string
  @Field(() => String, {
    nullable: true,
    description: 'When it was hidden from contexts and search (only listed with includeHidden)',
  })
  hiddenAt!: string | null
  @Field(() => String, { nullable: true, description: 'Why: what hid it' }) hiddenBy!: string | null
}

@ObjectType({ simpleResolvers: true })
export class PassagePage {
  @Field(() => [Passage]) nodes!: Passage[]
  @Field(() => PageInfo) pageInfo!: PageInfo
}

@ArgsType()
export class PassagePageArgs {
  @Field(() => Int, { defaultValue: DEFAULT_PASSAGE_PAGE, description: '1 to PROFILER_MAX_PAGE_SIZE (100)' })
  first!: number
  @Field(() => String, { nullable: true, description: 'endCursor of the previous page' }) after?: string | null
  @Field(() => ID, { nullable: true, description: 'Only the passages of this submission' }) submissionId?: string | null
  @Field(() => Boolean, {
    defaultValue: false,
    description: "Also hidden passages (a forgotten value's evidence), with hiddenAt and hiddenBy",
  })
  includeHidden!: boolean
}
