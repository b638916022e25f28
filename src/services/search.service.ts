import type { DataSource } from 'typeorm'
import { toSql } from 'pgvector'
import type { Embedder } from '../ai/types.js'
import { PROFILE_COLUMNS, RECENT_HISTORY_COLUMN, toHistory, toRecord, type ProfileRecord } from '../db/profile.repository.js'
import { checkStorable } from '../domain/validation.js'
import { parseRequest, searchParamsSchema, type FilterField, type SortField } from '../domain/requests.js'
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

const FILTER_SQL: Record<FilterField, string> = {
  id: 'lower(profile_id)',
  name: 'lower(name)',
  location: 'lower(location)',
  age: 'age::text',
  gender: 'lower(gender)',
  language: 'lower(language)',
  status: 'status',
}
const SORT_SQL: Record<SortField, string> = {
  last_updated: 'last_updated',
  created_at: 'created_at',
  id: 'profile_id',
  name: 'lower(name)',
  age: 'age',
  location: 'lower(location)',
}

/** The four rules of GET /v1/search, with filters, threshold and paging all done in SQL. */
export class SearchService {
  private readonly schema: ReturnType<typeof searchParamsSchema>

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
    const filter = tenantFilter(ctx.tenantId, p.filterBy, p.filterValue)
    const offset = (p.page - 1) * p.pageSize
    if (!p.query) {
      const rows = await this.run(listingSql({ ...filter, sortBy: p.sortBy, sortOrder: p.sortOrder, pageSize: p.pageSize, offset }))
      return { profiles: rows.page.map(withLog), total: rows.total, page: p.page, pageSize: p.pageSize }
    }
    const { vectors } = await this.embedder.embed([p.query])
    const cal = this.embedder.calibration
    const rows = await this.run(
      vectorSearchSql({
        ...filter,
        vector: toSql(vectors[0]!),
        maxDistance: 1 - cal.toCosine(p.sensitivity),
        model: this.embedder.model,
        pageSize: p.pageSize,
        offset,
      }),
    )
    const profiles = rows.page.map((r) => ({ ...withLog(r), similarityScore: round2(cal.toScore(Number(r.similarity))) }))
    return { profiles, total: rows.total, page: p.page, pageSize: p.pageSize }
  }

  /**
   * The total and the page, side by side on two connections: a search takes the longer of the two, not their sum (the
   * total of a semantic search scans every candidate, since the threshold needs each one's distance).
   */
  private async run(sql: SearchSql): Promise<{ total: number; page: any[] }> {
    const [counted, page] = await Promise.all([this.ds.query(sql.count, sql.args), this.ds.query(sql.page, sql.args)])
    return { total: counted[0].total, page }
  }
}

export interface SearchSql {
  count: string
  page: string
  args: unknown[]
}

const withLog = (r: any): ProfileRecord => ({ ...toRecord(r), update_log: (r.update_log as unknown[]).map(toHistory) })

/** `tenant_id = $1` and, when a filter is given, its partial match, as SQL conditions and their parameters. */
export function tenantFilter(tenantId: string, filterBy?: FilterField, filterValue?: string): { where: string[]; args: unknown[] } {
  const where = ['tenant_id = $1']
  const args: unknown[] = [tenantId]
  if (filterBy) {
    args.push(`%${escapeLike(filterValue!.toLowerCase())}%`)
    where.push(`${FILTER_SQL[filterBy]} LIKE $${args.length} ESCAPE '\\'`)
  }
  return { where, args }
}

/** A listing: filtered, sorted (missing values last, ties by profile id), paged; each profile with its recent history. */
export function listingSql(o: { where: string[]; args: unknown[]; sortBy: SortField; sortOrder: string; pageSize: number; offset: number }): SearchSql {
  const where = o.where.join(' AND ')
  const order = `${SORT_SQL[o.sortBy]} ${o.sortOrder === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, profile_id ASC`
  return {
    count: `SELECT count(*)::int AS total FROM profiles WHERE ${where}`,
    page: `SELECT ${PROFILE_COLUMNS}, ${RECENT_HISTORY_COLUMN} FROM (
             SELECT * FROM profiles WHERE ${where} ORDER BY ${order} LIMIT ${o.pageSize} OFFSET ${o.offset}
           ) profiles ORDER BY ${order}`,
    args: o.args,
  }
}

/**
 * The statements of a semantic search, exactly as the service runs them (a benchmark runs the same SQL raw beside the
 * service): the threshold and the filters in the same query as the HNSW scan (iterative index scans, pgvector 0.8, are
 * on for every connection, see openDatabase, so a filtered page is full), the total counted over every match.
 */
export function vectorSearchSql(o: { where: string[]; args: unknown[]; vector: string; maxDistance: number; model: string; pageSize: number; offset: number }): SearchSql {
  const args = [...o.args, o.vector, o.maxDistance, o.model]
  const q = `$${args.length - 2}`
  const where = [...o.where, `embedding IS NOT NULL`, `embedding_model = $${args.length}`, `(embedding <=> ${q}) <= $${args.length - 1}`].join(' AND ')
  return {
    count: `SELECT count(*)::int AS total FROM profiles WHERE ${where}`,
    // Ordered by the distance alone, so that the HNSW index serves it (a tie-breaker made PostgreSQL scan and sort every
    // row: 720 ms instead of 10 at 100,000 profiles); relaxed_order may return near-ties out of order, so the page is
    // re-sorted exactly, ties by profile id.
    page: `SELECT ${PROFILE_COLUMNS}, similarity, ${RECENT_HISTORY_COLUMN} FROM (
             SELECT *, 1 - (embedding <=> ${q}) AS similarity FROM profiles
              WHERE ${where} ORDER BY embedding <=> ${q} LIMIT ${o.pageSize + o.offset}
           ) profiles ORDER BY similarity DESC, profile_id OFFSET ${o.offset}`,
    args,
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
const round2 = (n: number) => Math.round(n * 100) / 100
