import type { DataSource } from 'typeorm'
import type { Embedder } from '../ai/types.js'
import type { ProfileRecord } from '../db/profile.repository.js'
import { PassageRepository } from '../db/passage.repository.js'
import {
  SearchRepository,
  samplePercent,
  type PageHit,
  type ReadShape,
  type SearchFilter,
  type Counted,
  type TotalBound,
} from '../db/search.repository.js'
import type { Statements } from '../db/statements.js'
import { DomainError } from '../domain/errors.js'
import { LargeMemo, Pacer, remember } from './pacer.js'
import {
  everyWord,
  lexicalThresholds,
  queryTerms,
  rankHybrid,
  termLiteral,
  termsQuery,
  termWords,
  writtenWords,
} from '../domain/lexical.js'
import { mayBeMisspelt, spellingAlternatives } from '../domain/spelling.js'
import { TypoDictionary } from './typo-dictionary.js'
import { tokens } from '../domain/normalise.js'
import { checkStorable } from '../domain/validation.js'
import { parseRequest, searchParamsSchema } from '../domain/requests.js'
import type { RequestBudget } from './budget.js'
import type { RequestContext } from './context.js'
import type { RateDecision } from './rate-limiter.js'

export { FILTER_FIELDS, SORT_FIELDS, type FilterField, type SortField } from '../domain/requests.js'

export interface SearchParams {
  query?: string
  sensitivity?: number
  filterBy?: string
  filterValue?: string
  sortBy?: string
  sortOrder?: string
  page?: number
  pageSize?: number
}

export type SearchProfile = ProfileRecord & { similarityScore?: number }

export interface SearchResult {
  profiles: SearchProfile[]
  total: number
  /** Whether `total` is an estimate (docs/guides/search.md, "Totals"). */
  totalIsEstimate: boolean
  page: number
  pageSize: number
}

/** A profile of a page before it is read: its id, its content's size, its score when a query ranked it. */
export interface SearchHit extends PageHit {
  similarityScore?: number
}

/** A page found but not read yet: what the answer's head and tail say, and what is to be read. */
export interface SearchPlan {
  total: number
  /** Whether `total` is an estimate (docs/guides/search.md, "Totals"). */
  totalIsEstimate: boolean
  page: number
  pageSize: number
  hits: SearchHit[]
  /** How many statements read it (see chunks). */
  chunkCount: number
  /** The page's content in all (the sum of its profiles' content_bytes; 0 for a light read). */
  bytes: number
  shape: ReadShape
  /** The budget's decision when the page was charged by its size (for the RateLimit-* headers). */
  rate?: RateDecision
}

/** What an answer built whole may still hold: one per operation, shared by its fields (aliases included). */
export interface WholeAnswerAllowance {
  used: number
}

export interface FindOptions {
  /** What to read of each profile (default: everything, with the recent history as `update_log`). */
  shape?: ReadShape
  /**
   * Charge the page by its size to this key of the request budget: one operation per `chargeUnitBytes` of content
   * beyond the first (the request paid that one), before anything is read; RATE_LIMITED when it does not fit.
   */
  chargeTo?: string
  /**
   * The answer is built whole (GraphQL): the page's content comes out of this allowance, and a page that does not fit
   * in what is left of `wholeMaxBytes` is refused (PAYLOAD_TOO_LARGE) before it is read or charged.
   */
  whole?: WholeAnswerAllowance
  /**
   * Count how many match (default). False: only the page's statement runs (GraphQL, when no field asks for the
   * total), and the plan's `total` is what the pages up to this one hold, flagged as an estimate unless the page shows
   * it is all there is.
   */
  countTotal?: boolean
}

export interface SearchOptions {
  /** Prepared statements on this service's database (the reads by id). */
  statements?: Statements
  /** Content read by one statement at most (a single larger profile is read alone). */
  chunkBytes?: number
  /** The request budget that pages are charged to by size (FindOptions.chargeTo). */
  budget?: RequestBudget
  /** Content bytes per operation charged (PROFILER_MAX_BODY_BYTES, as imports are charged). */
  chargeUnitBytes?: number
  /** Content bytes an answer built whole holds at most, per operation (PROFILER_GRAPHQL_MAX_SEARCH_BYTES). */
  wholeMaxBytes?: number
  /**
   * A semantic search of more candidates than this estimates its total (PROFILER_SEARCH_EXACT_TOTAL_MAX); undefined:
   * always exact.
   */
  exactTotalMax?: number
  /**
   * Up to how many lexical matches a hybrid search measures each one's distance (PROFILER_SEARCH_LEXICAL_EXACT_MAX).
   */
  lexicalExactMax?: number
  /** The dictionary a misspelt query word is told from a real one by (default: the local embedder's words). */
  typos?: TypoDictionary
}

/**
 * How long a tenant's count of candidates (what a large tenant's sample is sized by) is used before it is counted
 * again.
 */
const TENANT_SIZE_TTL_MS = 60_000

/** About a mebibyte of content per statement: on the embedded database a statement is a block of the main thread. */
export const READ_CHUNK_BYTES = 1024 * 1024
/**
 * An answer built whole (GraphQL) is built in one block of the event loop, about 25-30 ms per MiB of content on a
 * shared 2-core machine: 2 MiB, about three profiles at the byte limit, keeps it well under 100 ms.
 */
export const WHOLE_ANSWER_MAX_BYTES = 2 * 1024 * 1024

/**
 * The four rules of GET /v1/search, with filters, threshold and paging all done in SQL. A search is found first (ids,
 * scores, sizes: no content read), then its profiles are read by id in chunks of about READ_CHUNK_BYTES of content, so
 * no statement (and, on the embedded database, no block of the main thread) grows with the page.
 */
export class SearchService {
  private readonly schema: ReturnType<typeof searchParamsSchema>
  private readonly repo: SearchRepository
  private readonly passages = new PassageRepository()
  private readonly chunkBytes: number
  private readonly chargeUnitBytes: number
  readonly wholeMaxBytes: number
  private readonly largeReads = new Pacer()
  /**
   * Hybrid searches of a tenant with more than PACED_TENANT_PASSAGES evidence passages run one at a time, paced (per
   * tenant).
   */
  private readonly passageSearches = new Map<string, Pacer>()
  private readonly tenantsLarge = new LargeMemo(10_000, 1000)
  /** What a misspelt query word is told from a real one by, and corrected into. */
  private readonly typos: TypoDictionary
  /** Candidates per tenant and model, counted at most every TENANT_SIZE_TTL_MS (at most 1,000 kept). */
  private readonly tenantSizes = new Map<string, { n: number; at: number; counting?: Promise<number> }>()

  constructor(
    private readonly ds: DataSource,
    private readonly embedder: Embedder,
    maxPageSize: number,
    private readonly opts: SearchOptions = {},
  ) {
    this.schema = searchParamsSchema(maxPageSize)
    this.repo = new SearchRepository(opts.statements)
    this.chunkBytes = opts.chunkBytes ?? READ_CHUNK_BYTES
    this.chargeUnitBytes = opts.chargeUnitBytes ?? 256 * 1024
    this.wholeMaxBytes = opts.wholeMaxBytes ?? WHOLE_ANSWER_MAX_BYTES
    this.typos = opts.typos ?? new TypoDictionary()
  }

  validate(params: SearchParams) {
    const parsed = parseRequest(this.schema, params)
    checkStorable(parsed.query, 'query parameter query')
    checkStorable(parsed.filterValue, 'query parameter filterValue')
    const query = parsed.query?.trim() ? parsed.query.trim() : undefined
    return { ...parsed, query }
  }

  /** A search, whole: the page found, then every chunk of it read. */
  async search(
    ctx: RequestContext,
    params: SearchParams,
    options: FindOptions = {},
  ): Promise<SearchResult & { rate?: RateDecision }> {
    const plan = await this.find(ctx, params, options)
    const profiles: SearchProfile[] = []
    for (const chunk of this.chunks(plan)) profiles.push(...(await this.read(ctx, plan, chunk, (p) => p)))
    return {
      profiles,
      total: plan.total,
      totalIsEstimate: plan.totalIsEstimate,
      page: plan.page,
      pageSize: plan.pageSize,
      ...(plan.rate ? { rate: plan.rate } : {}),
    }
  }

  /**
   * The page's profiles as `map` makes them (a transport's serializer), a chunk at a time as they are pulled: a
   * streamed answer. Called on the gated service, each chunk is read in one of the tenant's call slots, taken and given
   * back around it.
   */
  async *profiles<T>(ctx: RequestContext, plan: SearchPlan, map: (profile: SearchProfile) => T): AsyncGenerator<T> {
    for (const chunk of this.chunks(plan)) yield* await this.read(ctx, plan, chunk, map)
  }

  /**
   * One chunk of a page (see chunks), in page order, each with its score, mapped by `map`. Large chunks take turns in
   * this process, and take at most about half of its time (see Pacer): reading and serializing a profile at the byte
   * limit keeps the main thread (and on the embedded database, the engine) busy for milliseconds, and concurrent large
   * searches would otherwise queue that much work ahead of every other request. Small chunks run freely.
   */
  async read<T>(
    ctx: RequestContext,
    plan: SearchPlan,
    hits: SearchHit[],
    map: (profile: SearchProfile) => T,
  ): Promise<T[]> {
    const work = async () => (await this.readNow(ctx, plan, hits)).map(map)
    const bytes = plan.shape.light ? 0 : hits.reduce((n, h) => n + h.bytes, 0)
    return bytes > LARGE_CHUNK_BYTES ? this.largeReads.run(work) : work()
  }

  private async readNow(ctx: RequestContext, plan: SearchPlan, hits: SearchHit[]): Promise<SearchProfile[]> {
    const records = await this.repo.read(
      this.ds.manager,
      ctx.tenantId,
      hits.map((h) => h.profileId),
      plan.shape,
    )
    const byId = new Map(hits.map((h) => [h.profileId, h]))
    return records.map((record) => {
      const hit = byId.get(record.profile_id)!
      return hit.similarity === undefined
        ? record
        : { ...record, similarity: hit.similarity, similarityScore: hit.similarityScore }
    })
  }

  /** The page cut, in order, into runs of at most chunkBytes of content (a larger profile alone). */
  chunks(plan: SearchPlan): SearchHit[][] {
    const out: SearchHit[][] = []
    let run: SearchHit[] = []
    let bytes = 0
    for (const h of plan.hits) {
      const size = plan.shape.light ? 0 : h.bytes
      if (run.length && bytes + size > this.chunkBytes) {
        out.push(run)
        run = []
        bytes = 0
      }
      run.push(h)
      bytes += size
    }
    if (run.length) out.push(run)
    return out
  }

  /**
   * The page: total, ids, scores and sizes, no content read; bounded (`whole`) and charged (`chargeTo`) by its size.
   */
  async find(ctx: RequestContext, params: SearchParams, options: FindOptions = {}): Promise<SearchPlan> {
    const parsed = this.validate(params)
    const shape = options.shape ?? { history: true }
    const found = await this.page(ctx, parsed, options.countTotal ?? true)
    const bytes = shape.light ? 0 : found.hits.reduce((n, h) => n + h.bytes, 0)
    const plan: SearchPlan = {
      total: found.total,
      totalIsEstimate: found.estimated,
      page: parsed.page,
      pageSize: parsed.pageSize,
      hits: found.hits,
      chunkCount: 0,
      bytes,
      shape,
    }
    plan.chunkCount = this.chunks(plan).length
    if (options.whole) {
      if (options.whole.used + bytes > this.wholeMaxBytes) {
        const others = options.whole.used
          ? ` (with ${fmt(options.whole.used)} bytes of this operation's other search pages)`
          : ''
        throw new DomainError(
          'PAYLOAD_TOO_LARGE',
          `This page's ${found.hits.length} profiles hold ${fmt(bytes)} bytes of content${others}; ` +
            `a GraphQL answer holds at most ${fmt(this.wholeMaxBytes)} ` +
            `(PROFILER_GRAPHQL_MAX_SEARCH_BYTES): ask for fewer profiles (pageSize), ` +
            `select only profileId, status, coreInfo, summary or dates, ` +
            `or use GET /v1/search, which streams`,
        )
      }
      options.whole.used += bytes
    }
    const cost = Math.max(0, Math.ceil(bytes / this.chargeUnitBytes) - 1)
    if (options.chargeTo && this.opts.budget && cost > 0) {
      plan.rate = this.opts.budget.charge(
        options.chargeTo,
        cost,
        `this page's profiles hold ${fmt(bytes)} bytes and count ${cost} more operations ` +
          `(one per ${fmt(this.chargeUnitBytes)} bytes beyond the first); ` +
          `a smaller pageSize costs less`,
      )
    }
    return plan
  }

  /**
   * The tenant's pacer of hybrid searches (one per tenant, so that large tenants do not wait for each other; at most
   * 1,000 kept).
   */
  private pacerOf(tenantId: string): Pacer {
    return this.passageSearches.get(tenantId) ?? remember(this.passageSearches, tenantId, new Pacer(), 1000)
  }

  /**
   * How a semantic search's total is counted (TotalBound): the sample sized by the tenant's candidates, counted at most
   * every TENANT_SIZE_TTL_MS (a stale count is used while it is counted again; only a tenant's first search waits for
   * it).
   */
  private async totalBound(tenantId: string, model: string, filtered: boolean): Promise<TotalBound | undefined> {
    const exactMax = this.opts.exactTotalMax
    if (exactMax === undefined) return undefined
    const key = `${tenantId}\u0000${model}`
    const known = this.tenantSizes.get(key)
    const count = () => {
      const counting = this.repo.candidates(this.ds.manager, tenantId, model).then(
        (n) => (remember(this.tenantSizes, key, { n, at: Date.now() }, 1000), n),
        (error) => {
          if (known) this.tenantSizes.set(key, { ...known, counting: undefined })
          else this.tenantSizes.delete(key)
          throw error
        },
      )
      remember(this.tenantSizes, key, { n: known?.n ?? 0, at: known?.at ?? 0, counting }, 1000)
      return counting
    }
    let tenantRows: number
    if (!known) tenantRows = await count()
    else if (known.at === 0) tenantRows = await known.counting!
    else {
      tenantRows = known.n
      if (!known.counting && Date.now() - known.at > TENANT_SIZE_TTL_MS) count().catch(() => {})
    }
    // With no filter, the tenant's candidates are the search's: which side of the bound they are is known.
    return {
      exactMax,
      samplePercent: samplePercent(tenantRows),
      tenantRows,
      ...(filtered ? {} : { known: tenantRows > exactMax ? 'estimate' : 'exact' }),
    }
  }

  private async page(
    ctx: RequestContext,
    params: ReturnType<SearchService['validate']>,
    counted: boolean,
  ): Promise<{ total: number; estimated: boolean; hits: SearchHit[] }> {
    const filter = { tenantId: ctx.tenantId, filterBy: params.filterBy, filterValue: params.filterValue, counted }
    const offset = (params.page - 1) * params.pageSize
    const found = params.query
      ? await this.semanticPage(ctx, { ...params, query: params.query }, filter, offset)
      : await this.repo.list(this.ds.manager, {
          ...filter,
          sortBy: params.sortBy,
          sortOrder: params.sortOrder,
          pageSize: params.pageSize,
          offset,
        })
    const held = offset + found.hits.length
    // A page that is not full holds every match from the offset on: its total is exact, whatever the estimate said
    // (an empty page beyond the first says nothing of how many there are before it).
    const isAll = found.hits.length < params.pageSize && (found.hits.length > 0 || offset === 0)
    if (found.total === undefined) return { hits: found.hits, total: held, estimated: !isAll }
    if (found.estimated && isAll) return { ...found, total: held, estimated: false }
    // An estimate is at least what the pages up to this one hold (when this one holds any).
    return { ...found, total: found.estimated && found.hits.length ? Math.max(found.total, held) : found.total }
  }

  private async semanticPage(
    ctx: RequestContext,
    params: ReturnType<SearchService['validate']> & { query: string },
    filter: SearchFilter & Counted,
    offset: number,
  ): Promise<{ total?: number; estimated: boolean; hits: SearchHit[] }> {
    const [{ vectors }, bound] = await Promise.all([
      this.embedder.embed([params.query], ctx.signal),
      filter.counted ? this.totalBound(ctx.tenantId, this.embedder.model, !!filter.filterBy) : undefined,
    ])
    const cal = this.embedder.calibration
    const terms = queryTerms(params.query)
    if (!terms.length) {
      // Nothing to match by words (only filler or stop words, or a long description): the vector alone.
      const found = await this.repo.nearest(this.ds.manager, {
        ...filter,
        vector: vectors[0]!,
        maxDistance: 1 - cal.toCosine(params.sensitivity),
        model: this.embedder.model,
        pageSize: params.pageSize,
        offset,
        bound,
      })
      return {
        total: found.total,
        estimated: found.estimated,
        hits: found.hits.map((h) => ({ ...h, similarityScore: round2(cal.toScore(h.similarity!)) })),
      }
    }
    // Hybrid: a profile passes on its vector score, or on its hybrid score when it holds every query term.
    const query = params.query
    const every = everyWord(query)
    // A tenant with many evidence passages: its statements read up to SEARCH_SAID_SCAN matching ones and scan the GIN
    // index's matches of the words (these grow with the tenant), so its hybrid searches are paced (as contexts of a
    // large profile are): on the embedded database's one session, a burst of them cannot queue ahead of every other
    // request.
    const large = await this.tenantsLarge.isLarge(ctx.tenantId, () =>
      this.passages
        .visibleUpTo(this.ds.manager, ctx.tenantId, null, PACED_TENANT_PASSAGES + 1)
        .then((n) => n > PACED_TENANT_PASSAGES),
    )
    const paced = <T>(fn: () => Promise<T>): Promise<T> =>
      large ? this.pacerOf(ctx.tenantId).run(() => (ctx.signal?.throwIfAborted(), fn())) : fn()
    const search = (alternatives?: ReadonlyMap<string, string[][]>) => {
      const words = alternatives ? correctedWords(every, alternatives, query) : every
      return paced(() =>
        this.repo.hybridCandidates(this.ds.manager, {
          ...filter,
          vector: vectors[0]!,
          maxDistance: 1 - cal.toCosine(params.sensitivity),
          lexicalMaxDistance: lexicalThresholds(params.sensitivity, words.length, (s) => cal.toCosine(s)),
          terms: termsQuery(terms, alternatives),
          words: termWords(query, terms),
          every: words,
          required: terms.length,
          model: this.embedder.model,
          limit: offset + params.pageSize,
          bound,
          lexicalExactMax: this.opts.lexicalExactMax,
        }),
      ).then((found) => ({ ...found, words: words.length }))
    }
    let found = await search()
    // No profile holds the query's words: one of them may be misspelt (docs/guides/search.md, "Typos"). What a word
    // that is no common word may have meant (the dictionary's words one edit away, or two words written as one) is
    // matched too.
    if (!found.candidates.some((c) => c.lexical) && mayBeMisspelt(query, terms)) {
      const alternatives = spellingAlternatives(query, terms, await this.typos.get())
      if (alternatives.size) found = await search(alternatives)
    }
    const { total, estimated, candidates, bytes } = found
    const page = rankHybrid(candidates, (c) => cal.toScore(c), offset, params.pageSize, found.words, terms.length)
    return {
      total,
      estimated,
      hits: page.map((h) => ({
        profileId: h.profileId,
        bytes: bytes.get(h.profileId) ?? 0,
        similarity: h.similarity,
        similarityScore: round2(h.score),
      })),
    }
  }
}

/**
 * The query's words (everyWord's literals) with each misspelt one replaced by its term and what it may have meant
 * (termLiteral): a passage saying "shawarma" then says all of "likes schawarma".
 */
function correctedWords(
  every: readonly string[],
  alternatives: ReadonlyMap<string, string[][]>,
  query: string,
): string[] {
  const replace = new Map<string, string>()
  for (const word of writtenWords(query)) {
    const term = tokens(word)[0]
    const alts = term === undefined ? undefined : alternatives.get(term)
    if (!alts) continue
    const literal = termLiteral(term!, alts)
    replace.set(termLiteral(term!), literal).set(termLiteral(word), literal)
  }
  return [...new Set(every.map((w) => replace.get(w) ?? w))]
}

/** A tenant with more evidence passages than this has its hybrid searches paced (see page). */
export const PACED_TENANT_PASSAGES = 2000

/** Chunks above this much content (a chunk that costs more than one operation) are paced (see read). */
const LARGE_CHUNK_BYTES = 256 * 1024

const round2 = (n: number) => Math.round(n * 100) / 100
const fmt = (n: number) => n.toLocaleString('en-US')
