// A search reads its own tenant's words only: the word indexes of the passages and of the profiles lead with the tenant
// (migration TenantWordIndexes), and the passages that say a query's words are found by that index however common
// the words are in other tenants. Through the whole service, on the database of the run (embedded PGlite, or PostgreSQL
// with DATABASE_URL): one tenant holds thousands of passages and profiles that say "lighthouse", another a few; each
// statement the service runs for the small tenant's search is then explained (EXPLAIN ANALYZE, on the same database,
// with the statistics ANALYZE gives, as autovacuum would on a server) and the rows it read of each table counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, statementsRun, type Client, type TestService } from '../support/harness.js'
import { importFile, importProfiles, submissionsSaying } from '../support/import-file.js'

const PASSAGES = 3000
const PER_SUBMISSION = 200
const PROFILES = 300

describe("search reads only its tenant's words", () => {
  let svc: TestService
  let loud: Client
  let quiet: Client
  let quietTenant: string
  const ids = (r: any) => r.profiles.map((p: any) => p.profile_id)

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    loud = client(svc.url, svc.key)
    const app = await svc.profiler.services.tenants.createApp('quiet', 'app')
    quiet = client(svc.url, app.api_key)
    // The loud tenant: one profile whose PASSAGES passages all say the words, and PROFILES profiles whose values do.
    const at = '2025-01-02T03:04:05.000Z'
    const said = (i: number) => `The lighthouse keeper remembered storm number ${i}.`
    const hobbies = (values: string[]) => ({
      interests: { hobbies: values.map((value) => ({ value, confidence: 0.9 })) },
    })
    const talker = {
      id: 'talker',
      fields: hobbies(['sailing']),
      submissions: submissionsSaying(
        Array.from({ length: PASSAGES }, (_, i) => ({ text: said(i) })),
        PER_SUBMISSION,
        { occurred_at: at },
      ),
    }
    const keepers = Array.from({ length: PROFILES }, (_, i) => ({
      id: `keeper-${i}`,
      fields: hobbies([`lighthouse keeping ${i}`, 'storm watching']),
    }))
    const file = importFile([talker, ...keepers], { at, msBetweenSubmissions: 0, tenant: 'x' })
    expect(await importProfiles(svc.url, svc.key, file)).toMatchObject({
      passages: PASSAGES,
      passages_skipped: 0,
    })
    // The quiet tenant: one person who talked about a lighthouse once, one who did not.
    expect(
      (await quiet.post('keeper', { data: 'I kept a lighthouse on the coast for years, through every storm.' })).status,
    ).toBe(202)
    expect((await quiet.post('baker', { data: 'I bake bread every morning.' })).status).toBe(202)
    await quiet.waitReady('keeper')
    await quiet.waitReady('baker')
    const ds = svc.profiler.db.dataSource
    quietTenant = (await ds.query(`SELECT tenant_id FROM profiles WHERE profile_id = 'keeper'`))[0].tenant_id
    await ds.query(`ANALYZE passages`)
    await ds.query(`ANALYZE profiles`)
  }, 300_000)
  afterAll(async () => svc?.close())

  /**
   * Rows of each table that a statement read: every scan's rows returned and removed by its filters, over all its
   * loops.
   */
  const rowsRead = async (sql: string, params: unknown[]) => {
    const ds = svc.profiler.db.dataSource
    const tableOf = new Map<string, string>(
      (await ds.query(`SELECT indexname, tablename FROM pg_indexes WHERE tablename IN ('passages', 'profiles')`)).map(
        (r: any) => [r.indexname, r.tablename],
      ),
    )
    const [row] = await ds.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params)
    const plan = (typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN'])[0].Plan
    const read: Record<string, number> = { passages: 0, profiles: 0 }
    const walk = (n: any) => {
      const table = n['Relation Name'] ?? tableOf.get(n['Index Name'])
      if (table in read) {
        const loops = n['Actual Loops'] ?? 1
        read[table] +=
          ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) *
          loops
      }
      for (const c of n.Plans ?? []) walk(c)
    }
    walk(plan)
    return read
  }

  it('the word indexes lead with the tenant', async () => {
    const rows = await svc.profiler.db.dataSource.query(
      `SELECT indexname, indexdef FROM pg_indexes
        WHERE tablename IN ('passages', 'profiles') AND indexdef LIKE '%USING gin%' ORDER BY indexname`,
    )
    const defs = Object.fromEntries(rows.map((r: any) => [r.indexname, r.indexdef.replace(/^.* USING /, '')]))
    expect(defs).toMatchObject({
      passages_tenant_tsv: expect.stringMatching(/^gin \(tenant_id, tsv\)/),
      profiles_tenant_lexemes: expect.stringMatching(/^gin \(tenant_id, lexemes\)/),
    })
    expect(defs).not.toHaveProperty('passages_tsv')
    expect(defs).not.toHaveProperty('profiles_lexemes')
  })

  it('a search of words another tenant says thousands of times reads none of its passages or profiles', async () => {
    for (const query of [
      'lighthouse',
      'lighthouse storm',
      'lighthouse keeper remembered storm',
      'likes lighthouses',
      'lighthuose storm',
    ]) {
      let result: any
      const run = await statementsRun(svc, async () => {
        result = await quiet.search({ query })
      })
      expect(ids(result), query).toEqual(['keeper'])
      const mine = run.filter((s) => s.params[0] === quietTenant && /\bFROM passages\b/.test(s.sql))
      expect(mine.length, query).toBeGreaterThan(0)
      for (const s of mine) {
        const read = await rowsRead(s.sql, s.params)
        // The quiet tenant holds two profiles and a passage or two: a statement that read the loud tenant's would count
        // thousands.
        expect(read.passages, `${query}: ${s.sql.slice(0, 80)}`).toBeLessThanOrEqual(10)
        expect(read.profiles, `${query}: ${s.sql.slice(0, 80)}`).toBeLessThanOrEqual(10)
      }
    }
  })

  it('the loud tenant still finds its own, by passages and by values', async () => {
    const r = await loud.search({ query: 'lighthouse keeper remembered storm', pageSize: 5 })
    expect(ids(r)).toContain('talker')
    const v = await loud.search({ query: 'lighthouse keeping 7', pageSize: 3 })
    expect(ids(v)[0]).toBe('keeper-7')
    expect(ids(await quiet.search({ query: 'sailing' }))).toEqual([])
  })
})
