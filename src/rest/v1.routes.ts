// Every route of /v1, declared once (src/rest/route.ts): Fastify registers these declarations and the OpenAPI document
// (src/rest/openapi.ts) is generated from them. The handlers read the request and call the service layer, which
// validates what they pass on.
import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { invalid } from '../domain/errors.js'
import { FORGET_SECTION_JSON_SCHEMA, forgetBodySchema, rollbackBodySchema } from '../domain/forget.js'
import { evidenceParamsSchema } from '../domain/provenance.js'
import {
  CONTEXT_MAX_TOKENS,
  contextParamsSchema,
  passageParamsSchema,
  searchParamsSchema,
  submitBodySchema,
} from '../domain/requests.js'
import { PROFILE_ID_RE } from '../domain/validation.js'
import { setRateLimitHeaders } from '../http/rate-limit.js'
import { appBudgetKey } from '../services/budget.js'
import { importSummary } from '../services/export.service.js'
import type { ContextInclude } from '../services/profile-context.service.js'
import type { SearchParams } from '../services/search.service.js'
import { err, ok, route, type RestRoute, type RouteDeps } from './route.js'
import {
  Ack,
  CustomSchemaBody,
  EvidenceBody,
  EvidenceDeletion,
  ImportResult,
  PassagePage,
  ProfileContext,
  ProfileResponse,
  Reextraction,
  SchemaChange,
  SchemaVersion,
  SchemaVersions,
  SearchPage,
  SummaryInstructions,
  SummaryInstructionsBody,
} from './schemas.js'
import {
  searchDocument,
  toRestContext,
  toRestEvidence,
  toRestPassagePage,
  toRestProfile,
  toRestReextraction,
  toRestSchema,
  toRestSearchEntry,
  toRestSubmissionEvidenceDeletion,
} from './serializers.js'

/** The groups of the reference (OpenAPI tags), in the order it shows them. */
export const V1_TAGS = {
  Profiles: 'Submit what a person wrote, read the profile made of it, change it, delete it',
  Evidence: 'What the person said: the passages a profile quotes, and the ones that support a value',
  Search: 'Find profiles by meaning, filter, sort and page',
  'Export and import': "A tenant's profiles as JSON Lines, out and back in",
  'App settings': "The calling app's custom profile schema and summary instructions",
  Document: 'This API, described',
} as const

const INT_RE = /^\d{1,9}$/
const NUM_RE = /^\d{1,3}(\.\d+)?$/
const BOOLEAN_RE = /^(true|false|1|0)$/

function one(queryParams: Record<string, unknown>, name: string): string | undefined {
  const value = queryParams[name]
  if (value === undefined) return undefined
  if (Array.isArray(value)) throw invalid(`Invalid query parameter ${name}: given more than once`)
  return String(value)
}

/** A query parameter that is true or false (1 or 0); undefined when absent. */
function flag(queryParams: Record<string, unknown>, name: string): string | undefined {
  const value = one(queryParams, name)
  if (value !== undefined && !BOOLEAN_RE.test(value)) {
    throw invalid(`Invalid query parameter ${name}: '${value.slice(0, 40)}' is not true or false`)
  }
  return value
}

/** Raw query strings -> typed search params; range rules live in the search service (shared with GraphQL). */
function searchParams(queryParams: Record<string, unknown>): SearchParams {
  const num = (name: string, re: RegExp) => {
    const value = one(queryParams, name)
    if (value === undefined) return undefined
    if (!re.test(value)) throw invalid(`Invalid query parameter ${name}: '${value.slice(0, 40)}' is not a valid number`)
    return Number(value)
  }
  return {
    query: one(queryParams, 'query'),
    sensitivity: num('sensitivity', NUM_RE),
    filterBy: one(queryParams, 'filterBy'),
    filterValue: one(queryParams, 'filterValue'),
    sortBy: one(queryParams, 'sortBy'),
    sortOrder: one(queryParams, 'sortOrder'),
    page: num('page', INT_RE),
    pageSize: num('pageSize', INT_RE),
  }
}

function jsonObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('Request body must be a JSON object')
  }
  return body as Record<string, unknown>
}

const query = (req: FastifyRequest) => req.query as Record<string, unknown>

const profileIdParam = z.string().regex(PROFILE_ID_RE)
const profileParams = z.object({ id: profileIdParam })
/** A flag as a query parameter: true or false, 1 or 0. */
const queryFlag = () => z.literal(['true', 'false', '1', '0'])

// Search: the page is found first (ids, scores, sizes: no content read) and charged by its size, one operation per
// body limit's worth of content beyond the first (as an import is charged by what it reads); then its profiles are
// read in chunks of about a mebibyte (large ones taking turns, SearchService.read). A page of one chunk is answered
// whole; a larger one is streamed, profile by profile as the socket takes them, so the answer is never held whole and
// the event loop runs between profiles. Either way the same JSON document. An error after the first bytes can only
// cut a streamed answer short (it does not parse); a client that goes away stops the reads.
async function search(req: FastifyRequest, reply: FastifyReply, { services }: RouteDeps) {
  const plan = await services.search.find(req.ctx, searchParams(query(req)), { chargeTo: appBudgetKey(req.ctx) })
  if (plan.rate) setRateLimitHeaders(reply, plan.rate)
  if (plan.chunkCount <= 1) {
    const profiles: ReturnType<typeof toRestSearchEntry>[] = []
    for await (const p of services.search.profiles(req.ctx, plan, toRestSearchEntry)) profiles.push(p)
    // The interface's page ({profiles, total, page, pageSize}), and `totalIsEstimate: true` only when it is one.
    const estimate = plan.totalIsEstimate ? { totalIsEstimate: true } : {}
    return { profiles, total: plan.total, ...estimate, page: plan.page, pageSize: plan.pageSize }
  }
  const entries = services.search.profiles(req.ctx, plan, (p) => JSON.stringify(toRestSearchEntry(p)))
  reply.header('content-type', 'application/json; charset=utf-8')
  return reply.send(Readable.from(searchDocument(entries, plan), { highWaterMark: 1 }))
}

// Import: the body is read as a stream, line by line, never whole: the import's own per-line and total limits apply.
async function importProfiles(req: FastifyRequest, reply: FastifyReply, { services, config }: RouteDeps) {
  // A client that goes away stops the import: seen when the connection closes or the body breaks off.
  const gone = new AbortController()
  const onGone = () => {
    if (reply.raw.writableFinished) return
    gone.abort(Object.assign(new Error('The client closed the connection; the import stopped'), { statusCode: 499 }))
  }
  reply.raw.once('close', onGone)
  req.raw.once('error', onGone)
  // A refused import stops reading the body without destroying the request (which would take the socket, and the
  // answer, with it); the connection is closed once the answer is sent, so the rest of the body is never read.
  const body = (req.body as Readable).iterator({ destroyOnReturn: false })
  const result = await services.exports
    .import(req.ctx, body, {
      ...config.imports,
      maxDataBytes: config.limits.maxDataBytes,
      profiles: config.profiles,
      // Charged by size: one operation per body limit's worth of bytes (the request's own operation paid the first).
      budget: {
        key: appBudgetKey(req.ctx),
        unitBytes: config.limits.maxBodyBytes,
        onCharge: (d) => setRateLimitHeaders(reply, d),
      },
      signal: gone.signal,
    })
    .catch((error) => {
      reply.header('connection', 'close')
      throw error
    })
    .finally(() => {
      reply.raw.off('close', onGone)
      req.raw.off('error', onGone)
    })
  return importSummary(result)
}

/** The routes of /v1; `limits` bound what the document says of page sizes. */
export function v1Routes(limits: { maxPageSize: number }): RestRoute[] {
  const searchRoute: RestRoute = {
    method: 'GET',
    path: '/search',
    operationId: 'searchProfiles',
    summary: 'Search profiles: semantic (query) and/or filter, sort, paginate',
    description:
      "Charged by the page's size: one operation of the rate limit per PROFILER_MAX_BODY_BYTES (256 KiB) of its " +
      "profiles' content beyond the first, before anything is read. A page larger than one read chunk (1 MiB of " +
      'content) is streamed (no Content-Length)',
    tag: 'Search',
    auth: 'bearer',
    query: searchParamsSchema(limits.maxPageSize),
    responses: {
      200: ok('A page of results', SearchPage),
      400: err('Invalid parameter'),
      429: err("Rate limit exceeded, the page's size counted (Retry-After says when)", 'Retry-After'),
    },
    handler: search,
  }
  return [
    route({
      method: 'POST',
      path: '/profile/:id',
      operationId: 'submitProfileData',
      summary: 'Submit data for a profile (processed in the background)',
      tag: 'Profiles',
      auth: 'bearer',
      params: profileParams,
      headers: z.object({
        'Idempotency-Key': z
          .string()
          .min(1)
          .max(255)
          .optional()
          .describe(
            'The same key with the same body within 24 hours answers the first 202 again and stores nothing new; ' +
              'with another body, 409',
          ),
      }),
      body: { json: submitBodySchema, required: true },
      responses: {
        202: ok(
          'Accepted: processed in the background (GraphQL profileUpdated, or GET the profile, says when it is ready)',
          Ack,
          'Location',
        ),
        400: err('Invalid input'),
        409: err('Idempotency-Key reused with a different body'),
        413: err('Body or data too large'),
      },
      handler: async (req, reply, { services }) => {
        const { data, input_type, occurred_at } = jsonObject(req.body)
        const header = req.headers['idempotency-key']
        const ack = await services.submissions.submit(req.ctx, req.params.id, {
          data,
          input_type,
          occurred_at,
          idempotencyKey: Array.isArray(header) ? header[0] : header,
        })
        return reply
          .code(202)
          .header('Location', `/v1/profile/${encodeURIComponent(ack.profileId)}`)
          .send({ id: ack.id, message: 'Accepted for processing' })
      },
    }),
    route({
      method: 'GET',
      path: '/profile/:id',
      operationId: 'getProfile',
      summary: 'Read a profile',
      tag: 'Profiles',
      auth: 'bearer',
      params: profileParams,
      responses: {
        200: ok('The profile', ProfileResponse),
        400: err('Invalid profile id'),
        404: err('Unknown profile'),
      },
      handler: async (req, _reply, { services }) => {
        const profile = await services.profiles.get(req.ctx, req.params.id)
        return { profile_id: profile.profile_id, profile: toRestProfile(profile) }
      },
    }),
    route({
      method: 'DELETE',
      path: '/profile/:id',
      operationId: 'deleteProfile',
      summary: 'Delete a profile, its history and its pending submissions',
      tag: 'Profiles',
      auth: 'bearer',
      params: profileParams,
      responses: { 204: ok('Deleted'), 400: err('Invalid profile id'), 404: err('Unknown profile') },
      handler: async (req, reply, { services }) => {
        await services.profiles.delete(req.ctx, req.params.id)
        return reply.code(204).send()
      },
    }),
    // Forget one value: {section, value, category?} as a JSON body, or as query parameters (some clients send no body
    // with a DELETE). Answers the profile as it is now.
    route({
      method: 'DELETE',
      path: '/profile/:id/values',
      operationId: 'forgetValue',
      summary:
        'Forget one value: removed from the profile, its summary and its embedding, recorded in the history ' +
        '(input_type forget); the evidence passages that state it are hidden from every context and search ' +
        '(changes.passages_hidden counts them). Only a submission accepted afterwards can bring it back',
      tag: 'Profiles',
      auth: 'bearer',
      params: profileParams,
      query: z.object({
        section: z
          .string()
          .meta(FORGET_SECTION_JSON_SCHEMA)
          .optional()
          .describe('Instead of the body: a standard section, or custom.<section>.<field> of a custom schema'),
        value: z.string().optional().describe('Instead of the body'),
        category: z.string().optional().describe('Instead of the body (interests only)'),
      }),
      body: { json: forgetBodySchema, required: false },
      responses: {
        200: ok('The profile without the value', ProfileResponse),
        400: err('Invalid profile id, section, value or category'),
        404: err('Unknown profile, or the profile has no such value'),
        409: err('The profile kept changing while the change was prepared; retry'),
      },
      handler: async (req, _reply, { services }) => {
        const body = req.body
        const queryParams = query(req)
        const input =
          body !== undefined && body !== null
            ? jsonObject(body)
            : {
                section: one(queryParams, 'section'),
                value: one(queryParams, 'value'),
                category: one(queryParams, 'category'),
              }
        const profile = await services.edits.forget(req.ctx, req.params.id, input)
        return { profile_id: profile.profile_id, profile: toRestProfile(profile) }
      },
    }),
    // Provenance (docs/guides/evidence.md): the passages that support a value, named as the forget names it; and
    // deleting one submission's evidence (its passages and text), the profile's values left as they are.
    route({
      method: 'GET',
      path: '/profile/:id/evidence',
      operationId: 'getEvidence',
      summary:
        'Why the profile says a value: the evidence passages that support it (what the person said, with its ' +
        'submission and time), best first. The submissions whose stored extraction proposed the value come first; ' +
        'an empty list when nothing supports it',
      tag: 'Evidence',
      auth: 'bearer',
      params: profileParams,
      query: evidenceParamsSchema(),
      responses: {
        200: ok('The supporting passages', EvidenceBody),
        400: err('Invalid profile id, field, value, category or limit'),
        404: err('Unknown profile'),
      },
      handler: async (req, _reply, { services }) => {
        const queryParams = query(req)
        const params = {
          field: one(queryParams, 'field'),
          value: one(queryParams, 'value'),
          category: one(queryParams, 'category'),
          limit: one(queryParams, 'limit'),
        }
        return toRestEvidence(await services.provenance.evidence(req.ctx, req.params.id, params))
      },
    }),
    route({
      method: 'DELETE',
      path: '/profile/:id/submissions/:submissionId/evidence',
      operationId: 'deleteSubmissionEvidence',
      summary:
        "Delete one submission's evidence: its passages, its text and its stored extraction (as retention drops " +
        "them). The profile's values stay; nothing of the text is recorded",
      tag: 'Evidence',
      auth: 'bearer',
      params: z.object({ id: profileIdParam, submissionId: z.string().meta({ format: 'uuid' }) }),
      responses: {
        200: ok('What was deleted', EvidenceDeletion),
        400: err('Invalid profile id'),
        404: err('Unknown profile, or the profile has no such submission'),
        409: err('The submission is still pending or being processed'),
      },
      handler: async (req, _reply, { services }) => {
        const { id, submissionId } = req.params
        const deletion = await services.provenance.deleteSubmissionEvidence(req.ctx, id, submissionId)
        return toRestSubmissionEvidenceDeletion(deletion)
      },
    }),
    route({
      method: 'POST',
      path: '/profile/:id/rollback',
      operationId: 'rollbackProfile',
      summary:
        'Return the profile to the state of an earlier history entry, recorded as a new entry (input_type rollback); ' +
        'forgotten values stay forgotten',
      tag: 'Profiles',
      auth: 'bearer',
      params: profileParams,
      body: { json: rollbackBodySchema, required: true },
      responses: {
        200: ok('The profile as rolled back', ProfileResponse),
        400: err('Invalid profile id or to_seq'),
        404: err('Unknown profile or history entry'),
        409: err('The entry was written before snapshots were kept, or the profile kept changing; retry'),
      },
      handler: async (req, _reply, { services }) => {
        const profile = await services.edits.rollback(req.ctx, req.params.id, jsonObject(req.body))
        return { profile_id: profile.profile_id, profile: toRestProfile(profile) }
      },
    }),
    route({
      method: 'GET',
      path: '/profile/:id/context',
      operationId: 'getProfileContext',
      summary:
        'The profile as compact text for an LLM prompt, within max_tokens: with a query, the facts that match it, ' +
        'the evidence passages most relevant to it, then the other facts; without one, the most confident facts',
      tag: 'Profiles',
      auth: 'bearer',
      params: profileParams,
      query: contextParamsSchema(),
      responses: {
        200: ok('The text and its exact token count', ProfileContext),
        400: err('Invalid profile id, max_tokens, query or include'),
        404: err('Unknown profile'),
      },
      handler: async (req, _reply, { services }) => {
        const queryParams = query(req)
        const max = one(queryParams, 'max_tokens')
        if (max !== undefined && !/^-?\d{1,9}$/.test(max)) {
          throw invalid(`Invalid query parameter max_tokens: must be an integer from 1 to ${CONTEXT_MAX_TOKENS}`)
        }
        const context = await services.llmContext.context(req.ctx, req.params.id, {
          maxTokens: max === undefined ? undefined : Number(max),
          query: one(queryParams, 'query'),
          include: one(queryParams, 'include') as ContextInclude | undefined,
        })
        return toRestContext(context)
      },
    }),
    // Evidence passages, newest said first, a page at a time (docs/guides/evidence.md).
    route({
      method: 'GET',
      path: '/profile/:id/passages',
      operationId: 'listPassages',
      summary:
        "The profile's evidence passages (what the person said), newest said first, a page at a time; hidden ones " +
        'only with include_hidden',
      tag: 'Evidence',
      auth: 'bearer',
      params: profileParams,
      query: passageParamsSchema(limits.maxPageSize),
      responses: {
        200: ok('A page of passages', PassagePage),
        400: err('Invalid profile id, limit, cursor, submission_id or include_hidden'),
        404: err('Unknown profile'),
      },
      handler: async (req, _reply, { services, config }) => {
        const queryParams = query(req)
        const limit = one(queryParams, 'limit')
        if (limit !== undefined && !INT_RE.test(limit)) {
          throw invalid(`Invalid query parameter limit: must be an integer from 1 to ${config.limits.maxPageSize}`)
        }
        const hidden = flag(queryParams, 'include_hidden')
        const includeHidden = hidden === 'true' || hidden === '1'
        const page = await services.passages.list(req.ctx, req.params.id, {
          limit: limit === undefined ? undefined : Number(limit),
          cursor: one(queryParams, 'cursor'),
          submissionId: one(queryParams, 'submission_id'),
          includeHidden,
        })
        return toRestPassagePage(req.params.id, page, includeHidden)
      },
    }),
    // Re-extraction: a dry run (the default) answers the diff and the version it was computed on; dry_run=false
    // applies it.
    route({
      method: 'POST',
      path: '/profile/:id/reextract',
      operationId: 'reextractProfile',
      summary:
        'Re-extract a profile from its applied submissions with the current provider and prompt: a dry run ' +
        "(default) answers the diff; dry_run=false replaces the profile's state with it as one update_log entry " +
        '(input_type reextraction)',
      tag: 'Profiles',
      auth: 'bearer',
      params: profileParams,
      query: z.object({
        dry_run: queryFlag().default('true').describe('false: apply'),
        expected_version: z
          .number()
          .int()
          .min(0)
          .max(999_999_999)
          .optional()
          .describe('Apply only if the profile is still at this version (the one a dry run answered); 409 otherwise'),
      }),
      responses: {
        200: ok('The diff, and whether it was applied', Reextraction),
        400: err(
          'Invalid profile id or parameter, or more applied submissions than PROFILER_REEXTRACT_MAX_SUBMISSIONS',
        ),
        404: err('Unknown profile'),
        409: err(
          'The profile is processing, changed since expected_version (or since the diff was computed), or has no ' +
            'submission text left',
        ),
      },
      handler: async (req, _reply, { services }) => {
        const queryParams = query(req)
        const dry = flag(queryParams, 'dry_run')
        const expected = one(queryParams, 'expected_version')
        if (expected !== undefined && !INT_RE.test(expected)) {
          throw invalid(`Invalid query parameter expected_version: '${expected.slice(0, 40)}' is not a whole number`)
        }
        const result = await services.reextraction.reextract(req.ctx, req.params.id, {
          dryRun: dry === undefined || dry === 'true' || dry === '1',
          expectedVersion: expected === undefined ? undefined : Number(expected),
          budgetKey: appBudgetKey(req.ctx),
        })
        return toRestReextraction(result)
      },
    }),
    searchRoute,
    // The interface's name for the same search: declared in full, so a generator types its answer too.
    {
      ...searchRoute,
      path: '/smart-search',
      operationId: 'smartSearchProfiles',
      summary: 'Alias of /v1/search (searchProfiles): the same parameters and answers',
    },
    // Export: streamed as it is read (Readable.from pulls a record only when the socket has taken the last ones). An
    // error after the first bytes can only cut the response short: the missing end record tells the reader.
    route({
      method: 'GET',
      path: '/export',
      operationId: 'exportProfiles',
      summary:
        "Export the caller's tenant (or one profile) as JSON Lines, streamed: a header, each profile with its " +
        "history and submissions' metadata, an end record with counts",
      tag: 'Export and import',
      auth: 'bearer',
      query: z.object({
        profile_id: profileIdParam.optional().describe('Only this profile'),
        include_text: queryFlag().optional().describe("Also each submission's raw text"),
      }),
      responses: {
        200: ok(
          'The export, as an attachment',
          { media: 'application/x-ndjson', schema: { type: 'string' } },
          'Content-Disposition',
        ),
        400: err('Invalid parameter'),
        404: err('Unknown profile'),
      },
      handler: async (req, reply, { services }) => {
        const queryParams = query(req)
        const profileId = one(queryParams, 'profile_id')
        const text = flag(queryParams, 'include_text')
        const includeText = text === 'true' || text === '1'
        const { header, records } = await services.exports.open(req.ctx, { profileId, includeText })
        const scope = profileId ? '-profile' : ''
        const name = `profiler-export-${header.tenant.name}${scope}-${header.exported_at.slice(0, 10)}.jsonl`
        reply
          .header('content-type', 'application/x-ndjson; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}"`)
        return reply.send(
          Readable.from(
            (async function* () {
              for await (const r of records) yield JSON.stringify(r) + '\n'
            })(),
          ),
        )
      },
    }),
    route({
      method: 'POST',
      path: '/import',
      operationId: 'importProfiles',
      summary:
        "Import an export into the caller's tenant (idempotent: upserts by profile id, history seq and submission " +
        'id); imported profiles are re-embedded',
      tag: 'Export and import',
      auth: 'bearer',
      body: { jsonLines: true },
      responses: {
        200: ok('What was imported', ImportResult),
        400: err(
          "A line that is not a valid record (the message names it), such as a passage its submission's text " +
            'does not say; or a file cut short',
        ),
        413: err('A line or the whole input over its limit'),
      },
      handler: importProfiles,
    }),
    // The calling app's custom profile schema (docs/guides/custom-schema.md): the app is the key's.
    route({
      method: 'GET',
      path: '/schema',
      operationId: 'getCustomSchema',
      summary: "The calling app's custom profile schema (its current version)",
      tag: 'App settings',
      auth: 'bearer',
      responses: { 200: ok('The current version', SchemaVersion) },
      handler: async (req, _reply, { services }) => toRestSchema(await services.schemas.get(req.ctx)),
    }),
    route({
      method: 'PUT',
      path: '/schema',
      operationId: 'putCustomSchema',
      summary:
        "Sets the calling app's custom profile schema: a new version when it differs; values of dropped fields move " +
        'to profile history',
      tag: 'App settings',
      auth: 'bearer',
      body: { json: CustomSchemaBody, required: true },
      responses: {
        200: ok('The current version and what the change did', SchemaChange),
        400: err('Invalid schema (the message names the section or field)'),
        413: err('Body too large'),
      },
      handler: async (req, _reply, { services }) => {
        const schemaChange = await services.schemas.set(req.ctx, req.body)
        const change = {
          changed: schemaChange.changed,
          dropped_fields: schemaChange.droppedFields,
          profiles_updated: schemaChange.profilesUpdated,
        }
        return { ...toRestSchema(schemaChange), ...change }
      },
    }),
    route({
      method: 'GET',
      path: '/schema/versions',
      operationId: 'listCustomSchemaVersions',
      summary:
        "The kept versions of the calling app's custom schema, newest first: at most PROFILER_SCHEMA_MAX_VERSIONS " +
        '(100)',
      tag: 'App settings',
      auth: 'bearer',
      responses: { 200: ok('The versions', SchemaVersions) },
      handler: async (req, _reply, { services }) => ({
        versions: (await services.schemas.versions(req.ctx)).map(toRestSchema),
      }),
    }),
    // The calling app's summary instructions (docs/guides/summary-instructions.md): the app is the key's.
    route({
      method: 'GET',
      path: '/summary-instructions',
      operationId: 'getSummaryInstructions',
      summary: "The calling app's summary instructions",
      tag: 'App settings',
      auth: 'bearer',
      responses: { 200: ok('The instructions ([] when none)', SummaryInstructions) },
      handler: async (req, _reply, { services }) => {
        const app = await services.tenants.appOf(req.ctx.tenantId, req.ctx.appId)
        return { app_id: app.id, instructions: app.summaryInstructions }
      },
    }),
    route({
      method: 'PUT',
      path: '/summary-instructions',
      operationId: 'putSummaryInstructions',
      summary:
        "Replaces the calling app's summary instructions (at most 5 of 1-200 characters; [] clears them): they " +
        'apply from the next batch of a profile whose newest submission comes from this app, and to its ' +
        're-extractions',
      tag: 'App settings',
      auth: 'bearer',
      body: { json: SummaryInstructionsBody, required: true },
      responses: {
        200: ok('The instructions now', SummaryInstructions),
        400: err('Invalid instructions (the message says which)'),
      },
      handler: async (req, _reply, { services }) => {
        const body = req.body as { instructions?: unknown } | null
        if (!body || typeof body !== 'object' || Array.isArray(body) || !('instructions' in body)) {
          throw invalid('Missing field: instructions (a list of strings; [] clears them)')
        }
        const { tenantId, appId } = req.ctx
        const app = await services.tenants.setSummaryInstructions(tenantId, appId, body.instructions, { byId: true })
        return { app_id: app.id, instructions: app.summaryInstructions }
      },
    }),
    route({
      method: 'GET',
      path: '/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      tag: 'Document',
      auth: 'bearer',
      responses: {
        200: ok('The OpenAPI 3.1 document of /v1', { media: 'application/json', schema: { type: 'object' } }),
      },
      handler: async (_req, _reply, deps) => deps.openApiDocument(),
    }),
  ]
}
