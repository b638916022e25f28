import { z } from 'zod'
import { CUSTOM_FIELD_TYPES, CUSTOM_LIMITS, NAME_RE } from '../domain/custom-schema.js'
import { contextParamsSchema, searchParamsSchema, submitBodySchema } from '../domain/requests.js'

const scoredString = z.object({ value: z.string(), confidence: z.number().min(0).max(1) })
const scoredInt = z.object({ value: z.number().int(), confidence: z.number().min(0).max(1) })

const customScored = z.object({ value: z.union([z.string(), z.number(), z.boolean()]), confidence: z.number().min(0).max(1) })

const CustomField = z.object({
  type: z.enum(CUSTOM_FIELD_TYPES),
  description: z.string().max(CUSTOM_LIMITS.description).optional().describe('Guides extraction; for string and string[], a list after a colon is the vocabulary the local extractor looks for'),
  values: z.array(z.string()).max(CUSTOM_LIMITS.enumValues).optional().describe('enum: the allowed values (required); string, string[]: a vocabulary'),
  min: z.number().optional().describe('integer, number: inclusive lower bound'),
  max: z.number().optional().describe('integer, number: inclusive upper bound'),
})
const CustomSchemaBody = z
  .object({
    sections: z
      .record(z.string().regex(NAME_RE), z.record(z.string().regex(NAME_RE), CustomField))
      .describe(`At most ${CUSTOM_LIMITS.sections} sections and ${CUSTOM_LIMITS.fields} fields in all; a section may not reuse a standard name (core_info, interests, ...)`),
  })
  .describe(`At most ${CUSTOM_LIMITS.schemaBytes} bytes of JSON`)
const SchemaVersion = z.object({
  app_id: z.string(),
  version: z.number().int().describe('0 when the app never set a schema'),
  schema: CustomSchemaBody,
  created_at: z.string().nullable(),
})
const SchemaChange = SchemaVersion.extend({
  changed: z.boolean().describe('false when the schema equals the current one (no new version)'),
  dropped_fields: z.array(z.string()).describe("section.field no longer declared by any app of the tenant: their values left the profiles, kept in each profile's history"),
  profiles_updated: z.number().int(),
})

const Memory = z.object({
  event: z.string(),
  date: z.string().optional(),
  importance: z.enum(['low', 'medium', 'high']).optional(),
  confidence: z.number().optional(),
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
  language: z.string().optional().describe('ISO 639-1 code of the language the person writes in'),
  field_timestamps: z.record(z.string(), z.string()),
  update_log: z.array(
    z.object({
      extracted_on: z.string(),
      changes: z.record(z.string(), z.unknown()),
      submission_ids: z.array(z.string()),
      input_type: z.string(),
    }),
  ),
  last_updated: z.string(),
  created_at: z.string(),
  summary: z.string().optional(),
})

const ErrorBody = z.object({ error: z.number().int(), message: z.string() })
const Ack = z.object({ id: z.string(), message: z.string() })
const SearchPage = z.object({
  profiles: z.array(Profile.extend({ similarityScore: z.number().optional() })),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
})

const ProfileContext = z.object({
  profile_id: z.string(),
  status: z.enum(['processing', 'ready']).describe('processing: submissions are still being applied; the text is what the profile holds now'),
  text: z.string().describe('Header line, then facts as "- " lines grouped by section, then the summary when it fits; empty when not even the header fits'),
  tokens: z.number().int().describe('Exact token count of text'),
  max_tokens: z.number().int(),
  encoding: z.string().describe('The tokenizer: o200k_base'),
  facts_included: z.number().int(),
  facts_total: z.number().int(),
  summary_included: z.boolean(),
  truncated: z.boolean().describe('true when a fact or the summary was left out for the budget'),
  ranked_by: z.enum(['confidence', 'query', 'query_lexical']).describe('query_lexical: the embedder failed, ranked by shared words only'),
})

const ImportResult = z.object({ profiles: z.number(), history: z.number(), submissions: z.number(), submissions_kept: z.number(), embedded: z.number() })

const json = (schema: z.ZodType) => ({ 'application/json': { schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) } })
const err = (description: string) => ({ description, content: json(ErrorBody) })
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9._:@+-]{1,200}$' } }

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
  const common = { '401': err('Missing or invalid API key'), '429': err('Rate limit exceeded'), '503': err('Database unreachable') }
  return {
    openapi: '3.1.0',
    info: { title: 'Profiler', version: '1.0.0', description: 'Structured, ever-growing profiles from what people write.' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/v1/profile/{id}': {
        post: {
          summary: 'Submit data for a profile (processed in the background)',
          parameters: [idParam, { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }],
          requestBody: { required: true, content: json(submitBodySchema) },
          responses: {
            '202': { description: 'Accepted', content: json(Ack) },
            '400': err('Invalid input'),
            '409': err('Idempotency-Key reused with a different body'),
            '413': err('Body or data too large'),
            '415': err('Body is not application/json'),
            ...common,
          },
        },
        get: {
          summary: 'Read a profile',
          parameters: [idParam],
          responses: {
            '200': { description: 'The profile', content: json(z.object({ profile_id: z.string(), profile: Profile })) },
            '400': err('Invalid profile id'),
            '404': err('Unknown profile'),
            ...common,
          },
        },
        delete: {
          summary: 'Delete a profile, its history and its pending submissions',
          parameters: [idParam],
          responses: { '204': { description: 'Deleted' }, '400': err('Invalid profile id'), '404': err('Unknown profile'), ...common },
        },
      },
      '/v1/profile/{id}/context': {
        get: {
          summary: 'The profile as compact text for an LLM prompt: most relevant (to query) and most confident facts first, within max_tokens',
          parameters: [idParam, ...paramsOf(contextParamsSchema())],
          responses: {
            '200': { description: 'The text and its exact token count', content: json(ProfileContext) },
            '400': err('Invalid profile id, max_tokens or query'),
            '404': err('Unknown profile'),
            ...common,
          },
        },
      },
      '/v1/search': {
        get: {
          summary: 'Search profiles: semantic (query) and/or filter, sort, paginate',
          parameters: queryParams(maxPageSize),
          responses: { '200': { description: 'A page of results', content: json(SearchPage) }, '400': err('Invalid parameter'), ...common },
        },
      },
      '/v1/export': {
        get: {
          summary: "Export the caller's tenant (or one profile) as JSON Lines, streamed: a header, each profile with its history and submissions' metadata, an end record with counts",
          parameters: [
            { name: 'profile_id', in: 'query', required: false, schema: idParam.schema, description: 'Only this profile' },
            { name: 'include_text', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false', '1', '0'] }, description: "Also each submission's raw text" },
          ],
          responses: {
            '200': { description: 'The export (Content-Disposition: attachment)', content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
            '400': err('Invalid parameter'),
            '404': err('Unknown profile'),
            ...common,
          },
        },
      },
      '/v1/import': {
        post: {
          summary: "Import an export into the caller's tenant (idempotent: upserts by profile id, history seq and submission id); imported profiles are re-embedded",
          requestBody: { required: true, content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
          responses: {
            '200': { description: 'What was imported', content: json(ImportResult) },
            '400': err('A line that is not a valid record (the message names it), or a file cut short'),
            '413': err('A line or the whole input over its limit'),
            '415': err('Body is not application/x-ndjson'),
            ...common,
          },
        },
      },
      '/v1/schema': {
        get: {
          summary: "The calling app's custom profile schema (its current version)",
          responses: { '200': { description: 'The current version', content: json(SchemaVersion) }, ...common },
        },
        put: {
          summary: "Sets the calling app's custom profile schema: a new version when it differs; values of dropped fields move to profile history",
          requestBody: { required: true, content: json(CustomSchemaBody) },
          responses: {
            '200': { description: 'The current version and what the change did', content: json(SchemaChange) },
            '400': err('Invalid schema (the message names the section or field)'),
            '413': err('Body too large'),
            '415': err('Body is not application/json'),
            ...common,
          },
        },
      },
      '/v1/schema/versions': {
        get: {
          summary: "Every version of the calling app's custom schema, newest first (at most 100)",
          responses: { '200': { description: 'The versions', content: json(z.object({ versions: z.array(SchemaVersion) })) }, ...common },
        },
      },
      '/v1/smart-search': { get: { summary: 'Alias of /v1/search', parameters: queryParams(maxPageSize), responses: { '200': { description: 'As /v1/search' } } } },
    },
  }
}
