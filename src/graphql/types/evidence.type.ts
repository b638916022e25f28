import { ArgsType, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql'
import { EVIDENCE_DEFAULT_LIMIT, EVIDENCE_MAX_LIMIT, EVIDENCE_MAX_SUBMISSIONS } from '../../domain/provenance.js'

// Provenance (docs/guides/evidence.md). Explicit types in every decorator: esbuild (tsx, vitest) emits no decorator
// metadata.

export enum EvidenceMatchEnum {
  QUOTE = 'QUOTE',
  EXTRACTION = 'EXTRACTION',
  WORDS = 'WORDS',
}
registerEnumType(EvidenceMatchEnum, {
  name: 'EvidenceMatch',
  description:
    'How a passage was found to support a value: QUOTE, it holds the words the model quoted for it (openai); ' +
    "EXTRACTION, its submission's extraction proposed the value and it holds the value's words; WORDS, it holds " +
    'every word of the value (no stored extraction says where it was said)',
})

@ArgsType()
export class EvidenceArgs {
  @Field(() => String, {
    description:
      "The value's section as forgetProfileValue names it: core_info.location, interests, memories, ..., or " +
      'custom.<section>.<field>',
  })
  field!: string
  @Field(() => String, { description: 'The value (for memories, the event); compared as the merge compares values' })
  value!: string
  @Field(() => String, { nullable: true, description: 'interests only: the category (any when omitted)' }) category?:
    | string
    | null
  @Field(() => Int, { defaultValue: EVIDENCE_DEFAULT_LIMIT, description: `Passages at most, 1-${EVIDENCE_MAX_LIMIT}` })
  limit!: number
}

@ObjectType({
  description: 'An evidence passage that supports a value: what the person said, where and when',
  simpleResolvers: true,
})
export class EvidencePassage {
  @Field(() => ID) submissionId!: string
  @Field(() => Int, { description: '0-based order within its submission' }) position!: number
  @Field(() => String, {
    nullable: true,
    description: "The conversation's profiled person (their label); null for a text",
  })
  speaker!: string | null
  @Field(() => String, { nullable: true, description: "The partner's turn it answers" }) prompt!: string | null
  @Field(() => String) text!: string
  @Field(() => String, { description: 'When it was said (ISO 8601)' }) occurredAt!: string
  @Field(() => EvidenceMatchEnum) match!: EvidenceMatchEnum
}

@ObjectType({ description: 'A submission whose stored extraction proposed the value', simpleResolvers: true })
export class EvidenceSource {
  @Field(() => ID) submissionId!: string
  @Field(() => String) occurredAt!: string
  @Field(() => String, {
    nullable: true,
    description: 'The words the model quoted for the value (openai); null when none was kept',
  })
  quote!: string | null
}

@ObjectType({
  description: 'Why the profile says a value: the passages that support it, best first',
  simpleResolvers: true,
})
export class Evidence {
  @Field(() => String) field!: string
  @Field(() => String) value!: string
  @Field(() => String, { nullable: true }) category!: string | null
  @Field(() => [EvidencePassage]) passages!: EvidencePassage[]
  @Field(() => [EvidenceSource], { description: 'Newest first' }) sources!: EvidenceSource[]
  @Field(() => Int, {
    description:
      `Submissions whose stored extraction was read: the newest ${EVIDENCE_MAX_SUBMISSIONS} applied ones at ` + `most`,
  })
  extractionsRead!: number
}

@ObjectType({
  description: "What deleteSubmissionEvidence deleted: the submission's passages and its text",
  simpleResolvers: true,
})
export class SubmissionEvidenceDeletion {
  @Field(() => ID) profileId!: string
  @Field(() => ID) submissionId!: string
  @Field(() => Int) passagesDeleted!: number
  @Field(() => Boolean, { description: 'false when its text was already gone (retention, an earlier deletion)' })
  textDeleted!: boolean
}
