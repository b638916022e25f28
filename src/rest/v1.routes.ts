import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DomainError, invalid } from '../domain/errors.js'
import { abortOnClose } from '../http/abort.js'
import { authenticateBearer } from '../http/auth.js'
import { setRateLimitHeaders } from '../http/rate-limit.js'
import { appBudgetKey } from '../services/budget.js'
import { CONTEXT_MAX_TOKENS } from '../domain/requests.js'
import type { Config } from '../config.js'
import type { Services } from '../services/index.js'
import type { RequestContext } from '../services/context.js'
import type { SearchParams } from '../services/search.service.js'
import { openApiDocument } from './openapi.js'
import type { ContextInclude } from '../services/profile-context.service.js'
import { importSummary } from '../services/export.service.js'
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

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext
  }
}

const INT_RE = /^\d{1,9}$/
const NUM_RE = /^\d{1,3}(\.\d+)?$/

function one(q: Record<string, unknown>, name: string): string | undefined {
  const v = q[name]
  if (v === undefined) return undefined
  if (Array.isArray(v)) throw invalid(`Invalid query parameter ${name}: given more than once`)
  return String(v)
}

/** Raw query strings -> typed search params; range rules live in the search service (shared with GraphQL). */
function searchParams(q: Record<string, unknown>): SearchParams {
  const num = (name: string, re: RegExp) => {
    const v = one(q, name)
    if (v === undefined) return undefined
    if (!re.test(v)) throw invalid(`Invalid query parameter ${name}: '${v.slice(0, 40)}' is not a valid number`)
    return Number(v)
  }
  return {
    query: one(q, 'query'),
    sensitivity: num('sensitivity', NUM_RE),
    filterBy: one(q, 'filterBy'),
    filterValue: one(q, 'filterValue'),
    sortBy: one(q, 'sortBy'),
    sortOrder: one(q, 'sortOrder'),
    page: num('page', INT_RE),
    pageSize: num('pageSize', INT_RE),
  }
}

function requireJson(req: FastifyRequest): void {
  if (!/^application\/json\b/i.test(String(req.headers['content-type'] ?? ''))) {
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type: send application/json')
  }
}

function jsonObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalid('Request body must be a JSON object')
  return body as Record<string, unknown>
}

export async function registerV1Routes(v1: FastifyInstance, services: Services, config: Config) {
  // Authentication first, so an unauthenticated caller learns nothing else (not even body errors); then the app's
  // budget, the same one its GraphQL operations draw on.
  v1.addHook('onRequest', async (req, reply) => {
    // The signal stops the request's long work (a context, a re-extraction, an export) when its client goes away.
    req.ctx = { ...(await authenticateBearer(services, req)), signal: abortOnClose(reply.raw) }
    setRateLimitHeaders(reply, services.budget.charge(appBudgetKey(req.ctx)))
  })

  v1.post<{ Params: { id: string } }>('/profile/:id', async (req, reply) => {
    requireJson(req)
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
  })

  v1.get<{ Params: { id: string } }>('/profile/:id', async (req) => {
    const p = await services.profiles.get(req.ctx, req.params.id)
    return { profile_id: p.profile_id, profile: toRestProfile(p) }
  })

  v1.get<{ Params: { id: string } }>('/profile/:id/context', async (req) => {
    const q = req.query as Record<string, unknown>
    const max = one(q, 'max_tokens')
    if (max !== undefined && !/^-?\d{1,9}$/.test(max))
      throw invalid(`Invalid query parameter max_tokens: must be an integer from 1 to ${CONTEXT_MAX_TOKENS}`)
    const c = await services.llmContext.context(req.ctx, req.params.id, {
      maxTokens: max === undefined ? undefined : Number(max),
      query: one(q, 'query'),
      include: one(q, 'include') as ContextInclude | undefined,
    })
    return toRestContext(c)
  })

  // Evidence passages, newest said first, a page at a time (README "Evidence passages").
  v1.get<{ Params: { id: string } }>('/profile/:id/passages', async (req) => {
    const q = req.query as Record<string, unknown>
    const limit = one(q, 'limit')
    if (limit !== undefined && !INT_RE.test(limit))
      throw invalid(`Invalid query parameter limit: must be an integer from 1 to ${config.limits.maxPageSize}`)
    const hidden = one(q, 'include_hidden')
    if (hidden !== undefined && !/^(true|false|1|0)$/.test(hidden))
      throw invalid(`Invalid query parameter include_hidden: '${hidden.slice(0, 40)}' is not true or false`)
    const includeHidden = hidden === 'true' || hidden === '1'
    const page = await services.passages.list(req.ctx, req.params.id, {
      limit: limit === undefined ? undefined : Number(limit),
      cursor: one(q, 'cursor'),
      submissionId: one(q, 'submission_id'),
      includeHidden,
    })
    return toRestPassagePage(req.params.id, page, includeHidden)
  })

  // Re-extraction: a dry run (the default) answers the diff and the version it was computed on; dry_run=false applies it.
  v1.post<{ Params: { id: string } }>('/profile/:id/reextract', async (req) => {
    const q = req.query as Record<string, unknown>
    const dry = one(q, 'dry_run')
    if (dry !== undefined && !/^(true|false|1|0)$/.test(dry))
      throw invalid(`Invalid query parameter dry_run: '${dry.slice(0, 40)}' is not true or false`)
    const expected = one(q, 'expected_version')
    if (expected !== undefined && !INT_RE.test(expected))
      throw invalid(`Invalid query parameter expected_version: '${expected.slice(0, 40)}' is not a whole number`)
    const r = await services.reextraction.reextract(req.ctx, req.params.id, {
      dryRun: dry === undefined || dry === 'true' || dry === '1',
      expectedVersion: expected === undefined ? undefined : Number(expected),
      budgetKey: appBudgetKey(req.ctx),
    })
    return toRestReextraction(r)
  })

  v1.delete<{ Params: { id: string } }>('/profile/:id', async (req, reply) => {
    await services.profiles.delete(req.ctx, req.params.id)
    return reply.code(204).send()
  })

  // Forget one value: {section, value, category?} as a JSON body, or as query parameters (some clients send no body with
  // a DELETE). Answers the profile as it is now.
  v1.delete<{ Params: { id: string } }>('/profile/:id/values', async (req) => {
    const body = req.body
    const q = req.query as Record<string, unknown>
    const input =
      body !== undefined && body !== null
        ? jsonObject(body)
        : { section: one(q, 'section'), value: one(q, 'value'), category: one(q, 'category') }
    const p = await services.edits.forget(req.ctx, req.params.id, input)
    return { profile_id: p.profile_id, profile: toRestProfile(p) }
  })

  // Provenance (README "Provenance"): the passages that support a value, named as the forget names it; and deleting one
  // submission's evidence (its passages and text), the profile's values left as they are.
  v1.get<{ Params: { id: string } }>('/profile/:id/evidence', async (req) => {
    const q = req.query as Record<string, unknown>
    const e = await services.provenance.evidence(req.ctx, req.params.id, {
      field: one(q, 'field'),
      value: one(q, 'value'),
      category: one(q, 'category'),
      limit: one(q, 'limit'),
    })
    return toRestEvidence(e)
  })
  v1.delete<{ Params: { id: string; submissionId: string } }>(
    '/profile/:id/submissions/:submissionId/evidence',
    async (req) => {
      return toRestSubmissionEvidenceDeletion(
        await services.provenance.deleteSubmissionEvidence(req.ctx, req.params.id, req.params.submissionId),
      )
    },
  )

  v1.post<{ Params: { id: string } }>('/profile/:id/rollback', async (req) => {
    requireJson(req)
    const p = await services.edits.rollback(req.ctx, req.params.id, jsonObject(req.body))
    return { profile_id: p.profile_id, profile: toRestProfile(p) }
  })

  // Search: the page is found first (ids, scores, sizes: no content read) and charged by its size, one operation per
  // body limit's worth of content beyond the first (as an import is charged by what it reads); then its profiles are
  // read in chunks of about a mebibyte (large ones taking turns, SearchService.read). A page of one chunk is answered
  // whole; a larger one is streamed, profile by profile as the socket takes them, so the answer is never held whole and
  // the event loop runs between profiles. Either way the same JSON document. An error after the first bytes can only
  // cut a streamed answer short (it does not parse); a client that goes away stops the reads.
  const search = async (req: FastifyRequest, reply: FastifyReply) => {
    const plan = await services.search.find(req.ctx, searchParams(req.query as Record<string, unknown>), {
      chargeTo: appBudgetKey(req.ctx),
    })
    if (plan.rate) setRateLimitHeaders(reply, plan.rate)
    if (plan.chunkCount <= 1) {
      const profiles: ReturnType<typeof toRestSearchEntry>[] = []
      for await (const p of services.search.profiles(req.ctx, plan, toRestSearchEntry)) profiles.push(p)
      // The interface's page ({profiles, total, page, pageSize}), and `totalIsEstimate: true` only when it is one.
      return {
        profiles,
        total: plan.total,
        ...(plan.totalIsEstimate ? { totalIsEstimate: true } : {}),
        page: plan.page,
        pageSize: plan.pageSize,
      }
    }
    const entries = services.search.profiles(req.ctx, plan, (p) => JSON.stringify(toRestSearchEntry(p)))
    reply.header('content-type', 'application/json; charset=utf-8')
    return reply.send(Readable.from(searchDocument(entries, plan), { highWaterMark: 1 }))
  }
  v1.get('/search', search)
  v1.get('/smart-search', search)

  // Export: streamed as it is read (Readable.from pulls a record only when the socket has taken the last ones). An error
  // after the first bytes can only cut the response short: the missing end record tells the reader.
  v1.get('/export', async (req, reply) => {
    const q = req.query as Record<string, unknown>
    const profileId = one(q, 'profile_id')
    const text = one(q, 'include_text')
    if (text !== undefined && !/^(true|false|1|0)$/.test(text))
      throw invalid(`Invalid query parameter include_text: '${text.slice(0, 40)}' is not true or false`)
    const { header, records } = await services.exports.open(req.ctx, {
      profileId,
      includeText: text === 'true' || text === '1',
    })
    const name = `profiler-export-${header.tenant.name}${profileId ? '-profile' : ''}-${header.exported_at.slice(0, 10)}.jsonl`
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
  })

  // Import: the body is read as a stream, line by line, never whole: the server's JSON body limit does not apply, the
  // import's own per-line and total limits do.
  v1.addContentTypeParser(
    ['application/x-ndjson', 'application/jsonl', 'application/jsonlines'],
    (_req, payload, done) => done(null, payload),
  )
  v1.post('/import', async (req, reply) => {
    const type = String(req.headers['content-type'] ?? '')
    if (!/^application\/(x-ndjson|jsonl|jsonlines)\b/i.test(type)) {
      throw new DomainError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Unsupported Content-Type: send application/x-ndjson (an export, JSON Lines)',
      )
    }
    // A client that goes away stops the import: seen when the connection closes or the body breaks off.
    const gone = new AbortController()
    const onGone = () => {
      if (!reply.raw.writableFinished)
        gone.abort(
          Object.assign(new Error('The client closed the connection; the import stopped'), { statusCode: 499 }),
        )
    }
    reply.raw.once('close', onGone)
    req.raw.once('error', onGone)
    // A refused import stops reading the body without destroying the request (which would take the socket, and the
    // answer, with it); the connection is closed once the answer is sent, so the rest of the body is never read.
    const body = (req.body as Readable).iterator({ destroyOnReturn: false })
    const r = await services.exports
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
      .catch((e) => {
        reply.header('connection', 'close')
        throw e
      })
      .finally(() => {
        reply.raw.off('close', onGone)
        req.raw.off('error', onGone)
      })
    return importSummary(r)
  })

  // The calling app's custom profile schema (README "Custom profile schema"): the app is the key's.
  v1.get('/schema', async (req) => toRestSchema(await services.schemas.get(req.ctx)))
  v1.get('/schema/versions', async (req) => ({
    versions: (await services.schemas.versions(req.ctx)).map(toRestSchema),
  }))
  v1.put('/schema', async (req) => {
    requireJson(req)
    const r = await services.schemas.set(req.ctx, req.body)
    return {
      ...toRestSchema(r),
      changed: r.changed,
      dropped_fields: r.droppedFields,
      profiles_updated: r.profilesUpdated,
    }
  })

  // The calling app's summary instructions (README "Summary instructions"): the app is the key's.
  v1.get('/summary-instructions', async (req) => {
    const app = await services.tenants.appOf(req.ctx.tenantId, req.ctx.appId)
    return { app_id: app.id, instructions: app.summaryInstructions }
  })
  v1.put('/summary-instructions', async (req) => {
    requireJson(req)
    const body = req.body as { instructions?: unknown } | null
    if (!body || typeof body !== 'object' || Array.isArray(body) || !('instructions' in body))
      throw invalid('Missing field: instructions (a list of strings; [] clears them)')
    const app = await services.tenants.setSummaryInstructions(req.ctx.tenantId, req.ctx.appId, body.instructions, {
      byId: true,
    })
    return { app_id: app.id, instructions: app.summaryInstructions }
  })

  const doc = openApiDocument({ maxPageSize: config.limits.maxPageSize })
  v1.get('/openapi.json', async () => doc)
}
