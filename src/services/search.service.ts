import type { DataSource, EntityManager } from 'typeorm'
import { toSql } from 'pgvector'
import type { Embedder } from '../ai/types.js'
import { PROFILE_COLUMNS, toRecord, type ProfileRecord, type ProfileRepository } from '../db/profile.repository.js'
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
  private iterativeScan: boolean | undefined
  private readonly schema: ReturnType<typeof searchParamsSchema>

  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileRepository,
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
    const where = ['tenant_id = $1']
    const args: unknown[] = [ctx.tenantId]
    if (p.filterBy) {
      args.push(`%${escapeLike(p.filterValue!.toLowerCase())}%`)
      where.push(`${FILTER_SQL[p.filterBy]} LIKE $${args.length} ESCAPE '\\'`)
    }
    const offset = (p.page - 1) * p.pageSize
    if (!p.query) {
      const dir = p.sortOrder === 'asc' ? 'ASC' : 'DESC'
      const order = `${SORT_SQL[p.sortBy]} ${dir} NULLS LAST, profile_id ASC`
      const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM profiles WHERE ${where.join(' AND ')}`, args)
      const rows = await this.ds.query(
        `SELECT ${PROFILE_COLUMNS} FROM profiles WHERE ${where.join(' AND ')} ORDER BY ${order}
          LIMIT ${p.pageSize} OFFSET ${offset}`,
        args,
      )
      return { profiles: await this.withHistory(this.ds.manager, ctx, rows.map(toRecord)), total, page: p.page, pageSize: p.pageSize }
    }
    const { vectors } = await this.embedder.embed([p.query])
    const cal = this.embedder.calibration
    args.push(toSql(vectors[0]!), 1 - cal.toCosine(p.sensitivity), this.embedder.model)
    const q = `$${args.length - 2}`
    where.push(`embedding IS NOT NULL`, `embedding_model = $${args.length}`, `(embedding <=> ${q}) <= $${args.length - 1}`)
    const useIterative = await this.supportsIterativeScan()
    return this.ds.transaction(async (m) => {
      if (useIterative) await m.query(`SET LOCAL hnsw.iterative_scan = relaxed_order`)
      const [{ total }] = await m.query(`SELECT count(*)::int AS total FROM profiles WHERE ${where.join(' AND ')}`, args)
      // relaxed_order may return near-ties out of order: re-sort the page exactly.
      const rows = await m.query(
        `SELECT * FROM (
           SELECT ${PROFILE_COLUMNS}, 1 - (embedding <=> ${q}) AS similarity FROM profiles
            WHERE ${where.join(' AND ')} ORDER BY embedding <=> ${q}, profile_id LIMIT ${p.pageSize + offset}
         ) x ORDER BY similarity DESC, profile_id OFFSET ${offset}`,
        args,
      )
      const records = rows.map((r: any) => ({ ...toRecord(r), similarityScore: round2(cal.toScore(Number(r.similarity))) }))
      return { profiles: await this.withHistory(m, ctx, records), total, page: p.page, pageSize: p.pageSize }
    })
  }

  private async withHistory<T extends ProfileRecord>(m: EntityManager, ctx: RequestContext, records: T[]): Promise<T[]> {
    const logs = await this.profiles.recentHistory(m, ctx.tenantId, records.map((r) => r.profile_id))
    for (const r of records) r.update_log = logs.get(r.profile_id)
    return records
  }

  private async supportsIterativeScan(): Promise<boolean> {
    if (this.iterativeScan === undefined) {
      const [row] = await this.ds.query(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`)
      const [maj, min] = String(row?.extversion ?? '0.0').split('.').map(Number)
      this.iterativeScan = maj! > 0 || min! >= 8
    }
    return this.iterativeScan
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
const round2 = (n: number) => Math.round(n * 100) / 100
