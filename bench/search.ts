// Semantic search at scale, side by side with the same SQL run raw:
// - profiles in two tenants: a large one (99 %) and a small one (1 %: a filtered search at 1 % selectivity);
// - embeddings of the local model (1024 dimensions) and of an OpenAI-sized model (1536, served by the local
//     OpenAI-compatible server of the tests, whose embeddings are hashed bags of word stems);
//   - each query through the service (GET /v1/search) and, alternating with it, the same work raw: the query's
//     embedding (the local model in process, or one request to the model's server) and the statements the service runs
//     for it (hybridSearchSql, ranked as the service ranks, or vectorSearchSql when the query has no words to match; then
//     the page's profiles with their history, by id), with the same vector, on plain connections: p50/p95 of both;
//   - recall@10 of the service's page against an exact scan (no HNSW index) with the same filters (a result counts
//     when it scores as well as the exact 10th); whether every page is full (as many as pageSize, or every match).
//   - beside them the raw HNSW query, the baseline of a search whose page comes from the index: the query's embedding,
//     the page's statement alone (no total), then the page's profiles by id;
//   - how many totals were estimates (PROFILER_SEARCH_EXACT_TOTAL_MAX), and their error against the exact count.
// 200 queries by default: the p95 of a few dozen is their second or third slowest, which one scheduling stall of the
// 2-core machine decides (60 queries gave 1.28-1.36x where 200 gave 1.15x, on the same data).
//   npx tsx bench/search.ts [--db server|embedded|both] [--n 100000] [--queries 200] [--sensitivity 0] [--models local,openai]
//        [--keep-db name]   (server: the data in database name_<model>, filled on the first run and kept for the next)
//        [--raw-total exact] (the raw side counts exactly, as a service without the estimate did: with
//                            BENCH_SERVICE_ROOT=<a checkout of the base>, whose service then runs on the same data)
import pg from 'pg'
import { calibrationFor } from '../src/ai/openai/openai-embedder.js'
import { LocalEmbedder } from '../src/ai/local/local-embedder.js'
import { sessionOptions, sessionSettings } from '../src/db/database.js'
import { profileVectorIndexSql } from '../src/db/profile-vectors.js'
import { loadConfig } from '../src/config.js'
import {
  hybridSearchSql,
  PAGE_BY_IDS_SQL,
  samplePercent,
  tenantFilter,
  toCandidate,
  vectorSearchSql,
  type TotalBound,
} from '../src/db/search.repository.js'
import { everyWord, lexicalThresholds, queryTerms, rankHybrid, termsQuery, termWords } from '../src/domain/lexical.js'
import { fakeEmbedding, startOpenAIServer } from '../test/support/openai-server.js'
import { freshDb, keptDb, ROOT as ROOT_DIR, SERVICE_ROOT, spawnTs, startService, type DbKind } from './lib/env.js'
import { percentile, round } from './lib/load.js'
import { syntheticQueries, writeProfiles } from './lib/synthetic.js'
import { arg, benchMain, type BenchResult, type ResultRow } from './lib/report.js'
import type { Bar } from './lib/chart.js'

const OPENAI_MODEL = 'text-embedding-3-small'

async function cli(
  db: { dataDir: string; url?: string },
  env: Record<string, string>,
  ...args: string[]
): Promise<string> {
  const p = spawnTs('src/main.ts', args, {
    PROFILER_DATA_DIR: db.dataDir,
    LOG_LEVEL: 'warn',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...env,
  })
  const code = await new Promise<number | null>((r) => p.child.once('exit', r))
  if (code !== 0) throw new Error(`profiler ${args.join(' ')} failed:\n${p.output()}`)
  return p.output()
}

interface ModelRun {
  label: string
  rows: ResultRow[]
  bars: Bar[]
  raw: unknown
}

async function runModel(
  kind: DbKind,
  model: 'local' | 'openai',
  o: { n: number; queries: number; sensitivity: number; keepDb?: string; rawExact: boolean },
): Promise<ModelRun> {
  if (o.keepDb && kind !== 'server') throw new Error('--keep-db: the server database only')
  const kept = o.keepDb ? await keptDb(`${o.keepDb}_${model}`) : undefined
  const db = kept?.db ?? (await freshDb(kind))
  const seed = !kept || kept.created
  const fake = model === 'openai' ? await startOpenAIServer() : undefined
  const env: Record<string, string> = fake
    ? {
        PROFILER_AI: 'openai',
        OPENAI_API_KEY: 'bench',
        PROFILER_OPENAI_BASE_URL: fake.url,
        PROFILER_EMBEDDING_MODEL: OPENAI_MODEL,
      }
    : {}
  const local = new LocalEmbedder()
  await local.warmUp?.()
  const embed =
    model === 'local'
      ? async (t: string) => (await local.embed([t])).vectors[0]!
      : (t: string) => fakeEmbedding(t, 1536, OPENAI_MODEL)
  // The query's embedding as the service gets it, for the raw side's timing: the local model in process, or one
  // request to the OpenAI-compatible server.
  const embedRaw = async (t: string): Promise<unknown> => {
    if (!fake) return local.embed([t])
    const r = await fetch(`${fake.url}/embeddings`, {
      method: 'POST',
      headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
      body: JSON.stringify({ model: OPENAI_MODEL, input: [t] }),
    })
    if (r.status !== 200) throw new Error(`embeddings: ${r.status}`)
    return r.json()
  }
  const modelId = model === 'local' ? local.model : OPENAI_MODEL
  const calibration = model === 'local' ? local.calibration : calibrationFor(OPENAI_MODEL)
  const label = model === 'local' ? `local embeddings (${local.dimension}-d)` : `OpenAI-sized embeddings (1536-d)`
  const api = await startService(db, 'serve', env)
  if (SERVICE_ROOT !== ROOT_DIR) process.stderr.write(`  the service runs from ${SERVICE_ROOT}\n`)
  try {
    const appOf = async (tenant: string) =>
      JSON.parse(
        (
          await cli(
            db,
            env,
            'app',
            'create',
            '--tenant',
            tenant,
            '--name',
            `bench-${Math.random().toString(36).slice(2, 8)}`,
            '--json',
          )
        ).match(/\{[\s\S]*\}/)![0],
      ) as {
        tenant_id: string
        api_key: string
      }
    const small = await appOf('small')
    // A kept database's service prints no bootstrap key: the large tenant's key is made as the small one's is.
    const bigKey = seed ? api.key : (await appOf('default')).api_key
    // Connections set up as the service's are (iterative index scans on).
    const settings = sessionOptions(sessionSettings(loadConfig({ ...env })))
    const c = new pg.Client({ connectionString: db.connectionString(), options: settings } as pg.ClientConfig)
    const counter = new pg.Client({ connectionString: db.connectionString(), options: settings } as pg.ClientConfig)
    // The baseline's own connection: a PostgreSQL backend that has just run a statement runs the next one faster than
    // one that has been idle (2-3 ms of 15 after 100 ms idle), so each side's connections run once a round, as the
    // service's do.
    const hnswClient = new pg.Client({ connectionString: db.connectionString(), options: settings } as pg.ClientConfig)
    await c.connect()
    await counter.connect()
    await hnswClient.connect()
    try {
      const big = (await c.query(`SELECT id FROM tenants WHERE name = 'default'`)).rows[0].id as string
      const t0 = Date.now()
      const smallCount = Math.max(100, Math.round(o.n / 100))
      if (seed) {
        await c.query(`DROP INDEX profiles_embedding_hnsw`)
        await writeProfiles(c, { tenantId: big, prefix: 'b', count: o.n - smallCount, seed: 1, model: modelId, embed })
        await writeProfiles(c, {
          tenantId: small.tenant_id,
          prefix: 's',
          count: smallCount,
          seed: 2,
          model: modelId,
          embed,
        })
        const t1 = Date.now()
        // The index the migration creates, built once over the data (as after a bulk load).
        if (kind === 'server') await c.query(`SET maintenance_work_mem = '1GB'`)
        await c.query(profileVectorIndexSql(model === 'local' ? local.dimension : 1536))
        await c.query(`ANALYZE profiles`)
        process.stderr.write(
          `  ${kind}, ${label}: ${o.n} profiles written in ${((t1 - t0) / 1000).toFixed(0)} s, index built in ${((Date.now() - t1) / 1000).toFixed(0)} s\n`,
        )
      } else {
        const have = (await c.query(`SELECT count(*)::int AS n FROM profiles`)).rows[0].n as number
        if (have !== o.n)
          throw new Error(
            `--keep-db: the kept database holds ${have} profiles, not --n ${o.n}: drop it (DROP DATABASE ${o.keepDb}_${model}) or give its --n`,
          )
        process.stderr.write(`  ${kind}, ${label}: the kept database's ${have} profiles\n`)
      }
      const config = loadConfig({ ...env })

      const queries = syntheticQueries(o.queries)
      const maxDistance = 1 - calibration.toCosine(o.sensitivity)
      const tenants = [
        { name: `large tenant (${100 - Math.round((100 * smallCount) / o.n)} %)`, id: big, key: bigKey },
        { name: `small tenant (1 %)`, id: small.tenant_id, key: small.api_key },
      ]
      const rows: ResultRow[] = []
      const bars: Bar[] = []
      const raw: Record<string, unknown> = {}
      for (const t of tenants) {
        const service: number[] = []
        const direct: number[] = []
        const hnsw: number[] = []
        let recall = 0
        let full = 0
        let estimates = 0
        let estimateError = 0
        const checks: (() => Promise<void>)[] = []
        // The total as the service counts it (TotalBound: the tenant's candidates known, no filter here), or exactly.
        const candidates = (
          await c.query(
            `SELECT count(*)::int AS n FROM profiles WHERE tenant_id = $1 AND embedding IS NOT NULL AND embedding_model = $2`,
            [t.id, modelId],
          )
        ).rows[0].n
        const bound: TotalBound | undefined = o.rawExact
          ? undefined
          : {
              exactMax: config.search.exactTotalMax,
              samplePercent: samplePercent(candidates),
              tenantRows: candidates,
              known: candidates > config.search.exactTotalMax ? 'estimate' : 'exact',
            }
        for (const [i, q] of queries.entries()) {
          const vector = await embed(q)
          const terms = queryTerms(q)
          const filter = { ...tenantFilter(t.id), vector: `[${vector.join(',')}]`, maxDistance, model: modelId, bound }
          const every = everyWord(q)
          const sqlInput = terms.length
            ? {
                ...filter,
                lexicalMaxDistance: lexicalThresholds(o.sensitivity, every.length, (x) => calibration.toCosine(x)),
                terms: termsQuery(terms),
                words: termWords(q, terms),
                every,
                required: terms.length,
                limit: 10,
              }
            : undefined
          const sql = sqlInput ? hybridSearchSql(sqlInput) : vectorSearchSql({ ...filter, pageSize: 10, offset: 0 })
          const rank = (rows: any[]) =>
            rankHybrid(rows.map(toCandidate), (x) => calibration.toScore(x), 0, 10, every.length, terms.length)
          // As the service runs them: the query's embedding (in process, or a request to the model's server), then the
          // total and the page's ids side by side on two connections; a hybrid page is ranked; then the page is read by
          // id.
          const runRaw = async () => {
            const s0 = performance.now()
            await embedRaw(q)
            const [, page] = await Promise.all([counter.query(sql.count, sql.args), c.query(sql.page, sql.args)])
            await c.query(PAGE_BY_IDS_SQL, [
              t.id,
              terms.length ? rank(page.rows).map((h) => h.profileId) : page.rows.map((r: any) => r.profile_id),
            ])
            return performance.now() - s0
          }
          // The baseline: the page's statement alone, no total (the HNSW query; a hybrid page's lexical branch with
          // it).
          const runHnsw = async () => {
            const s0 = performance.now()
            await embedRaw(q)
            const page = await hnswClient.query(sql.page, sql.args)
            await hnswClient.query(PAGE_BY_IDS_SQL, [
              t.id,
              terms.length ? rank(page.rows).map((h) => h.profileId) : page.rows.map((r: any) => r.profile_id),
            ])
            return performance.now() - s0
          }
          const runService = async () => {
            const s0 = performance.now()
            const res = await fetch(
              `${api.url}/v1/search?${new URLSearchParams({ query: q, sensitivity: String(o.sensitivity), pageSize: '10' })}`,
              {
                headers: { authorization: `Bearer ${t.key}` },
              },
            )
            const body = (await res.json()) as {
              profiles: { profile_id: string; similarityScore: number }[]
              total: number
              totalIsEstimate?: boolean
            }
            if (res.status !== 200) throw new Error(`search: ${res.status} ${JSON.stringify(body)}`)
            const ms = performance.now() - s0
            return {
              ms,
              ids: body.profiles.map((p) => p.profile_id),
              scores: body.profiles.map((p) => p.similarityScore),
              total: body.total,
              estimated: body.totalIsEstimate === true,
            }
          }
          // In turn, each side first on a third of the queries: the first to run a new query's vector reads the index
          // pages its walk needs into the database's cache, and those after it find them there. The first three
          // queries only warm up.
          let got: Awaited<ReturnType<typeof runService>> | undefined
          let rawMs = 0
          let hnswMs = 0
          const sides = [
            async () => void (got = await runService()),
            async () => void (rawMs = await runRaw()),
            async () => void (hnswMs = await runHnsw()),
          ]
          for (let k = 0; k < 3; k++) await sides[(i + k) % 3]!()
          if (!got) throw new Error('no service result')
          const b: Awaited<ReturnType<typeof runService>> = got
          if (i >= 3) {
            service.push(b.ms)
            direct.push(rawMs)
            hnsw.push(hnswMs)
          }
          // The checks against exact counts and scans run after the timed queries: a scan of the whole tenant between
          // them would evict the cache the searches run on (each first search after one was 2-10x slower), which a
          // service does not see.
          checks.push(async () => {
            if (b.estimated) {
              // The exact total, counted as a service without the estimate did, against the estimate.
              const exactSql = terms.length
                ? hybridSearchSql({ ...(sqlInput as any), bound: undefined })
                : vectorSearchSql({ ...filter, bound: undefined, pageSize: 10, offset: 0 })
              const exact = (await c.query(exactSql.count, exactSql.args)).rows[0].total as number
              estimates++
              estimateError += exact ? Math.abs(b.total - exact) / exact : b.total ? 1 : 0
            }
            // Exact: the same conditions with no HNSW index. A result counts as found when it is as near (scores as
            // well) as the exact 10th (so that which of several equally near profiles came back does not matter).
            await c.query('BEGIN')
            await c.query('SET LOCAL enable_indexscan = off')
            if (terms.length) {
              const exact = rank((await c.query(sql.page.replaceAll(`LIMIT 10`, ''), sql.args)).rows)
              await c.query('COMMIT')
              const tenth = exact.length ? exact.at(-1)!.score : 0
              const hit = b.scores.filter((s) => s >= Math.round(tenth * 100) / 100 - 0.01).length
              recall += exact.length ? Math.min(hit, exact.length) / exact.length : 1
            } else {
              // vectorSearchSql's conditions: the tenant ($1), the threshold ($3) on the distance to $2, the model
              // ($4).
              const whereSql = `tenant_id = $1 AND embedding IS NOT NULL AND embedding_model = $4 AND (embedding <=> $2) <= $3`
              const exact = (
                await c.query(
                  `SELECT embedding <=> $2 AS d FROM profiles WHERE ${whereSql} ORDER BY embedding <=> $2 LIMIT 10`,
                  sql.args,
                )
              ).rows
              await c.query('COMMIT')
              const got = (
                await c.query(
                  `SELECT embedding <=> $2 AS d FROM profiles WHERE tenant_id = $1 AND profile_id = ANY($3)`,
                  [t.id, sql.args[1], b.ids],
                )
              ).rows
              const tenth = exact.length ? Number(exact.at(-1).d) : 0
              const hit = got.filter((r) => Number(r.d) <= tenth + 1e-6).length
              recall += exact.length ? Math.min(hit, exact.length) / exact.length : 1
            }
            if (b.ids.length === Math.min(10, b.total)) full++
          })
        }
        for (const check of checks) await check()
        const n = queries.length
        const [sp95, rp95, hp95] = [percentile(service, 95), percentile(direct, 95), percentile(hnsw, 95)]
        const estimateNote = estimates
          ? `, ${estimates}/${n} totals estimated (mean error ${((100 * estimateError) / estimates).toFixed(1)} %)`
          : `, every total exact`
        process.stderr.write(
          `  ${kind}, ${label}, ${t.name}: service p50 ${percentile(service, 50).toFixed(1)} / p95 ${sp95.toFixed(1)} ms, raw SQL p50 ${percentile(direct, 50).toFixed(1)} / p95 ${rp95.toFixed(1)} ms, ` +
            `raw HNSW query p50 ${percentile(hnsw, 50).toFixed(1)} / p95 ${hp95.toFixed(1)} ms, recall@10 ${(recall / n).toFixed(3)}, full pages ${full}/${n}${estimateNote}\n`,
        )
        raw[t.name] = {
          service,
          direct,
          hnsw,
          recall: recall / n,
          full,
          queries: n,
          estimates,
          estimateError: estimates ? estimateError / estimates : 0,
        }
        rows.push({
          what: `${label}, ${t.name}: p95 vs the same embedding and SQL raw`,
          ratio: round(sp95 / rp95),
          target: '<= 1.3x',
          met: sp95 / rp95 <= 1.3,
          figures: `service p95 ${round(sp95, 1)} ms, raw ${round(rp95, 1)} ms (p50 ${round(percentile(service, 50), 1)} / ${round(percentile(direct, 50), 1)})`,
        })
        if (kind === 'server') {
          rows.push({
            what: `${label}, ${t.name}: p95 (target: <= 50 ms), beside the raw HNSW query`,
            value: round(sp95, 1),
            unit: 'ms',
            target: '<= 50 ms',
            met: sp95 <= 50,
            figures: `raw HNSW query (embedding, page statement, read by id) p95 ${round(hp95, 1)} ms (p50 ${round(percentile(hnsw, 50), 1)}); service p50 ${round(percentile(service, 50), 1)} ms${estimateNote}`,
          })
        }
        rows.push({
          what: `${label}, ${t.name}: recall@10 against an exact scan`,
          value: round(recall / n, 3),
          target: '>= 0.95',
          met: recall / n >= 0.95,
          figures: `${n} queries, sensitivity ${o.sensitivity}`,
        })
        rows.push({
          what: `${label}, ${t.name}: pages full`,
          value: full,
          unit: `of ${n}`,
          target: 'all',
          met: full === n,
          figures: 'a page holds pageSize results, or every match when there are fewer',
        })
        bars.push(
          { label: `${t.name}: raw HNSW query p95`, value: round(hp95, 1), baseline: true },
          { label: `${t.name}: raw SQL p95`, value: round(rp95, 1), baseline: true },
          { label: `${t.name}: service p95`, value: round(sp95, 1) },
        )
      }
      return { label, rows, bars, raw }
    } finally {
      await c.end()
      await counter.end()
      await hnswClient.end()
    }
  } catch (e) {
    process.stderr.write(`the service's log ends:\n${api.output().slice(-4000)}\n`)
    throw e
  } finally {
    await api.stop()
    await fake?.close()
    await db.drop()
  }
}

export async function runSearch(
  kind: DbKind,
  o: {
    n: number
    queries: number
    sensitivity: number
    models: ('local' | 'openai')[]
    keepDb?: string
    rawExact?: boolean
  },
): Promise<BenchResult> {
  const rows: ResultRow[] = []
  const bars: Bar[] = []
  const raw: Record<string, unknown> = {}
  for (const m of o.models) {
    const r = await runModel(kind, m, { ...o, rawExact: o.rawExact ?? false })
    rows.push(...r.rows)
    bars.push(...r.bars.map((b) => ({ ...b, label: `${m === 'local' ? '1024-d' : '1536-d'}, ${b.label}` })))
    raw[r.label] = r.raw
  }
  return {
    name: 'search',
    db: kind,
    rows,
    raw,
    chart: { title: `Search p95 at ${o.n.toLocaleString('en-US')} profiles, ${kind} database`, unit: 'ms', bars },
  }
}

await benchMain(import.meta.url, 'search', (kind) =>
  runSearch(kind, {
    n: Number(arg('n', kind === 'server' ? '100000' : '20000')),
    queries: Number(arg('queries', '200')),
    sensitivity: Number(arg('sensitivity', '0')),
    models: arg('models', 'local,openai').split(',') as ('local' | 'openai')[],
    keepDb: arg('keep-db'),
    rawExact: arg('raw-total', 'bounded') === 'exact',
  }),
)
