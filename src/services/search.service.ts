import type { DataSource } from 'typeorm'
import type { Embedder } from '../ai/types.js'
import type { ProfileRecord } from '../db/profile.repository.js'
import { SearchRepository } from '../db/search.repository.js'
import { lexicalVectorFloor, queryTerms, rankHybrid, termsQuery } from '../domain/lexical.js'
import { checkStorable } from '../domain/validation.js'
import { parseRequest, searchParamsSchema } from '../domain/requests.js'
import type { RequestContext } from './context.js'

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

export interface SearchResult {
  profiles: (ProfileRecord & { similarityScore?: number })[]
  total: number
  page: number
  pageSize: number
}

/** The four rules of GET /v1/search, with filters, threshold and paging all done in SQL. */
export class SearchService {
  private readonly schema: ReturnType<typeof searchParamsSchema>
  private readonly repo = new SearchRepository()

  constructor(
    private readonly ds: DataSource,
    private readonly embedder: Embedder,
    maxPageSize: number,
  ) {
    this.schema = searchParamsSchema(maxPageSize)
  }

  validate(p: SearchParams) {
    const v = parseRequest(this.schema, p)
    checkStorable(v.query, 'query parameter query')
    checkStorable(v.filterValue, 'query parameter filterValue')
    const query = v.query?.trim() ? v.query.trim() : undefined
    return { ...v, query }
  }

  async search(ctx: RequestContext, params: SearchParams): Promise<SearchResult> {
    const p = this.validate(params)
    const filter = { tenantId: ctx.tenantId, filterBy: p.filterBy, filterValue: p.filterValue }
    const offset = (p.page - 1) * p.pageSize
    if (!p.query) {
      const found = await this.repo.list(this.ds.manager, { ...filter, sortBy: p.sortBy, sortOrder: p.sortOrder, pageSize: p.pageSize, offset })
      return { profiles: found.profiles, total: found.total, page: p.page, pageSize: p.pageSize }
    }
    const { vectors } = await this.embedder.embed([p.query], ctx.signal)
    const cal = this.embedder.calibration
    const terms = queryTerms(p.query)
    if (!terms.length) {
      // Nothing to match by words (only filler or stop words, or a long description): the vector alone.
      const found = await this.repo.nearest(this.ds.manager, {
        ...filter,
        vector: vectors[0]!,
        maxDistance: 1 - cal.toCosine(p.sensitivity),
        model: this.embedder.model,
        pageSize: p.pageSize,
        offset,
      })
      const profiles = found.profiles.map((r) => ({ ...r, similarityScore: round2(cal.toScore(r.similarity!)) }))
      return { profiles, total: found.total, page: p.page, pageSize: p.pageSize }
    }
    // Hybrid: a profile passes on its vector score, or on its hybrid score when it holds every query term.
    const { total, candidates } = await this.repo.hybridCandidates(this.ds.manager, {
      ...filter,
      vector: vectors[0]!,
      maxDistance: 1 - cal.toCosine(p.sensitivity),
      lexicalMaxDistance: 1 - cal.toCosine(lexicalVectorFloor(p.sensitivity)),
      terms: termsQuery(terms),
      model: this.embedder.model,
      limit: offset + p.pageSize,
    })
    const page = rankHybrid(candidates, (c) => cal.toScore(c), offset, p.pageSize)
    const records = await this.repo.byIds(this.ds.manager, ctx.tenantId, page.map((h) => h.profileId))
    const byId = new Map(page.map((h) => [h.profileId, h]))
    const profiles = records.map((r) => ({ ...r, similarity: byId.get(r.profile_id)!.similarity, similarityScore: round2(byId.get(r.profile_id)!.score) }))
    return { profiles, total, page: p.page, pageSize: p.pageSize }
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100
