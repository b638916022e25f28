import type { DataSource } from 'typeorm'
import type { Embedder } from '../ai/types.js'
import type { ProfileRecord } from '../db/profile.repository.js'
import { SearchRepository } from '../db/search.repository.js'
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
    const { vectors } = await this.embedder.embed([p.query])
    const cal = this.embedder.calibration
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
}

const round2 = (n: number) => Math.round(n * 100) / 100
