import type { EntityManager } from 'typeorm'
import { toSql } from 'pgvector'
import type { HybridCandidate } from '../domain/lexical.js'
import type { FilterField, SortField } from '../domain/requests.js'
import {
  RECENT_HISTORY_COLUMN,
  toHistory,
  toRecord,
  type HistoryRead,
  type ProfileRecord,
  type ProfileRow,
} from './profile.repository.js'
import type { Statement, Statements } from './statements.js'
import { indexedDistance } from './profile-vectors.js'
import type { ProfileEntity } from './entities/profile.entity.js'

/** A profile of a page as the page's statement finds it: no content read, only its size (`content_bytes`). */
export interface PageHit {
  profileId: string
  /** The content's size as PostgreSQL sends it (octet_length(content::text)). */
  bytes: number
  /** The cosine similarity to the query, when a query ranked the page. */
  similarity?: number
}

/** A page's profiles (ids, sizes, similarities) and how many match in all. */
export interface SearchPage {
  /** How many match: absent when the search was not `counted` (Counted). */
  total?: number
  /**
   * Whether `total` is an estimate (a semantic search of more candidates than TotalBound.exactMax), not an exact count.
   */
  estimated: boolean
  hits: PageHit[]
}

/**
 * How a semantic search counts its total (docs/guides/search.md#totals): exactly when the search has at most `exactMax`
 * candidates (the tenant's profiles embedded by the model that pass the filter), since that count measures the distance
 * of every candidate; else estimated from a sample of `samplePercent` % of the table's pages (TABLESAMPLE SYSTEM): the
 * share of the tenant's sampled candidates that match, times `tenantRows`. So a large tenant's search does not measure
 * the distance of each of its profiles.
 */
export interface TotalBound {
  exactMax: number
  samplePercent: number
  /**
   * The tenant's candidates with no filter (SearchRepository.candidates): what the sample's share of matches is scaled
   * to.
   */
  tenantRows: number
  /**
   * Which side of exactMax the candidates are, when the caller knows (a search with no filter, of a tenant whose
   * candidates it has counted): the statement then does not count them up to the bound first.
   */
  known?: 'exact' | 'estimate'
}

/** Candidates a sample of a large tenant holds (about): its error is a few percent of the total, its cost a few ms. */
export const TOTAL_SAMPLE_CANDIDATES = 1000

/**
 * The sample's percentage of the table's pages for a tenant of `tenantRows` candidates: about TOTAL_SAMPLE_CANDIDATES
 * of them.
 */
export function samplePercent(tenantRows: number): number {
  return Math.min(100, Math.max(0.001, (100 * TOTAL_SAMPLE_CANDIDATES) / Math.max(1, tenantRows)))
}

/**
 * The total of a semantic search as one statement: `counted(from)` counts the matches of `from` (the profiles table, or
 * a sample of it). Without a bound, the exact count. With one, the candidates are counted first up to exactMax + 1 (no
 * distance measured); at most exactMax, the exact count, else the estimate (PostgreSQL runs only the branch the CASE
 * takes). The estimate is a ratio on one sample of pages (the same pages twice: REPEATABLE, with a fixed seed, so that
 * the pages of one search say the same total): the sampled matches over the sampled candidates of the tenant (`tenant`:
 * its conditions with no filter), times `tenantRows`; a ratio, since how many pages a SYSTEM sample holds varies by
 * itself (scaling the matches by the percentage alone was 7 % off on average at 99,000 profiles). Answers `total` and
 * `estimated`.
 */
function totalSql(options: {
  ctes?: string[]
  base: string
  tenant: string
  counted: (from: string) => string
  bound?: TotalBound
}): string {
  const ctes = options.ctes ?? []
  // Unbounded: the exact count (the `estimated` column is false).
  if (!options.bound)
    return `${
      ctes.length
        ? `WITH ${ctes.join(', ')}
            `
        : ''
    }${options.counted('profiles')}`
  const max = Math.max(0, Math.floor(options.bound.exactMax))
  const pct = options.bound.samplePercent.toFixed(6)
  const sample = `profiles TABLESAMPLE SYSTEM (${pct}) REPEATABLE (26)`
  const rows = Math.max(0, Math.round(options.bound.tenantRows))
  const sampled = `(SELECT round(CASE WHEN t.n > 0 THEN s.c::float8 * ${rows} / t.n ELSE s.c * 100.0 / ${pct} END)::int
                      FROM (${options.counted(sample)}) s(c),
                           (SELECT count(*) AS n FROM ${sample} WHERE ${options.tenant}) t)`
  const withCtes = ctes.length ? `WITH ${ctes.join(', ')} ` : ''
  if (options.bound.known === 'exact')
    return `${withCtes}SELECT (${options.counted('profiles')}) AS total, false AS estimated`
  if (options.bound.known === 'estimate') return `${withCtes}SELECT ${sampled} AS total, true AS estimated`
  const candidates = `candidates AS MATERIALIZED (
      SELECT count(*)::int AS n FROM (SELECT 1 FROM profiles WHERE ${options.base} LIMIT ${max + 1}) x)`
  return `WITH ${[...ctes, candidates].join(', ')}
          SELECT CASE WHEN (SELECT n FROM candidates) <= ${max} THEN (${options.counted('profiles')})
                      ELSE ${sampled} END AS total,
                 (SELECT n FROM candidates) > ${max} AS estimated`
}

/** What is read of each profile of a page. */
export interface ReadShape {
  /** The newest history entries as `update_log` (REST); GraphQL pages its history itself. */
  history: boolean
  /** Only the small parts: core_info of the content, no history (a GraphQL selection that asks for nothing else). */
  light?: boolean
}

/** A profile as a search answers it. `internals` (what the merge keeps for itself) is never read here. */
const READ_COLUMNS = `tenant_id, profile_id, status, content, field_timestamps, summary, language, version, history_seq,
  created_at, last_updated, claimed_by, (lease_until IS NOT NULL AND lease_until > now()) AS leased`
const LIGHT_COLUMNS = READ_COLUMNS.replace(
  'content,',
  `jsonb_build_object('core_info', content->'core_info') AS content,`,
)

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

/**
 * The SQL of GET /v1/search: filters, threshold and paging all done in the database, in a statement that reads no
 * content (only the page's ids, sizes and similarities); then the page's profiles by id, in chunks the service bounds
 * by their size. Every statement filters by tenant_id.
 */
export class SearchRepository {
  /** The reads by id as prepared statements, when given (planned once per connection: they run on every search). */
  private readonly byIds?: Record<'history' | 'plain' | 'light', Statement<ReadRow>>
  /** The database runs one statement at a time for every connection (the embedded one): see `totalAndPage`. */
  private readonly oneSession: boolean

  constructor(statements?: Statements) {
    this.oneSession = statements?.sharedSession ?? false
    if (statements) {
      this.byIds = {
        history: statements.define<ReadRow>('profiler_search_read', PAGE_BY_IDS_SQL),
        plain: statements.define<ReadRow>('profiler_search_read_plain', BY_IDS_SQL),
        light: statements.define<ReadRow>('profiler_search_read_light', LIGHT_BY_IDS_SQL),
      }
    }
  }

  /**
   * How many profiles of a tenant a semantic search embedded by `model` may find (no filter; no distance measured):
   * what the sample of a large tenant's total is sized by (samplePercent).
   */
  async candidates(manager: EntityManager, tenantId: string, model: string): Promise<number> {
    const rows: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n FROM profiles WHERE tenant_id = $1 AND embedding IS NOT NULL AND embedding_model = $2`,
      [tenantId, model],
    )
    return rows[0]!.n
  }

  /** A tenant's profiles, filtered, sorted and paged. */
  async list(
    manager: EntityManager,
    options: SearchFilter & Counted & { sortBy: SortField; sortOrder: string; pageSize: number; offset: number },
  ): Promise<SearchPage> {
    return this.run(
      manager,
      listingSql({ ...tenantFilter(options.tenantId, options.filterBy, options.filterValue), ...options }),
      options.counted,
    )
  }

  /**
   * A tenant's profiles within `maxDistance` (cosine) of the vector, embedded by `model`, nearest first, paged; each
   * with its `similarity`.
   */
  async nearest(
    manager: EntityManager,
    options: SearchFilter &
      Counted & {
        vector: number[]
        maxDistance: number
        model: string
        pageSize: number
        offset: number
        bound?: TotalBound
      },
  ): Promise<SearchPage> {
    return this.run(
      manager,
      vectorSearchSql({
        ...tenantFilter(options.tenantId, options.filterBy, options.filterValue),
        ...options,
        vector: toSql(options.vector),
      }),
      options.counted,
    )
  }

  /**
   * Hybrid search, first step: how many profiles pass the threshold, and the best `pageSize + offset` candidates of
   * each path (profile id, cosine distance, whether it holds every query term), for the service to rank by the hybrid
   * score; with each candidate's content size.
   */
  async hybridCandidates(
    manager: EntityManager,
    options: SearchFilter &
      Counted &
      Omit<Parameters<typeof hybridSearchSql>[0], 'where' | 'args' | 'vector'> & { vector: number[] },
  ): Promise<{ total?: number; estimated: boolean; candidates: HybridCandidate[]; bytes: Map<string, number> }> {
    const sql = hybridSearchSql({
      ...tenantFilter(options.tenantId, options.filterBy, options.filterValue),
      ...options,
      vector: toSql(options.vector),
    })
    const [counted, rows] = await this.totalAndPage<CandidateRow>(manager, sql, options.counted)
    return {
      total: counted?.total,
      estimated: counted?.estimated === true,
      candidates: rows.map(toCandidate),
      bytes: new Map(rows.map((r) => [r.profile_id, Number(r.content_bytes)])),
    }
  }

  /**
   * Profiles of a page by id, in the order of `ids` (one that has gone since the page was found is left out). The
   * caller bounds how much one call reads (SearchService: about a mebibyte of content).
   */
  async read(manager: EntityManager, tenantId: string, ids: string[], shape: ReadShape): Promise<ProfileRecord[]> {
    if (!ids.length) return []
    const kind = shape.light ? 'light' : shape.history ? 'history' : 'plain'
    const args = [tenantId, ids]
    const rows: ReadRow[] = this.byIds
      ? await this.byIds[kind].rows(args)
      : await manager.query({ light: LIGHT_BY_IDS_SQL, history: PAGE_BY_IDS_SQL, plain: BY_IDS_SQL }[kind], args)
    const byId = new Map<string, ProfileRecord>(
      rows.map((r) => [r.profile_id, shape.history && !shape.light ? withLog(r) : toRecord(r)]),
    )
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []))
  }

  /** A listing or a semantic search: its total (unless not `counted`) and its page (totalAndPage). */
  private async run(manager: EntityManager, sql: SearchSql, counted = true): Promise<SearchPage> {
    const [total, page] = await this.totalAndPage<HitRow>(manager, sql, counted)
    return { total: total?.total, estimated: total?.estimated === true, hits: page.map(toHit) }
  }

  /**
   * The total and the page. On a server, side by side: on the pool's manager (outside a transaction) each takes a
   * connection of its own, so a search takes the longer of the two, not their sum (the total of a semantic search scans
   * every candidate, since the threshold needs each one's distance). On the embedded database, whose one session runs
   * them one after the other anyway, the total is asked for once the page is read: another request's statement queued
   * meanwhile runs between the two instead of after both (two hybrid statements over the largest passages held another
   * tenant's GET for 150-180 ms).
   */
  private async totalAndPage<P>(
    manager: EntityManager,
    sql: SearchSql,
    counted = true,
  ): Promise<[TotalRow | undefined, P[]]> {
    if (!counted) return [undefined, await manager.query(sql.page, sql.args)]
    if (!this.oneSession) {
      const [total, page] = await Promise.all([manager.query(sql.count, sql.args), manager.query(sql.page, sql.args)])
      return [total[0], page]
    }
    const page: P[] = await manager.query(sql.page, sql.args)
    return [(await manager.query(sql.count, sql.args))[0], page]
  }
}

/** Whether a search's total is counted (default); not: the page's statement alone runs, and `total` is absent. */
export interface Counted {
  counted?: boolean
}

/** A profile as a page's read by ids answers it (READ_COLUMNS), with its recent history when asked. */
type ReadRow = ProfileRow & { update_log?: HistoryRead[] }
/** A total's row: the count, and whether it is an estimate (absent: exact). */
type TotalRow = { total: number; estimated?: boolean }
/** A row of a page's statement: the profile's id and size, and its similarity when a query ranked it. */
type HitRow = Pick<ProfileEntity, 'profile_id' | 'content_bytes'> & { similarity?: number }
/** A row of hybridSearchSql's page. */
export type CandidateRow = Pick<ProfileEntity, 'profile_id' | 'content_bytes'> & {
  distance: number | string
  lexical: boolean | null
  cover?: number | string | null
}

/** A row of hybridSearchSql's page as a candidate. */
export const toCandidate = (r: CandidateRow): HybridCandidate => ({
  profileId: r.profile_id,
  similarity: 1 - Number(r.distance),
  lexical: r.lexical === true,
  cover: Number(r.cover ?? 0),
})

const toHit = (r: HitRow): PageHit => ({
  profileId: r.profile_id,
  bytes: Number(r.content_bytes),
  ...(r.similarity !== undefined ? { similarity: Number(r.similarity) } : {}),
})

const withLog = (r: ReadRow): ProfileRecord => ({ ...toRecord(r), update_log: (r.update_log ?? []).map(toHistory) })

/** `tenant_id = $1` and, when a filter is given, its partial match, as SQL conditions and their parameters. */
export function tenantFilter(
  tenantId: string,
  filterBy?: FilterField,
  filterValue?: string,
): { where: string[]; args: unknown[] } {
  const where = ['tenant_id = $1']
  const args: unknown[] = [tenantId]
  if (filterBy) {
    args.push(`%${escapeLike(filterValue!.toLowerCase())}%`)
    where.push(`${FILTER_SQL[filterBy]} LIKE $${args.length} ESCAPE '\\'`)
  }
  return { where, args }
}

/** A listing: filtered, sorted (missing values last, ties by profile id), paged: the page's ids and sizes. */
export function listingSql(options: {
  where: string[]
  args: unknown[]
  sortBy: SortField
  sortOrder: string
  pageSize: number
  offset: number
}): SearchSql {
  const where = options.where.join(' AND ')
  const order = `${SORT_SQL[options.sortBy]} ${options.sortOrder === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, profile_id ASC`
  return {
    count: `SELECT count(*)::int AS total FROM profiles WHERE ${where}`,
    page: `SELECT profile_id, content_bytes FROM profiles WHERE ${where}
            ORDER BY ${order} LIMIT ${options.pageSize} OFFSET ${options.offset}`,
    args: options.args,
  }
}

/**
 * The statements of a semantic search, exactly as the repository runs them (a benchmark runs the same SQL raw beside
 * the service): the threshold and the filters in the same query as the HNSW scan (iterative index scans, pgvector 0.8,
 * are on for every connection, see openDatabase, so a filtered page is full), the total counted over every match.
 */
export function vectorSearchSql(options: {
  where: string[]
  args: unknown[]
  vector: string
  maxDistance: number
  model: string
  pageSize: number
  offset: number
  bound?: TotalBound
}): SearchSql {
  const args = [...options.args, options.vector, options.maxDistance, options.model]
  const vectorParam = `$${args.length - 2}`
  const base = [...options.where, `embedding IS NOT NULL`, `embedding_model = $${args.length}`].join(' AND ')
  const where = `${base} AND (embedding <=> ${vectorParam}) <= $${args.length - 1}`
  const order = indexedDistance(vectorParam, dimensionOf(options.vector))
  return {
    count: totalSql({
      base,
      tenant: tenantCandidates(args.length),
      bound: options.bound,
      counted: (from) => `SELECT count(*)::int AS total FROM ${from} WHERE ${where}`,
    }),
    // Ordered by the distance alone, so that the HNSW index serves it (a tie-breaker made PostgreSQL scan and sort
    // every row: 720 ms instead of 10 at 100,000 profiles); relaxed_order may return near-ties out of order, so the
    // page is re-sorted exactly, ties by profile id.
    page: `SELECT profile_id, content_bytes, similarity FROM (
             SELECT profile_id, content_bytes, 1 - (embedding <=> ${vectorParam}) AS similarity FROM profiles
              WHERE ${where} ORDER BY ${order} LIMIT ${options.pageSize + options.offset}
           ) profiles ORDER BY similarity DESC, profile_id OFFSET ${options.offset}`,
    args,
  }
}

/** Profiles of a page ($2, ids), with their recent history. */
export const PAGE_BY_IDS_SQL = `SELECT ${READ_COLUMNS}, ${RECENT_HISTORY_COLUMN} FROM profiles
  WHERE tenant_id = $1 AND profile_id = ANY($2::text[])`
/** ... without it. */
const BY_IDS_SQL = `SELECT ${READ_COLUMNS} FROM profiles WHERE tenant_id = $1 AND profile_id = ANY($2::text[])`
/** ... only their small parts. */
const LIGHT_BY_IDS_SQL = `SELECT ${LIGHT_COLUMNS} FROM profiles WHERE tenant_id = $1 AND profile_id = ANY($2::text[])`

/**
 * The statements of a hybrid search, exactly as the repository runs them (a benchmark runs the same SQL raw beside the
 * service). A profile passes when its distance is within `maxDistance` (the vector threshold), or when it holds every
 * query term (`terms`, a tsquery literal of required lexemes; in its values or in one evidence passage) and its
 * distance is within the threshold its hybrid score needs. That score grows with its cover (how many of `every`, the
 * query's words, one of its passages says; at least `required`), so the threshold is a list: `lexicalMaxDistance[k]`
 * for cover k (lexicalThresholds). `page` returns two candidate lists: the nearest `limit` by the HNSW index (each
 * marked whether it also matches lexically, with its cover) and, for each cover, the `limit` nearest lexical matches
 * (the OFFSET 0 keeps the HNSW index out of that branch: an index walk filtered by a rare word would stop at the
 * iterative scan's limit before finding it). The service ranks their union by the hybrid score: within a cover that
 * score grows with the similarity, so the union holds the best `limit` overall.
 */
/** The most matching evidence passages one search statement reads to learn how much of the query they say. */
export const SEARCH_PASSAGE_SCAN = 500

/**
 * The most matching evidence passages one search statement reads to learn whose passages say the query's words. Beyond
 * them (a tenant whose passages say all the words more often than this), a profile is a lexical match by its own values
 * only. On the embedded database a statement holds the main thread: all 20,000 passages of a profile, read and hashed a
 * profile id each, took 140 ms of it per statement; 2,000 take about 5 ms (the GIN index's scan of the matches, about 1
 * µs each, remains).
 */
export const SEARCH_SAID_SCAN = 2000

/**
 * Up to how many lexical matches a search measures the distance of each, by default
 * (PROFILER_SEARCH_LEXICAL_EXACT_MAX): reading a vector stored out of line costs about 30 µs a profile on the server
 * (6,600 matches of a word: 190 ms). Beyond, the nearest of them with only the terms' cover come from the HNSW index
 * filtered to the matches (the iterative scan), and those with more from the covered profiles, measured exactly.
 */
export const SEARCH_LEXICAL_EXACT = 300

export function hybridSearchSql(options: {
  where: string[]
  args: unknown[]
  vector: string
  maxDistance: number
  /** By cover k (0 to every.length), the largest distance at which a lexical match still scores the sensitivity. */
  lexicalMaxDistance: number[]
  terms: string
  /**
   * The same words as written, all required, as a tsquery source of quoted words ('' when none): matched in passages.
   */
  words?: string
  /**
   * Every word of the query (everyWord: filler and frame words too, stemmed and as written), each a tsquery literal.
   */
  every?: string[]
  /** How many of `every` a lexical match holds at least (the terms). */
  required?: number
  model: string
  limit: number
  /** Exact up to a bound, else estimated (TotalBound); exact when not given. */
  bound?: TotalBound
  /** Up to how many lexical matches each one's distance is measured (default SEARCH_LEXICAL_EXACT). */
  lexicalExactMax?: number
}): SearchSql {
  const lexicalMax = Math.max(0, Math.floor(options.lexicalExactMax ?? SEARCH_LEXICAL_EXACT))
  const args = [
    ...options.args,
    options.vector,
    options.maxDistance,
    options.model,
    options.terms,
    options.lexicalMaxDistance,
    options.words ?? '',
    options.every ?? [],
    options.required ?? 0,
  ]
  const argCount = options.args.length
  const [q, dv, model, t, dl, w, all, req] = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `$${argCount + i}`)
  const base = [...options.where, `embedding IS NOT NULL`, `embedding_model = ${model}`].join(' AND ')
  const order = indexedDistance(q, dimensionOf(options.vector))
  // A profile also holds the words when one of its evidence passages says all of them (docs/guides/evidence.md): as
  // stemmed like the profile's words, or exactly as written (the passages are indexed both ways). Hidden passages (a
  // forgotten value's) never count. The tenant's matching passages are found once per statement by their GIN index,
  // which leads with the tenant (migration TenantWordIndexes: what other tenants' passages say costs nothing), and at
  // most SEARCH_SAID_SCAN of them read (their keys and profiles), so that this part's cost stays bounded however many
  // say them. The limit is taken outside the statement that finds them (`saying`, a CTE PostgreSQL plans for all its
  // rows and runs only as far as it is read): planned with the limit, a tenant that holds many passages, in a table
  // whose statistics say its words often, had every passage of every tenant read in turn (a sequential scan stopping at
  // the limit, which a tenant whose own passages do not say them never reaches: 57 ms at 120,000 passages on the
  // embedded database, against 2.5 ms through the index).
  const said = `(${t}::tsquery || CASE WHEN ${w} = '' THEN ${t}::tsquery ELSE to_tsquery('simple', ${w}) END)`
  const matched = `saying AS MATERIALIZED (
      SELECT submission_id, position, profile_id FROM passages
       WHERE tenant_id = $1 AND tsv @@ ${said} AND hidden_at IS NULL),
    matched AS MATERIALIZED (SELECT submission_id, position, profile_id FROM saying LIMIT ${SEARCH_SAID_SCAN})`
  // The cover of the profiles whose passages say the terms: how many of the query's words its fullest passage says,
  // learnt from SEARCH_PASSAGE_SCAN of the matching passages read (a profile beyond them counts its terms only), each
  // read again by its key for its words.
  const covered = `covered AS MATERIALIZED (
      SELECT x.profile_id, max((SELECT count(*)::int FROM unnest(${all}::text[]) u WHERE x.tsv @@ u::tsquery)) AS k
        FROM (SELECT submission_id, position FROM matched LIMIT ${SEARCH_PASSAGE_SCAN}) m
        JOIN passages x ON x.tenant_id = $1 AND x.submission_id = m.submission_id AND x.position = m.position
       GROUP BY x.profile_id)`
  const cover = `greatest(${req}::int, c.k)`
  // The profiles whose passages say the words, each once.
  const saidBy = `said_by AS MATERIALIZED (SELECT DISTINCT profile_id FROM matched)`
  // Whether profile row `r` is a lexical match: it holds the terms in its values (its own words, tested on the row), or
  // one of its passages says them. Tested per row, so that a search whose terms thousands of profiles hold does not
  // first collect their ids (a bitmap scan of a heap page per profile: 10-40 ms at 6,600 of 100,000, bench/search.ts).
  const isLexical = (r: string) =>
    `(${r}.lexemes @@ ${t}::tsquery OR ${r}.profile_id IN (SELECT profile_id FROM said_by))`
  // The lexical matches as ids (the profiles' word index, then the passages'; a profile may come twice), read only as
  // far as needed: to count them up to lexicalMax + 1, and when they are no more, to measure each one's distance.
  const lexicalIds = `lexical_ids AS (
      SELECT profile_id FROM profiles WHERE ${base} AND lexemes @@ ${t}::tsquery
      UNION ALL SELECT profile_id FROM said_by)`
  const lexicalCount = `lexical_count AS MATERIALIZED (
      SELECT count(*)::int AS n FROM (SELECT 1 FROM lexical_ids LIMIT ${lexicalMax + 1}) x)`
  // The nearest lexical matches of `from` (a set of ids), `limit` for each cover, each distance measured exactly (a
  // read of its vector): all the lexical matches when they are few, the covered profiles (those of at most
  // SEARCH_PASSAGE_SCAN passages) when they are many. `gate` is a condition PostgreSQL evaluates once; it runs the
  // branch only when it holds. The OFFSET 0 keeps the HNSW index out (an index walk filtered by a rare word would stop
  // at the iterative scan's limit before finding it).
  const nearestLexical = (
    from: string,
    gate: string,
  ) => `(SELECT profile_id, distance, true AS lexical, cover, content_bytes FROM (
              SELECT profile_id, content_bytes, distance, cover,
                     row_number() OVER (PARTITION BY cover ORDER BY distance, profile_id) AS r FROM (
                SELECT p.profile_id, p.content_bytes, p.distance, ${cover} AS cover FROM (
                  SELECT profile_id, content_bytes, embedding <=> ${q} AS distance FROM profiles
                   WHERE ${base} AND profile_id IN (SELECT profile_id FROM ${from}) OFFSET 0) p
                  LEFT JOIN covered c USING (profile_id)
                 WHERE p.distance <= (${dl}::float8[])[least(${cover}, cardinality(${dl}::float8[]) - 1) + 1]
              ) l
            ) z WHERE r <= ${options.limit} AND ${gate})`
  const many = `(SELECT n FROM lexical_count) > ${lexicalMax}`
  return {
    // Each profile's distance measured once (OFFSET 0 keeps it a column: written as one condition, PostgreSQL measured
    // it twice and the total's scan of the tenant took 1.6x as long); only a profile beyond the vector threshold but
    // within the widest lexical one is tested for the words, and its cover looked up then.
    count: totalSql({
      ctes: [matched, covered, saidBy],
      base,
      tenant: tenantCandidates(model),
      bound: options.bound,
      counted: (from) => `SELECT count(*)::int AS total FROM (
               SELECT profile_id, lexemes, embedding <=> ${q} AS d FROM ${from} WHERE ${base} OFFSET 0) p
             WHERE p.d <= ${dv} OR (p.d <= (SELECT max(x) FROM unnest(${dl}::float8[]) x) AND ${isLexical('p')}
                   AND p.d <= (${dl}::float8[])[
                         least(greatest(${req}::int, (SELECT c.k FROM covered c WHERE c.profile_id = p.profile_id)),
                               cardinality(${dl}::float8[]) - 1) + 1])`,
    }),
    // Two candidate lists: the nearest `limit` by the HNSW index, each marked whether it is a lexical match and with
    // its cover; and the nearest lexical matches: when there are at most lexicalMax, `limit` of each cover, every
    // distance measured; when there are more, the covered profiles so, and the nearest `limit` of the rest from the
    // HNSW index filtered to lexical matches (the iterative scan goes on until it has them; with so many matches it
    // finds them in a few hundred index entries), at the cover of the terms alone.
    page: `WITH ${matched}, ${covered}, ${saidBy}, ${lexicalIds}, ${lexicalCount}
           (SELECT profile_id, h.distance, ${isLexical('h')} AS lexical, ${cover} AS cover, h.content_bytes FROM (
              SELECT profile_id, lexemes, embedding <=> ${q} AS distance, content_bytes FROM profiles
               WHERE ${base} AND (embedding <=> ${q}) <= ${dv} ORDER BY ${order} LIMIT ${options.limit}
            ) h LEFT JOIN covered c USING (profile_id))
           UNION ALL
           ${nearestLexical('lexical_ids', `NOT ${many}`)}
           UNION ALL
           ${nearestLexical('covered', many)}
           UNION ALL
           (SELECT profile_id, distance, true AS lexical, ${req}::int AS cover, content_bytes FROM (
              SELECT profile_id, embedding <=> ${q} AS distance, content_bytes FROM profiles m
               WHERE ${base} AND ${isLexical('m')} IS TRUE
                 AND (embedding <=> ${q}) <= (${dl}::float8[])[least(${req}::int, cardinality(${dl}::float8[]) - 1) + 1]
               ORDER BY ${order} LIMIT ${options.limit}
            ) m WHERE ${many})`,
    args,
  }
}

/** The dimension of a vector given as pgvector's text ("[0.1,0,0.3]"). */
const dimensionOf = (vector: string): number => vector.split(',').length

/**
 * A tenant's candidates with no filter: the tenant ($1), embedded by the model (the parameter `model`, or its number).
 */
const tenantCandidates = (model: string | number) =>
  `tenant_id = $1 AND embedding IS NOT NULL AND embedding_model = ${typeof model === 'number' ? `$${model}` : model}`

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
