import type { EntityManager } from 'typeorm'
import { toSql } from 'pgvector'
import type { FilterField, SortField } from '../domain/requests.js'
import { PROFILE_COLUMNS, RECENT_HISTORY_COLUMN, toHistory, toRecord, type ProfileRecord } from './profile.repository.js'

/** A page of profiles (each with its recent history as `update_log`) and how many match in all. */
export interface SearchPage {
  total: number
  profiles: ProfileRecord[]
}

/** What a listing or a semantic search is narrowed to: the tenant, and optionally one field's partial match. */
export interface SearchFilter {
  tenantId: string
  filterBy?: FilterField
  filterValue?: string
}

export interface SearchSql {
  count: string
  page: string
  args: unknown[]
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

/** The SQL of GET /v1/search: filters, threshold and paging all done in the database. Every statement filters by tenant_id. */
export class SearchRepository {
  /** A tenant's profiles, filtered, sorted and paged. */
  async list(m: EntityManager, o: SearchFilter & { sortBy: SortField; sortOrder: string; pageSize: number; offset: number }): Promise<SearchPage> {
    return this.run(m, listingSql({ ...tenantFilter(o.tenantId, o.filterBy, o.filterValue), ...o }))
  }

  /** A tenant's profiles within `maxDistance` (cosine) of the vector, embedded by `model`, nearest first, paged; each with its `similarity`. */
  async nearest(m: EntityManager, o: SearchFilter & { vector: number[]; maxDistance: number; model: string; pageSize: number; offset: number }): Promise<SearchPage> {
    return this.run(m, vectorSearchSql({ ...tenantFilter(o.tenantId, o.filterBy, o.filterValue), ...o, vector: toSql(o.vector) }))
  }

  /**
   * The total and the page, side by side: on the pool's manager (outside a transaction) each takes a connection of its
   * own, so a search takes the longer of the two, not their sum (the total of a semantic search scans every candidate,
   * since the threshold needs each one's distance).
   */
  private async run(m: EntityManager, sql: SearchSql): Promise<SearchPage> {
    const [counted, page] = await Promise.all([m.query(sql.count, sql.args), m.query(sql.page, sql.args)])
    return { total: counted[0].total, profiles: page.map(withLog) }
  }
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
 * The statements of a semantic search, exactly as the repository runs them (a benchmark runs the same SQL raw beside the
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
