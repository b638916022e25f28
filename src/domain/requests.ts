import { z } from 'zod'
import { invalid } from './errors.js'
import { INPUT_TYPES } from './profile.js'
import {
  EVENT_TIME_FORMS,
  EVENT_TIME_MAX_CHARS,
  EVENT_TIME_MIN,
  EVENT_TIME_PATTERN,
  EVENT_TIME_SKEW_MS,
  parseEventTime,
} from './event-time.js'

/**
 * The request schemas: the service layer validates with them, and the OpenAPI document is generated from them,
 * so the two cannot disagree. Messages name the offending field
 * (docs/reference/api-conventions.md, "Errors").
 */

export const FILTER_FIELDS = ['id', 'name', 'location', 'age', 'gender', 'language', 'status'] as const
export const SORT_FIELDS = ['last_updated', 'created_at', 'id', 'name', 'age', 'location'] as const
export type FilterField = (typeof FILTER_FIELDS)[number]
export type SortField = (typeof SORT_FIELDS)[number]

const oneOf = (what: string, values: readonly string[]) => `${what}: must be one of ${values.join(', ')}`

export const submitBodySchema = z.object({
  data: z
    .string({ error: (iss) => (iss.input == null ? 'Missing field: data' : 'Invalid field: data must be a string') })
    .regex(/\S/, { error: 'Invalid field: data must not be empty' })
    .describe('Text to extract the profile from (UTF-8, at most the data size limit, 100 KiB by default)'),
  input_type: z
    .enum(INPUT_TYPES, { error: oneOf('Invalid input_type', INPUT_TYPES) })
    .nullish()
    .default('text')
    .describe(
      'text: prose; conversation: "Speaker: text" lines or a JSON array of {role, content}; ' +
        'structured: a JSON object as a string',
    ),
  occurred_at: z
    .string({ error: `Invalid field: occurred_at must be a string: ${EVENT_TIME_FORMS}` })
    .max(EVENT_TIME_MAX_CHARS, {
      error: `Invalid field: occurred_at must be at most ${EVENT_TIME_MAX_CHARS} characters`,
    })
    .regex(new RegExp(EVENT_TIME_PATTERN), { error: `Invalid field: occurred_at must be ${EVENT_TIME_FORMS}` })
    .transform((text, ctx) => {
      const parsed = parseEventTime(text, Date.now())
      if ('iso' in parsed) return parsed.iso
      ctx.addIssue({ code: 'custom', message: `Invalid field: occurred_at ${parsed.error}` })
      return z.NEVER
    })
    .nullish()
    .describe(
      `When the text was said or written: ${EVENT_TIME_FORMS} (a date is its midnight UTC), ` +
        `from ${EVENT_TIME_MIN.slice(0, 10)} to ${EVENT_TIME_SKEW_MS / 60_000} minutes past the service's clock. ` +
        'The reference for relative dates ("yesterday") and the time the merge orders evidence by. ' +
        'Default: the latest "timestamp" of a JSON conversation\'s messages, else the acceptance time',
    ),
})

/** The page size of a search that names none (REST and GraphQL). */
export const DEFAULT_PAGE_SIZE = 10

export function searchParamsSchema(maxPageSize: number) {
  const int = (name: string, min: number, max?: number) => {
    const msg = `Invalid query parameter ${name}: must be an integer ${max ? `from ${min} to ${max}` : `>= ${min}`}`
    const base = z.number({ error: msg }).int({ error: msg }).min(min, { error: msg })
    return max ? base.max(max, { error: msg }) : base
  }
  const sensitivityMsg = 'Invalid query parameter sensitivity: must be a number from 0 to 100'
  return z
    .object({
      query: z
        .string()
        .optional()
        .describe(
          'Natural-language search text; when present, hybrid search is used ' +
            "(the embedding, and every content word of the query in the profile's values or summary) " +
            'and results are ranked by similarityScore',
        ),
      sensitivity: z
        .number({ error: sensitivityMsg })
        .min(0, { error: sensitivityMsg })
        .max(100, { error: sensitivityMsg })
        .default(63)
        .describe('Vector search only: a profile is returned when its similarityScore is at least this'),
      filterBy: z.enum(FILTER_FIELDS, { error: oneOf('Invalid query parameter filterBy', FILTER_FIELDS) }).optional(),
      filterValue: z.string().optional().describe('Case-insensitive partial match; % and _ are literals'),
      sortBy: z
        .enum(SORT_FIELDS, { error: oneOf('Invalid query parameter sortBy', SORT_FIELDS) })
        .default('last_updated')
        .describe('Ignored when query is given'),
      sortOrder: z
        .enum(['asc', 'desc'], { error: 'Invalid query parameter sortOrder: must be asc or desc' })
        .default('desc'),
      page: int('page', 1).default(1),
      pageSize: int('pageSize', 1, maxPageSize).default(DEFAULT_PAGE_SIZE),
    })
    .superRefine((params, ctx) => {
      if (params.filterBy !== undefined && !params.filterValue) {
        ctx.addIssue({
          code: 'custom',
          message: 'Invalid filter: a filter field needs a non-empty value (filterBy needs filterValue)',
          path: ['filterValue'],
        })
      }
      if (params.filterBy === undefined && params.filterValue !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'Invalid filter: a filter value needs a field (filterValue needs filterBy)',
          path: ['filterBy'],
        })
      }
    })
}

export const CONTEXT_MAX_TOKENS = 32_000
export const CONTEXT_DEFAULT_TOKENS = 1_000
export const CONTEXT_MAX_QUERY = 1_000

/** GET /v1/profile/{id}/context and Profile.context in GraphQL. */
export function contextParamsSchema() {
  const msg = `Invalid query parameter max_tokens: must be an integer from 1 to ${CONTEXT_MAX_TOKENS}`
  return z.object({
    max_tokens: z
      .number({ error: msg })
      .int({ error: msg })
      .min(1, { error: msg })
      .max(CONTEXT_MAX_TOKENS, { error: msg })
      .default(CONTEXT_DEFAULT_TOKENS)
      .describe('Token budget of the returned text, counted with the o200k_base tokenizer'),
    query: z
      .string()
      .max(CONTEXT_MAX_QUERY, { error: `Invalid query parameter query: at most ${CONTEXT_MAX_QUERY} characters` })
      .optional()
      .describe('What the conversation is about: facts relevant to it come first'),
    include: z
      .enum(['all', 'facts', 'passages'], {
        error: 'Invalid query parameter include: must be one of all, facts, passages',
      })
      .default('all')
      .describe('What the context is made of: facts and evidence passages (all), facts only, or passages only'),
  })
}

/** The page size of a passage list (GET /v1/profile/{id}/passages, Profile.passages) that names none. */
export const DEFAULT_PASSAGE_PAGE = 20

/** GET /v1/profile/{id}/passages and Profile.passages in GraphQL (docs/guides/evidence.md). */
export function passageParamsSchema(maxPageSize: number) {
  const msg = `Invalid query parameter limit: must be an integer from 1 to ${maxPageSize}`
  return z.object({
    limit: z
      .number({ error: msg })
      .int({ error: msg })
      .min(1, { error: msg })
      .max(maxPageSize, { error: msg })
      .default(DEFAULT_PASSAGE_PAGE)
      .describe('Passages per page'),
    cursor: z
      .string({ error: 'Invalid query parameter cursor: must be a string' })
      .max(400, { error: 'Invalid query parameter cursor: not a cursor of this list' })
      .optional()
      .describe('next_cursor of the previous page; none for the first page'),
    submission_id: z
      .uuid({ error: 'Invalid query parameter submission_id: must be a submission id (a UUID)' })
      .optional()
      .describe('Only the passages of this submission'),
    include_hidden: z
      .boolean({ error: 'Invalid query parameter include_hidden: must be true or false' })
      .default(false)
      .describe('Also passages hidden from contexts and search (then with hidden_at and hidden_by)'),
  })
}

/** Parses with a request schema; the first problem becomes a VALIDATION_FAILED domain error. */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input)
  if (!result.success) throw invalid(result.error.issues[0]!.message)
  return result.data
}
