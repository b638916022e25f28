import { z } from 'zod'
import { CUSTOM_FIELD_TYPES, CUSTOM_LIMITS, NAME_RE } from '../domain/custom-schema.js'
import { MAX_INSTRUCTION_CHARS, MAX_INSTRUCTIONS } from '../domain/summary-instructions.js'
import { forgetBodySchema, rollbackBodySchema } from '../domain/forget.js'
import { EVIDENCE_MAX_SUBMISSIONS } from '../domain/provenance.js'
import { submitBodySchema } from '../domain/requests.js'

/**
 * The bodies /v1 takes and answers, as the OpenAPI document names them (components.schemas): a generator
 * (openapi-typescript, openapi-generator) makes one type of each, and every operation refers to them by $ref instead of
 * repeating them inline.
 */
const components = z.registry<{ id: string }>()
const named = <T extends z.ZodType>(id: string, schema: T): T => (components.add(schema, { id }), schema)

const confidence = () => z.number().min(0).max(1)
const scoredString = named('ScoredString', z.object({ value: z.string(), confidence: confidence() }))
const scoredInt = named('ScoredInteger', z.object({ value: z.number().int(), confidence: confidence() }))

const customScored = named(
  'ScoredCustomValue',
  z.object({ value: z.union([z.string(), z.number(), z.boolean()]), confidence: confidence() }),
)

const CustomField = z.object({
  type: z.enum(CUSTOM_FIELD_TYPES),
  description: z
    .string()
    .max(CUSTOM_LIMITS.description)
    .optional()
    .describe(
      'Guides extraction; for string and string[], a list after a colon is the vocabulary the local extractor ' +
        'looks for',
    ),
  values: z
    .array(z.string())
    .max(CUSTOM_LIMITS.enumValues)
    .optional()
    .describe('enum: the allowed values (required); string, string[]: a vocabulary'),
  min: z.number().optional().describe('integer, number: inclusive lower bound'),
  max: z.number().optional().describe('integer, number: inclusive upper bound'),
})
export const CustomSchemaBody = z
  .object({
    sections: z
      .record(z.string().regex(NAME_RE), z.record(z.string().regex(NAME_RE), CustomField))
      .describe(
        `At most ${CUSTOM_LIMITS.sections} sections and ${CUSTOM_LIMITS.fields} fields in all; ` +
          'a section may not reuse a standard name (core_info, interests, ...)',
      ),
  })
  .describe(`At most ${CUSTOM_LIMITS.schemaBytes} bytes of JSON`)
export const SummaryInstructions = z.object({ app_id: z.string(), instructions: z.array(z.string()) })
export const SchemaVersion = z.object({
  app_id: z.string(),
  version: z.number().int().describe('0 when the app never set a schema'),
  schema: CustomSchemaBody,
  created_at: z.string().nullable(),
})
export const SchemaChange = SchemaVersion.extend({
  changed: z.boolean().describe('false when the schema equals the current one (no new version)'),
  dropped_fields: z
    .array(z.string())
    .describe(
      'section.field no longer declared by any app of the tenant: their values left the profiles, kept in each ' +
        "profile's history",
    ),
  profiles_updated: z.number().int(),
})

const Memory = z.object({
  event: z.string(),
  date: z.string().optional(),
  importance: z.enum(['low', 'medium', 'high']).optional(),
  confidence: z.number().optional(),
})

const PastValue = z.object({
  value: z.union([z.string(), z.number().int()]).describe('The value it held (an age is a number)'),
  confidence: z.number(),
  from: z.string().describe('ISO 8601: when it was first said'),
  until: z.string().describe('ISO 8601: when the value after it was first said (it held until then)'),
  last_said: z.string().describe('ISO 8601: the latest time it was said'),
})

const LogEntry = z.object({
  extracted_on: z.string(),
  changes: z
    .record(z.string(), z.unknown())
    .describe(
      'The partial profile this entry added or changed, plus `replaced` (old scalar values, with `from` and `until`: ' +
        'the window they held), `past_values` (past values recorded or changed, other than the replaced one), ' +
        '`removed` (what was negated or forgotten) and `dropped` ({total, limits, values}: what the profile limits ' +
        'did not let in or made room for)',
    ),
  submission_ids: z.array(z.string()),
  input_type: z
    .string()
    .describe('text, conversation, structured or mixed for submissions; forget and rollback for requests'),
  seq: z.number().int().describe("The entry's number (POST /v1/profile/{id}/rollback to_seq)"),
})

export const Profile = z.object({
  profile_id: z.string(),
  tenant_id: z.string(),
  status: z.enum(['processing', 'ready']),
  core_info: z.object({
    name: scoredString.optional(),
    age: scoredInt.optional(),
    gender: scoredString.optional(),
    location: scoredString.optional(),
    occupation: scoredString.optional(),
  }),
  interests: z.record(z.string(), z.array(scoredString)),
  personality: z.object({
    traits: z.array(scoredString),
    mood_trends: z.object({ default: scoredString.optional(), recent: scoredString.optional() }),
  }),
  memories: z.array(Memory),
  preferences: z.object({ conversation_style: scoredString.optional(), topics_to_avoid: z.array(scoredString) }),
  custom: z
    .record(z.string(), z.record(z.string(), z.union([customScored, z.array(customScored)])))
    .optional()
    .describe("Values of the apps' custom schema fields (section -> field -> scored value or list); absent when none"),
  past_values: z
    .record(z.string(), z.array(PastValue))
    .optional()
    .describe(
      'Earlier values of the scalars (core_info.*, preferences.conversation_style, personality.mood_trends.recent) ' +
        'by path, newest first, each with the window it held in event time; absent when none changed',
    ),
  language: z.string().optional().describe('ISO 639-1 code of the language the person writes in'),
  field_timestamps: z.record(z.string(), z.string()),
  update_log: z.array(LogEntry),
  last_updated: z.string(),
  created_at: z.string(),
  summary: z.string().optional(),
})

export const ErrorBody = z.object({ error: z.number().int(), message: z.string() })
export const Ack = z.object({ id: z.string(), message: z.string() })
export const ProfileResponse = z.object({ profile_id: z.string(), profile: Profile })
const SearchResult = Profile.extend({
  similarityScore: z
    .number()
    .optional()
    .describe(
      "Calibrated 0-100 score (the embedding's similarity, raised when the profile holds every content word of the " +
        'query); only when a query was given',
    ),
})
export const SearchPage = z.object({
  profiles: z.array(SearchResult),
  total: z
    .number()
    .describe(
      'How many profiles match in all. Exact, except for a search with a query whose candidates (the profiles that ' +
        'pass the filter) are more than PROFILER_SEARCH_EXACT_TOTAL_MAX (default 5,000) and whose page is full: ' +
        'then estimated from a sample, and totalIsEstimate is true',
    ),
  totalIsEstimate: z
    .literal(true)
    .optional()
    .describe(
      'Present (true) only when total is an estimate (see total); absent when it is exact, as for a listing and a ' +
        'search of a small tenant',
    ),
  page: z.number(),
  pageSize: z.number(),
})

export const ProfileContext = z.object({
  profile_id: z.string(),
  status: z
    .enum(['processing', 'ready'])
    .describe('processing: submissions are still being applied; the text is what the profile holds now'),
  text: z
    .string()
    .describe(
      'Header line, then facts as "- " lines grouped by section, evidence passages under "What they said:" under a ' +
        'line of the date they were said (by day, "8 May 2023:", without a query or when the query asks about time; ' +
        'by year, "2023:", otherwise), then the summary when it fits; empty when not even the header fits',
    ),
  tokens: z.number().int().describe('Exact token count of text'),
  max_tokens: z.number().int(),
  encoding: z.string().describe('The tokenizer: o200k_base'),
  facts_included: z.number().int(),
  facts_total: z.number().int(),
  passages_included: z.number().int().describe('Evidence passages quoted (what the person said)'),
  include: z.enum(['all', 'facts', 'passages']),
  summary_included: z.boolean(),
  truncated: z.boolean().describe('true when a fact or the summary was left out for the budget'),
  ranked_by: z
    .enum(['confidence', 'query', 'query_lexical'])
    .describe('query_lexical: the embedder failed, ranked by shared words only'),
})

const Passage = z.object({
  submission_id: z.string().describe('The submission it came from'),
  position: z.number().int().describe('Its order within the submission, from 0'),
  speaker: z.string().nullable().describe("The conversation's label of the profiled person; null for a text"),
  prompt: z.string().nullable().describe("The partner's turn it answers (at most 300 characters); null when none"),
  text: z.string().describe("The person's own words (at most 1,000 characters), on one line, without bidi controls"),
  occurred_at: z.string().describe("When it was said: its message's timestamp, else its submission's occurred_at"),
  hidden_at: z
    .string()
    .nullable()
    .optional()
    .describe('Only with include_hidden: when it was hidden from contexts and search (null: it is not)'),
  hidden_by: z.string().nullable().optional().describe('Only with include_hidden: what hid it'),
})
export const PassagePage = z.object({
  profile_id: z.string(),
  passages: z.array(Passage),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  has_more: z.boolean(),
})

export const Reextraction = z.object({
  profile_id: z.string(),
  dry_run: z.boolean(),
  applied: z.boolean().describe('true when the re-extracted profile was written (dry_run=false)'),
  version: z
    .number()
    .int()
    .describe('The profile version the diff was computed on: pass it as expected_version to apply exactly this diff'),
  new_version: z.number().int().optional().describe('The version after the apply'),
  changed: z.boolean(),
  changes: z
    .record(z.string(), z.unknown())
    .describe(
      'As an update_log entry: values the re-extracted profile adds or changes, `replaced` and `removed` (list ' +
        'entries), plus `cleared`: scalars and memories it no longer holds',
    ),
  summary: z.string().describe('The summary of the re-extracted profile'),
  previous_summary: z.string().nullable(),
  submissions: z.object({
    reextracted: z.number().int(),
    skipped_without_text: z
      .number()
      .int()
      .describe('Applied submissions whose text retention dropped (or an import left out): not replayed'),
    skipped_too_large: z
      .number()
      .int()
      .describe(
        'Applied submissions whose text is longer than PROFILER_MAX_DATA_BYTES (imported before imports were ' +
          'bounded): not replayed',
      ),
  }),
  batches: z
    .number()
    .int()
    .describe(
      'Extraction requests made, PROFILER_BATCH_SIZE submissions each; each is one operation of the request budget',
    ),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() }).optional(),
})

const EvidencePassage = z.object({
  submission_id: z.string(),
  position: z.number().int().describe('0-based order within its submission'),
  speaker: z.string().nullable().describe("The conversation's profiled person (their label); null for a text"),
  prompt: z.string().nullable().describe("The partner's turn it answers"),
  text: z.string().describe('What the person said'),
  occurred_at: z.string().describe('When it was said (ISO 8601)'),
  match: z
    .enum(['quote', 'extraction', 'words'])
    .describe(
      "quote: it holds the words the model quoted for the value (openai); extraction: its submission's extraction " +
        "proposed the value and it holds the value's words; words: it holds every word of the value (no stored " +
        'extraction says where it was said)',
    ),
})
const EvidenceSource = z.object({
  submission_id: z.string(),
  occurred_at: z.string(),
  quote: z.string().nullable().describe('The words the model quoted (openai)'),
})
export const EvidenceBody = z.object({
  profile_id: z.string(),
  field: z.string(),
  value: z.string(),
  category: z.string().optional().describe('When one was given (interests)'),
  passages: z
    .array(EvidencePassage)
    .describe(
      'The passages that support the value, best first; empty when none does (or the ones that did were hidden by a ' +
        'forget)',
    ),
  sources: z.array(EvidenceSource).describe('The submissions whose stored extraction proposed the value, newest first'),
  extractions_read: z
    .number()
    .int()
    .describe(
      `Submissions whose stored extraction was read: the newest ${EVIDENCE_MAX_SUBMISSIONS} applied ones at most`,
    ),
})
export const EvidenceDeletion = z.object({
  profile_id: z.string(),
  submission_id: z.string(),
  passages_deleted: z.number().int(),
  text_deleted: z.boolean().describe('false when the text was already gone (retention, an earlier call)'),
})

export const ImportResult = z.object({
  profiles: z.number(),
  history: z.number(),
  submissions: z.number(),
  submissions_kept: z.number(),
  embedded: z.number(),
  passages: z
    .number()
    .describe(
      'Evidence passages added, without vectors (profiler reindex embeds them; until then they are found by their ' +
        'words)',
    ),
  passages_kept: z
    .number()
    .describe('Passages the tenant had already: kept as they are, hidden when the file has them hidden'),
  passages_skipped: z
    .number()
    .describe(
      "Passage records not stored: their submission is not the tenant's under that profile, applied and with its text" +
        ' ' +
        '(a passage never outlives the text it comes from), or passages are turned off',
    ),
})

export const SchemaVersions = z.object({ versions: z.array(SchemaVersion) })
export const SummaryInstructionsBody = z.object({
  instructions: z.array(z.string().min(1).max(MAX_INSTRUCTION_CHARS)).max(MAX_INSTRUCTIONS),
})

for (const [id, schema] of Object.entries({
  Memory,
  PastValue,
  Profile,
  ProfileResponse,
  Error: ErrorBody,
  SubmissionAccepted: Ack,
  SearchResult,
  SearchPage,
  Context: ProfileContext,
  Passage,
  PassagePage,
  Reextraction,
  EvidencePassage,
  Evidence: EvidenceBody,
  EvidenceDeletion,
  ImportResult,
  CustomField,
  CustomSchema: CustomSchemaBody,
  SchemaVersion,
  SchemaChange,
  SchemaVersions,
  SummaryInstructions,
  SubmitRequest: submitBodySchema,
  ForgetRequest: forgetBodySchema,
  RollbackRequest: rollbackBodySchema,
  SummaryInstructionsRequest: SummaryInstructionsBody,
} as Record<string, z.ZodType>))
  named(id, schema)

/** A $ref to a named schema; a body the document does not name is a mistake of the route's declaration. */
export function componentRef(schema: z.ZodType): { $ref: string } {
  const id = components.get(schema)?.id
  if (!id) throw new Error('a body schema of the OpenAPI document must be named (components)')
  return { $ref: `#/components/schemas/${id}` }
}

/** components.schemas: each named schema, the ones it uses by $ref. */
export function componentSchemas(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(components, {
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  })
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema, $id, ...schema }]) => [id, schema]))
}
