import { z } from 'zod'
import { CUSTOM_FIELD_TYPES, CUSTOM_LIMITS, NAME_RE } from '../domain/custom-schema.js'
import { MAX_INSTRUCTION_CHARS, MAX_INSTRUCTIONS } from '../domain/summary-instructions.js'
import { forgetBodySchema, rollbackBodySchema } from '../domain/forget.js'
import { CUSTOM_FIELD_PATH, FORGET_SECTIONS } from '../domain/profile.js'
import { EVIDENCE_DEFAULT_LIMIT, EVIDENCE_MAX_LIMIT, EVIDENCE_MAX_SUBMISSIONS } from '../domain/provenance.js'
import { contextParamsSchema, passageParamsSchema, searchParamsSchema, submitBodySchema } from '../domain/requests.js'

/**
 * The named schemas of the document (components.schemas): a generator (openapi-typescript, openapi-generator) makes
 * one type of each, and every operation refers to them by $ref instead of repeating them inline.
 */
const components = z.registry<{ id: string }>()
const named = <T extends z.ZodType>(id: string, schema: T): T => (components.add(schema, { id }), schema)

const scoredString = named('ScoredString', z.object({ value: z.string(), confidence: z.number().min(0).max(1) }))
const scoredInt = named('ScoredInteger', z.object({ value: z.number().int(), confidence: z.number().min(0).max(1) }))

const customScored = named(
  'ScoredCustomValue',
  z.object({ value: z.union([z.string(), z.number(), z.boolean()]), confidence: z.number().min(0).max(1) }),
)

const CustomField = z.object({
  type: z.enum(CUSTOM_FIELD_TYPES),
  description: z
    .string()
    .max(CUSTOM_LIMITS.description)
    .optional()
    .describe(
      'Guides extraction; for string and string[], a list after a colon is the vocabulary the local extractor looks for',
    ),
  values: z
    .array(z.string())
    .max(CUSTOM_LIMITS.enumValues)
    .optional()
    .describe('enum: the allowed values (required); string, string[]: a vocabulary'),
  min: z.number().optional().describe('integer, number: inclusive lower bound'),
  max: z.number().optional().describe('integer, number: inclusive upper bound'),
})
const CustomSchemaBody = z
  .object({
    sections: z
      .record(z.string().regex(NAME_RE), z.record(z.string().regex(NAME_RE), CustomField))
      .describe(
        `At most ${CUSTOM_LIMITS.sections} sections and ${CUSTOM_LIMITS.fields} fields in all; a section may not reuse a standard name (core_info, interests, ...)`,
      ),
  })
  .describe(`At most ${CUSTOM_LIMITS.schemaBytes} bytes of JSON`)
const SummaryInstructions = z.object({ app_id: z.string(), instructions: z.array(z.string()) })
const SchemaVersion = z.object({
  app_id: z.string(),
  version: z.number().int().describe('0 when the app never set a schema'),
  schema: CustomSchemaBody,
  created_at: z.string().nullable(),
})
const SchemaChange = SchemaVersion.extend({
  changed: z.boolean().describe('false when the schema equals the current one (no new version)'),
  dropped_fields: z
    .array(z.string())
    .describe(
      "section.field no longer declared by any app of the tenant: their values left the profiles, kept in each profile's history",
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
      'Earlier values of the scalars (core_info.*, preferences.conversation_style, personality.mood_trends.recent) by path, newest first, each with the window it held in event time; absent when none changed',
    ),
  language: z.string().optional().describe('ISO 639-1 code of the language the person writes in'),
  field_timestamps: z.record(z.string(), z.string()),
  update_log: z.array(
    z.object({
      extracted_on: z.string(),
      changes: z
        .record(z.string(), z.unknown())
        .describe(
          'The partial profile this entry added or changed, plus `replaced` (old scalar values, with `from` and `until`: the window they held), `past_values` (past values recorded or changed, other than the replaced one), `removed` (what was negated or forgotten) and `dropped` ({total, limits, values}: what the profile limits did not let in or made room for)',
        ),
      submission_ids: z.array(z.string()),
      input_type: z
        .string()
        .describe('text, conversation, structured or mixed for submissions; forget and rollback for requests'),
      seq: z.number().int().describe("The entry's number (POST /v1/profile/{id}/rollback to_seq)"),
    }),
  ),
  last_updated: z.string(),
  created_at: z.string(),
  summary: z.string().optional(),
})

const ErrorBody = z.object({ error: z.number().int(), message: z.string() })
const Ack = z.object({ id: z.string(), message: z.string() })
const ProfileResponse = z.object({ profile_id: z.string(), profile: Profile })
const SearchResult = Profile.extend({
  similarityScore: z
    .number()
    .optional()
    .describe(
      "Calibrated 0-100 score (the embedding's similarity, raised when the profile holds every content word of the query); only when a query was given",
    ),
})
const SearchPage = z.object({
  profiles: z.array(SearchResult),
  total: z
    .number()
    .describe(
      'How many profiles match in all. Exact, except for a search with a query whose candidates (the profiles that pass the filter) are more than PROFILER_SEARCH_EXACT_TOTAL_MAX (default 5,000) and whose page is full: then estimated from a sample, and totalIsEstimate is true',
    ),
  totalIsEstimate: z
    .literal(true)
    .optional()
    .describe(
      'Present (true) only when total is an estimate (see total); absent when it is exact, as for a listing and a search of a small tenant',
    ),
  page: z.number(),
  pageSize: z.number(),
})

const ProfileContext = z.object({
  profile_id: z.string(),
  status: z
    .enum(['processing', 'ready'])
    .describe('processing: submissions are still being applied; the text is what the profile holds now'),
  text: z
    .string()
    .describe(
      'Header line, then facts as "- " lines grouped by section, evidence passages under "What they said:" under a line of the date they were said (by day, "8 May 2023:", without a query or when the query asks about time; by year, "2023:", otherwise), then the summary when it fits; empty when not even the header fits',
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
  text: z.string().describe("The person's own words (at most 1,000 characters)"),
  occurred_at: z.string().describe("When it was said: its message's timestamp, else its submission's occurred_at"),
  hidden_at: z
    .string()
    .nullable()
    .optional()
    .describe('Only with include_hidden: when it was hidden from contexts and search (null: it is not)'),
  hidden_by: z.string().nullable().optional().describe('Only with include_hidden: what hid it'),
})
const PassagePage = z.object({
  profile_id: z.string(),
  passages: z.array(Passage),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  has_more: z.boolean(),
})

const Reextraction = z.object({
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
      'As an update_log entry: values the re-extracted profile adds or changes, `replaced` and `removed` (list entries), plus `cleared`: scalars and memories it no longer holds',
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
        'Applied submissions whose text is longer than PROFILER_MAX_DATA_BYTES (imported before imports were bounded): not replayed',
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
      "quote: it holds the words the model quoted for the value (openai); extraction: its submission's extraction proposed the value and it holds the value's words; words: it holds every word of the value (no stored extraction says where it was said)",
    ),
})
const EvidenceBody = z.object({
  profile_id: z.string(),
  field: z.string(),
  value: z.string(),
  category: z.string().optional().describe('When one was given (interests)'),
  passages: z
    .array(EvidencePassage)
    .describe(
      'The passages that support the value, best first; empty when none does (or the ones that did were hidden by a forget)',
    ),
  sources: z
    .array(
      z.object({
        submission_id: z.string(),
        occurred_at: z.string(),
        quote: z.string().nullable().describe('The words the model quoted (openai)'),
      }),
    )
    .describe('The submissions whose stored extraction proposed the value, newest first'),
  extractions_read: z
    .number()
    .int()
    .describe(
      `Submissions whose stored extraction was read: the newest ${EVIDENCE_MAX_SUBMISSIONS} applied ones at most`,
    ),
})
const EvidenceDeletion = z.object({
  profile_id: z.string(),
  submission_id: z.string(),
  passages_deleted: z.number().int(),
  text_deleted: z.boolean().describe('false when the text was already gone (retention, an earlier call)'),
})

const ImportResult = z.object({
  profiles: z.number(),
  history: z.number(),
  submissions: z.number(),
  submissions_kept: z.number(),
  embedded: z.number(),
  passages: z
    .number()
    .describe(
      'Evidence passages added, without vectors (profiler reindex embeds them; until then they are found by their words)',
    ),
  passages_kept: z
    .number()
    .describe('Passages the tenant had already: kept as they are, hidden when the file has them hidden'),
  passages_skipped: z
    .number()
    .describe(
      "Passage records not stored: their submission is not the tenant's under that profile or has no text, or passages are turned off",
    ),
})

const SchemaVersions = z.object({ versions: z.array(SchemaVersion) })
const SummaryInstructionsBody = z.object({
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

const ref = (schema: z.ZodType) => {
  const id = components.get(schema)?.id
  if (!id) throw new Error('a body schema of the OpenAPI document must be named (components)')
  return { $ref: `#/components/schemas/${id}` }
}
/** components.schemas: each named schema, the ones it uses by $ref. */
function componentSchemas(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(components, {
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  })
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema, $id, ...schema }]) => [id, schema]))
}

/** Response headers (components.headers), each declared where it is sent. */
const HEADERS = {
  'X-Request-Id': {
    description: 'The request id (an incoming valid X-Request-Id is echoed); every response has one',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': { description: "Operations of the app's budget per window", schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Operations left in the window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window has room again', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  Location: { description: 'The profile the submission is for', schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } },
  Allow: { description: 'The methods the path accepts', schema: { type: 'string' } },
  'Content-Disposition': { description: 'attachment; filename="..."', schema: { type: 'string' } },
} as const
type HeaderName = keyof typeof HEADERS
const headers = (...names: HeaderName[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]))
/** The headers of every answer after authentication: the request id and the budget's state. */
const ANSWERED: HeaderName[] = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']

const json = (schema: z.ZodType) => ({ 'application/json': { schema: ref(schema) } })
const ok = (description: string, schema?: z.ZodType, ...extra: HeaderName[]) => ({
  description,
  headers: headers(...ANSWERED, ...extra),
  ...(schema ? { content: json(schema) } : {}),
})
const err = (description: string, ...extra: HeaderName[]) => ({
  description,
  headers: headers(...ANSWERED, ...extra),
  content: json(ErrorBody),
})
const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:@+-]{1,200}$' },
}

function queryParams(maxPageSize: number) {
  return paramsOf(searchParamsSchema(maxPageSize))
}

function paramsOf(zschema: z.ZodType) {
  const schema = z.toJSONSchema(zschema, { io: 'input' }) as { properties: Record<string, unknown> }
  return Object.entries(schema.properties).map(([name, s]) => ({ name, in: 'query', required: false, schema: s }))
}

/** The OpenAPI 3 document of /v1, built from the same schemas that describe the requests. */
export function openApiDocument(opts: { maxPageSize?: number } = {}) {
  const maxPageSize = opts.maxPageSize ?? 100
  const common = {
    '401': { $ref: '#/components/responses/Unauthorized' },
    '429': { $ref: '#/components/responses/RateLimited' },
    '503': { $ref: '#/components/responses/Unavailable' },
  }
  const search = {
    operationId: 'searchProfiles',
    summary: 'Search profiles: semantic (query) and/or filter, sort, paginate',
    description:
      "Charged by the page's size: one operation of the rate limit per PROFILER_MAX_BODY_BYTES (256 KiB) of its profiles' content beyond the first, " +
      'before anything is read. A page larger than one read chunk (1 MiB of content) is streamed (no Content-Length)',
    parameters: queryParams(maxPageSize),
    responses: {
      '200': ok('A page of results', SearchPage),
      '400': err('Invalid parameter'),
      ...common,
      '429': err("Rate limit exceeded, the page's size counted (Retry-After says when)", 'Retry-After'),
    },
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Profiler',
      version: '1.0.0',
      description: 'Structured, ever-growing profiles from what people write.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: componentSchemas(),
      headers: HEADERS,
      responses: {
        Unauthorized: {
          description: 'Missing or invalid API key',
          headers: headers('X-Request-Id', 'WWW-Authenticate'),
          content: json(ErrorBody),
        },
        RateLimited: err('Rate limit exceeded (Retry-After says when to retry)', 'Retry-After'),
        Unavailable: err('Database unreachable, or the AI provider needed for this request unavailable'),
        MethodNotAllowed: {
          description: 'A known path with a method it does not accept (any path below)',
          headers: headers('X-Request-Id', 'Allow'),
          content: json(ErrorBody),
        },
      },
    },
    security: [{ bearer: [] }],
    paths: {
      '/v1/profile/{id}': {
        post: {
          operationId: 'submitProfileData',
          summary: 'Submit data for a profile (processed in the background)',
          parameters: [
            idParam,
            { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } },
          ],
          requestBody: { required: true, content: json(submitBodySchema) },
          responses: {
            '202': ok(
              'Accepted: processed in the background (GraphQL profileUpdated, or GET the profile, says when it is ready)',
              Ack,
              'Location',
            ),
            '400': err('Invalid input'),
            '409': err('Idempotency-Key reused with a different body'),
            '413': err('Body or data too large'),
            '415': err('Body is not application/json'),
            ...common,
          },
        },
        get: {
          operationId: 'getProfile',
          summary: 'Read a profile',
          parameters: [idParam],
          responses: {
            '200': ok('The profile', ProfileResponse),
            '400': err('Invalid profile id'),
            '404': err('Unknown profile'),
            ...common,
          },
        },
        delete: {
          operationId: 'deleteProfile',
          summary: 'Delete a profile, its history and its pending submissions',
          parameters: [idParam],
          responses: {
            '204': ok('Deleted'),
            '400': err('Invalid profile id'),
            '404': err('Unknown profile'),
            ...common,
          },
        },
      },
      '/v1/profile/{id}/values': {
        delete: {
          operationId: 'forgetValue',
          summary:
            'Forget one value: removed from the profile, its summary and its embedding, recorded in the history (input_type forget); the evidence passages that state it are hidden from every context and search (changes.passages_hidden counts them). Only a submission accepted afterwards can bring it back',
          parameters: [
            idParam,
            {
              name: 'section',
              in: 'query',
              required: false,
              schema: {
                type: 'string',
                anyOf: [{ enum: [...FORGET_SECTIONS] }, { pattern: CUSTOM_FIELD_PATH.source }],
              },
              description: 'Instead of the body: a standard section, or custom.<section>.<field> of a custom schema',
            },
            {
              name: 'value',
              in: 'query',
              required: false,
              schema: { type: 'string' },
              description: 'Instead of the body',
            },
            {
              name: 'category',
              in: 'query',
              required: false,
              schema: { type: 'string' },
              description: 'Instead of the body (interests only)',
            },
          ],
          requestBody: { required: false, content: json(forgetBodySchema) },
          responses: {
            '200': ok('The profile without the value', ProfileResponse),
            '400': err('Invalid profile id, section, value or category'),
            '404': err('Unknown profile, or the profile has no such value'),
            '409': err('The profile kept changing while the change was prepared; retry'),
            ...common,
          },
        },
      },
      '/v1/profile/{id}/evidence': {
        get: {
          operationId: 'getEvidence',
          summary:
            'Why the profile says a value: the evidence passages that support it (what the person said, with its submission and time), best first. The submissions whose stored extraction proposed the value come first; an empty list when nothing supports it',
          parameters: [
            idParam,
            {
              name: 'field',
              in: 'query',
              required: true,
              schema: {
                type: 'string',
                anyOf: [{ enum: [...FORGET_SECTIONS] }, { pattern: CUSTOM_FIELD_PATH.source }],
              },
              description:
                "The value's section, as DELETE /v1/profile/{id}/values names it: a standard section, or custom.<section>.<field>",
            },
            {
              name: 'value',
              in: 'query',
              required: true,
              schema: { type: 'string', maxLength: 1000 },
              description: 'The value (for memories, the event); compared as the merge compares values',
            },
            {
              name: 'category',
              in: 'query',
              required: false,
              schema: { type: 'string', maxLength: 200 },
              description: 'interests only: the category (any when omitted)',
            },
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: EVIDENCE_MAX_LIMIT, default: EVIDENCE_DEFAULT_LIMIT },
              description: 'Passages at most',
            },
          ],
          responses: {
            '200': ok('The supporting passages', EvidenceBody),
            '400': err('Invalid profile id, field, value, category or limit'),
            '404': err('Unknown profile'),
            ...common,
          },
        },
      },
      '/v1/profile/{id}/submissions/{submissionId}/evidence': {
        delete: {
          operationId: 'deleteSubmissionEvidence',
          summary:
            "Delete one submission's evidence: its passages, its text and its stored extraction (as retention drops them). The profile's values stay; nothing of the text is recorded",
          parameters: [
            idParam,
            { name: 'submissionId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          ],
          responses: {
            '200': ok('What was deleted', EvidenceDeletion),
            '400': err('Invalid profile id'),
            '404': err('Unknown profile, or the profile has no such submission'),
            '409': err('The submission is still pending or being processed'),
            ...common,
          },
        },
      },
      '/v1/profile/{id}/rollback': {
        post: {
          operationId: 'rollbackProfile',
          summary:
            'Return the profile to the state of an earlier history entry, recorded as a new entry (input_type rollback); forgotten values stay forgotten',
          parameters: [idParam],
          requestBody: { required: true, content: json(rollbackBodySchema) },
          responses: {
            '200': ok('The profile as rolled back', ProfileResponse),
            '400': err('Invalid profile id or to_seq'),
            '404': err('Unknown profile or history entry'),
            '409': err('The entry was written before snapshots were kept, or the profile kept changing; retry'),
            '415': err('Body is not application/json'),
            ...common,
          },
        },
      },
      '/v1/profile/{id}/context': {
        get: {
          operationId: 'getProfileContext',
          summary:
            'The profile as compact text for an LLM prompt, within max_tokens: with a query, the facts that match it, the evidence passages most relevant to it, then the other facts; without one, the most confident facts',
          parameters: [idParam, ...paramsOf(contextParamsSchema())],
          responses: {
            '200': ok('The text and its exact token count', ProfileContext),
            '400': err('Invalid profile id, max_tokens, query or include'),
            '404': err('Unknown profile'),
            ...common,
          },
        },
      },
      '/v1/profile/{id}/passages': {
        get: {
          operationId: 'listPassages',
          summary:
            "The profile's evidence passages (what the person said), newest said first, a page at a time; hidden ones only with include_hidden",
          parameters: [idParam, ...paramsOf(passageParamsSchema(maxPageSize))],
          responses: {
            '200': ok('A page of passages', PassagePage),
            '400': err('Invalid profile id, limit, cursor, submission_id or include_hidden'),
            '404': err('Unknown profile'),
            ...common,
          },
        },
      },
      '/v1/profile/{id}/reextract': {
        post: {
          operationId: 'reextractProfile',
          summary:
            "Re-extract a profile from its applied submissions with the current provider and prompt: a dry run (default) answers the diff; dry_run=false replaces the profile's state with it as one update_log entry (input_type reextraction)",
          parameters: [
            idParam,
            {
              name: 'dry_run',
              in: 'query',
              required: false,
              schema: { type: 'string', enum: ['true', 'false', '1', '0'], default: 'true' },
              description: 'false: apply',
            },
            {
              name: 'expected_version',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 0 },
              description:
                'Apply only if the profile is still at this version (the one a dry run answered); 409 otherwise',
            },
          ],
          responses: {
            '200': ok('The diff, and whether it was applied', Reextraction),
            '400': err(
              'Invalid profile id or parameter, or more applied submissions than PROFILER_REEXTRACT_MAX_SUBMISSIONS',
            ),
            '404': err('Unknown profile'),
            '409': err(
              'The profile is processing, changed since expected_version (or since the diff was computed), or has no submission text left',
            ),
            ...common,
          },
        },
      },
      '/v1/search': { get: search },
      '/v1/export': {
        get: {
          operationId: 'exportProfiles',
          summary:
            "Export the caller's tenant (or one profile) as JSON Lines, streamed: a header, each profile with its history and submissions' metadata, an end record with counts",
          parameters: [
            {
              name: 'profile_id',
              in: 'query',
              required: false,
              schema: idParam.schema,
              description: 'Only this profile',
            },
            {
              name: 'include_text',
              in: 'query',
              required: false,
              schema: { type: 'string', enum: ['true', 'false', '1', '0'] },
              description: "Also each submission's raw text",
            },
          ],
          responses: {
            '200': {
              ...ok('The export, as an attachment', undefined, 'Content-Disposition'),
              content: { 'application/x-ndjson': { schema: { type: 'string' } } },
            },
            '400': err('Invalid parameter'),
            '404': err('Unknown profile'),
            ...common,
          },
        },
      },
      '/v1/import': {
        post: {
          operationId: 'importProfiles',
          summary:
            "Import an export into the caller's tenant (idempotent: upserts by profile id, history seq and submission id); imported profiles are re-embedded",
          requestBody: { required: true, content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
          responses: {
            '200': ok('What was imported', ImportResult),
            '400': err('A line that is not a valid record (the message names it), or a file cut short'),
            '413': err('A line or the whole input over its limit'),
            '415': err('Body is not application/x-ndjson'),
            ...common,
          },
        },
      },
      '/v1/schema': {
        get: {
          operationId: 'getCustomSchema',
          summary: "The calling app's custom profile schema (its current version)",
          responses: { '200': ok('The current version', SchemaVersion), ...common },
        },
        put: {
          operationId: 'putCustomSchema',
          summary:
            "Sets the calling app's custom profile schema: a new version when it differs; values of dropped fields move to profile history",
          requestBody: { required: true, content: json(CustomSchemaBody) },
          responses: {
            '200': ok('The current version and what the change did', SchemaChange),
            '400': err('Invalid schema (the message names the section or field)'),
            '413': err('Body too large'),
            '415': err('Body is not application/json'),
            ...common,
          },
        },
      },
      '/v1/schema/versions': {
        get: {
          operationId: 'listCustomSchemaVersions',
          summary:
            "The kept versions of the calling app's custom schema, newest first: at most PROFILER_SCHEMA_MAX_VERSIONS (100)",
          responses: { '200': ok('The versions', SchemaVersions), ...common },
        },
      },
      '/v1/summary-instructions': {
        get: {
          operationId: 'getSummaryInstructions',
          summary: "The calling app's summary instructions",
          responses: { '200': ok('The instructions ([] when none)', SummaryInstructions), ...common },
        },
        put: {
          operationId: 'putSummaryInstructions',
          summary:
            "Replaces the calling app's summary instructions (at most 5 of 1-200 characters; [] clears them): they apply from the next batch of a profile whose newest submission comes from this app, and to its re-extractions",
          requestBody: { required: true, content: json(SummaryInstructionsBody) },
          responses: {
            '200': ok('The instructions now', SummaryInstructions),
            '400': err('Invalid instructions (the message says which)'),
            '415': err('Body is not application/json'),
            ...common,
          },
        },
      },
      // The interface's name for the same search (CONTRACT): declared in full, so a generator types its answer too.
      '/v1/smart-search': {
        get: {
          ...search,
          operationId: 'smartSearchProfiles',
          summary: 'Alias of /v1/search (searchProfiles): the same parameters and answers',
        },
      },
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document',
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document of /v1',
              headers: headers(...ANSWERED),
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            ...common,
          },
        },
      },
    },
  }
}
