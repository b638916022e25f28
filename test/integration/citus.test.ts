// The service on a real Citus cluster: a coordinator and 2 workers (private PostgreSQL servers, initdb on free ports,
// shared_preload_libraries = citus, the citus and vector extensions on every node), 2 API and 2 worker processes of the
// shipped CLI against the coordinator. The migrations distribute the tenant-owned tables by tenant_id (co-located) and
// make `tenants` a reference table; the test checks that they did, that a tenant's rows sit in one shard group, and
// runs the contract through REST and GraphQL: submit, get, search with filters, delete, tenant isolation, READY over a
// subscription, export/import (with texts and passages), retention, and a worker killed in the middle of a batch.
//
// Runs once in CI: in the embedded pass (it starts its own cluster; skipped when DATABASE_URL is set). Skipped when
// Citus is not installed (scripts/install-citus.sh), unless PROFILER_REQUIRE_CITUS=1, when it fails instead.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCli } from '../../src/app.js'
import { connect, gqlApi, SUBMIT, type Socket } from '../support/graphql-client.js'
import { client, serverDatabase, SERVER_URL, testConfig, type Client, type TestDatabase } from '../support/harness.js'
import { CitusCluster, citusInstalled } from '../support/pg-cluster.js'
import { RoleProcesses } from '../support/processes.js'
import { waitFor } from '../support/wait.js'
import { TestReceiver } from '../support/webhook-receiver.js'

const REQUIRED = process.env.PROFILER_REQUIRE_CITUS === '1'
const INSTALLED = citusInstalled()
const DISTRIBUTED = [
  'apps',
  'profiles',
  'submissions',
  'profile_history',
  'api_keys',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'app_schemas',
  'passages',
]

describe.skipIf(!!SERVER_URL || (!INSTALLED && !REQUIRED))(
  'the service on a Citus cluster (coordinator + 2 workers)',
  () => {
    let cluster: CitusCluster
    let db: TestDatabase
    let sql: pg.Client
    const roles = new RoleProcesses()
    const procs = roles.procs
    const urls: string[] = []
    const sockets: Socket[] = []
    const keys: Record<'a' | 'b', { key: string; tenantId: string; appId: string }> = {} as any
    let a: Client
    let b: Client

    const spawnRole = (role: 'serve' | 'worker', env: Record<string, string>) => roles.spawn(db, role, env)
    const common = {
      PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
      PROFILER_RECONCILE_SECONDS: '1',
      PROFILER_LEASE_SECONDS: '3',
    }
    const workerEnv = {
      ...common,
      LOG_LEVEL: 'warn',
      PROFILER_RETENTION_SWEEP_SECONDS: '2',
      PROFILER_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
      PROFILER_WEBHOOK_POLL_MS: '200',
      PROFILER_WEBHOOK_RETRY_BASE_MS: '200',
    }
    const q = async <T = any>(text: string, params: unknown[] = []): Promise<T[]> =>
      (await sql.query(text, params)).rows
    /** Sessions each node has started (the coordinator's, then each worker's) and those open now, in the database. */
    const sessionsOfNodes = async () => {
      const out: { started: number; open: number }[] = []
      for (const port of [cluster.coordinator.port, ...cluster.workers.map((w) => w.port)]) {
        const url = new URL(db.url!)
        url.port = String(port)
        const node = new pg.Client({ connectionString: url.toString() })
        await node.connect()
        try {
          const [row] = (
            await node.query(
              `SELECT sessions::int AS started, numbackends AS open FROM pg_stat_database
                WHERE datname = current_database()`,
            )
          ).rows
          out.push(row)
        } finally {
          await node.end()
        }
      }
      return out
    }

    beforeAll(async () => {
      if (!INSTALLED)
        throw new Error('PROFILER_REQUIRE_CITUS=1 but Citus is not installed: run scripts/install-citus.sh as root')
      // The coordinator logs each command it sends a worker: the burst test reads which shards the writes touched.
      cluster = new CitusCluster(2, { 'citus.log_remote_commands': 'on', log_min_messages: 'notice' })
      await cluster.init()
      db = await serverDatabase(
        cluster.url,
        fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-test-')),
        cluster.workers.map((w) => w.url),
      )
      sql = new pg.Client({ connectionString: db.url })
      await sql.connect()
      const cli = await openCli(testConfig(db)) // migrates: the processes start on a distributed schema
      try {
        for (const [k, tenant] of [
          ['a', 'acme'],
          ['b', 'globex'],
        ] as const) {
          const issued = await cli.tenants.createApp(tenant, 'web')
          keys[k] = { key: issued.api_key, tenantId: issued.tenant_id, appId: issued.app_id }
        }
        await cli.tenants.setRetention('acme', 'web', { deleteProfilesAfterDays: 30 })
      } finally {
        await cli.close()
      }
      const apis = Array.from({ length: 2 }, () => spawnRole('serve', { ...common, LOG_LEVEL: 'info' }))
      for (const api of apis) {
        urls.push(
          await waitFor(
            () => `an API process to listen; it printed: ${api.out().slice(-2000)}`,
            () => {
              if (api.child.exitCode !== null) throw new Error(`serve exited with ${api.child.exitCode}: ${api.out()}`)
              return /"url":"(http:\/\/[^"]+)"/.exec(api.out())?.[1]
            },
            { timeoutMs: 90_000, everyMs: 100 },
          ),
        )
      }
      for (const url of urls)
        await waitFor(`${url}/readyz`, async () => (await fetch(`${url}/readyz`)).status === 200 || undefined, {
          timeoutMs: 60_000,
        })
      a = client(urls[0]!, keys.a.key)
      b = client(urls[1]!, keys.b.key)
    }, 300_000)

    afterAll(async () => {
      await Promise.all(sockets.map((s) => s.close()))
      await roles.stopAll()
      await sql?.end().catch(() => undefined)
      await db?.drop().catch(() => undefined)
      await cluster?.destroy()
    }, 120_000)

    it('distributes every tenant-owned table by tenant_id, co-located, with tenants as a reference table', async () => {
      const rows = await q<{ t: string; partmethod: string; col: string | null; colocationid: number }>(
        `SELECT logicalrelid::text AS t, partmethod, column_to_column_name(logicalrelid, partkey) AS col, colocationid
           FROM pg_dist_partition`,
      )
      const by = new Map(rows.map((r) => [r.t, r]))
      for (const t of DISTRIBUTED) expect(by.get(t), t).toMatchObject({ partmethod: 'h', col: 'tenant_id' })
      expect(new Set(DISTRIBUTED.map((t) => by.get(t)!.colocationid)).size).toBe(1)
      expect(by.get('tenants')).toMatchObject({ partmethod: 'n' }) // a reference table
      // pg-boss's queue stays on the coordinator, as plain tables.
      expect(rows.filter((r) => r.t.startsWith('pgboss.'))).toEqual([])
      // The shards are spread over both workers.
      const nodes = await q(`SELECT DISTINCT nodeport FROM citus_shards WHERE table_name = 'profiles'::regclass`)
      expect(nodes.map((n) => n.nodeport).sort()).toEqual(cluster.workers.map((w) => w.port).sort())
    })

    it('survives a worker killed in the middle of a batch: every submission applied exactly once', async () => {
      const slow = spawnRole('worker', { ...workerEnv, PROFILER_EXTRACT_DELAY_MS: '3000' })
      const ids = new Map<string, string>()
      const fact = (i: number) => `hobby number ${i}`
      const post = async (i: number) => {
        const profile = `crash${i % 3}`
        const r = await a.post(profile, {
          input_type: 'structured',
          data: JSON.stringify({ interests: { hobbies: [fact(i)] } }),
        })
        expect(r.status).toBe(202)
        ids.set(((await r.json()) as any).id, profile)
      }
      for (let i = 0; i < 6; i++) await post(i)
      const r = await a.post('crash0', { data: 'I love sailing.' })
      ids.set(((await r.json()) as any).id, 'crash0')
      await waitFor(
        'a submission in flight',
        async () => (await q(`SELECT count(*)::int AS n FROM submissions WHERE status = 'processing'`))[0].n,
        {
          until: (n: number) => n > 0,
          timeoutMs: 60_000,
          everyMs: 100,
        },
      )
      slow.child.kill('SIGKILL')
      await new Promise((r) =>
        slow.child.exitCode !== null || slow.child.signalCode !== null ? r(undefined) : slow.child.once('exit', r),
      )
      for (let i = 6; i < 9; i++) await post(i)
      // The two workers the rest of the file runs with.
      spawnRole('worker', workerEnv)
      spawnRole('worker', workerEnv)
      // A deadline, not a wait (a CI run on 2 loaded cores once overran 90 s): on a timeout the message lists what is
      // not done, with its attempts, error and the leases of its profile.
      await waitFor(
        'every submission done (the submissions not done)',
        async () =>
          q(
            `SELECT s.profile_id, s.status, s.attempts, s.error, s.not_before, p.lease_until, now() AS now
             FROM submissions s JOIN profiles p USING (tenant_id, profile_id) WHERE s.status <> 'done' ORDER BY s.seq`,
          ),
        { until: (rows: unknown[]) => rows.length === 0, timeoutMs: 240_000, everyMs: 250 },
      )
      const logged: string[] = []
      for (const profile of ['crash0', 'crash1', 'crash2']) {
        const p = await a.waitReady(profile, 60_000)
        const expected = [...ids].filter(([, pid]) => pid === profile).map(([sid]) => sid)
        const applied = p.update_log.flatMap((e: any) => e.submission_ids)
        expect([...applied].sort()).toEqual([...expected].sort())
        logged.push(...applied)
        const facts = p.interests.hobbies.map((v: any) => v.value)
        for (let i = 0; i < 9; i++) if (`crash${i % 3}` === profile) expect(facts).toContain(fact(i))
      }
      expect(new Set(logged).size).toBe(ids.size)
    }, 420_000)

    it("applies a burst from two tenants, writing only those tenants' shards and leaving no lease", async () => {
      const log = path.join(cluster.coordinator.dir, 'log')
      const from = fs.statSync(log).size
      const sessionsBefore = await sessionsOfNodes()
      const posts = Array.from({ length: 60 }, (_, i) => ({ api: i % 2 ? b : a, profile: `burst${i % 12}`, i }))
      let next = 0
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let k = next++; k < posts.length; k = next++) {
            const { api, profile, i } = posts[k]!
            const data = JSON.stringify({ interests: { hobbies: [`burst hobby ${i}`] } })
            const r = await api.post(profile, { input_type: 'structured', data })
            expect(r.status).toBe(202)
          }
        }),
      )
      await waitFor(
        'every burst submission done (those not done)',
        async () => q(`SELECT profile_id, status, attempts, error FROM submissions WHERE status <> 'done'`),
        { until: (rows: unknown[]) => rows.length === 0, timeoutMs: 120_000, everyMs: 250 },
      )
      const leased = await q(
        `SELECT tenant_id, profile_id, status FROM profiles
          WHERE profile_id LIKE 'burst%' AND (claimed_by IS NOT NULL OR lease_until IS NOT NULL OR status <> 'ready')`,
      )
      expect(leased).toEqual([])
      // Every command that wrote a shard in the meantime wrote a shard of tenant a or b: no statement of the request
      // path or the worker ran on every shard of a table.
      const ours = new Set<string>()
      for (const table of DISTRIBUTED)
        for (const tenant of [keys.a.tenantId, keys.b.tenantId]) {
          const [row] = await q(`SELECT get_shard_id_for_distribution_column($1::regclass, $2::text)::text AS id`, [
            table,
            tenant,
          ])
          ours.add(`${table}_${row.id}`)
        }
      const text = fs.readFileSync(log, 'utf8').slice(from)
      const written = [...text.matchAll(/issuing (?:UPDATE|DELETE FROM|INSERT INTO|COPY) public\.([a-z_]+_\d+)\b/g)]
      expect(written.length).toBeGreaterThan(0)
      expect([...new Set(written.map((m) => m[1]!))].filter((shard) => !ours.has(shard))).toEqual([])
      // Connections reused: what a worker node started meanwhile, it still has open (the coordinator's new backends,
      // one connection each). With Citus's default executor pool a look at every shard opens several per node and
      // closes them again: about 40 per worker node in this burst.
      const sessionsAfter = await sessionsOfNodes()
      for (const [i, after] of sessionsAfter.entries()) {
        const before = sessionsBefore[i]!
        const closed = after.started - before.started - (after.open - before.open)
        expect(closed, `sessions started and ended on node ${i} (0: the coordinator)`).toBeLessThanOrEqual(8)
      }
      // A POST commits on its tenant's node alone (it writes no job): never a two-phase commit. Nor does any
      // transaction that wrote one node (the worker's apply); a round over both tenants' nodes may.
      const commits = commitsOf(text)
      expect(commits.posts.committed).toBeGreaterThan(0)
      expect(commits.posts.prepared).toBe(0)
      expect(commits.preparedOnOneNode).toBe(0)
      // The tests below count each tenant's profiles.
      for (const { api, profile } of posts.slice(0, 12)) expect((await api.del(profile)).status).toBe(204)
    }, 240_000)

    it("enqueues a submission whose job was lost from its tenant's mark, reading the marked tenants only", async () => {
      const log = path.join(cluster.coordinator.dir, 'log')
      const from = fs.statSync(log).size
      // What a POST leaves when its process ends between the commit and the job's enqueue: an open submission with no
      // job, its tenant marked.
      const tenant = keys.a.tenantId
      await q(`INSERT INTO profiles (tenant_id, profile_id, status) VALUES ($1, 'lost0', 'processing')`, [tenant])
      await q(
        `INSERT INTO submissions (tenant_id, id, profile_id, input_type, data, app_id, created_at)
         VALUES ($1, gen_random_uuid(), 'lost0', 'structured', $2, $3, now() - interval '1 minute')`,
        [tenant, JSON.stringify({ interests: { hobbies: ['lost hobby'] } }), keys.a.appId],
      )
      await q(`INSERT INTO due_tenants (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO NOTHING`, [tenant])
      const profile = await a.waitReady('lost0', 60_000)
      expect(profile.interests.hobbies.map((v: any) => v.value)).toContain('lost hobby')
      // Nothing open, and no POST for longer than the grace: the reconciler clears the marks.
      await q(`UPDATE due_tenants SET marked_at = now() - interval '1 hour'`)
      await waitFor('the marks cleared', async () => q(`SELECT tenant_id, marked_at FROM due_tenants`), {
        until: (rows: unknown[]) => rows.length === 0,
        timeoutMs: 30_000,
        everyMs: 250,
      })
      const text = fs.readFileSync(log, 'utf8').slice(from)
      const shards = new Set<string>()
      for (const tenant of [keys.a.tenantId, keys.b.tenantId]) {
        const [row] = await q(`SELECT get_shard_id_for_distribution_column('submissions', $1::text)::text AS id`, [
          tenant,
        ])
        shards.add(row.id)
      }
      // The reconciler's two statements: the stranded submissions of a tenant, and whether it has any open.
      const stranded =
        /issuing SELECT DISTINCT s\.tenant_id AS "tenantId"[^\n]*? FROM \(\(public\.submissions_(\d+) s /g
      const open = /issuing SELECT 1 AS "\?column\?" FROM public\.submissions_(\d+) s WHERE/g
      const read = [...text.matchAll(stranded), ...text.matchAll(open)].map((m) => m[1]!)
      expect(read.length).toBeGreaterThan(1)
      expect([...new Set(read)].filter((shard) => !shards.has(shard))).toEqual([])
      expect((await a.del('lost0')).status).toBe(204)
    }, 120_000)

    it("sends a tenant's webhooks, retries included, polling the due tenants' shards only", async () => {
      const rx = new TestReceiver()
      await rx.start()
      const tenant = keys.a.tenantId
      try {
        await q(
          `INSERT INTO webhook_endpoints (tenant_id, id, app_id, url, events, secret)
           VALUES ($1, 'whe_citus', $2, $3, '{profile.ready}', 'plain:whsec_citus')`,
          [tenant, keys.a.appId, `http://127.0.0.1:${rx.port}/hook`],
        )
        const log = path.join(cluster.coordinator.dir, 'log')
        const from = fs.statSync(log).size
        // The first attempts fail, so that the retries are found by the workers' polls, from the index.
        rx.mode = 'error'
        const profiles = ['hook0', 'hook1', 'hook2']
        for (const profile of profiles)
          expect((await a.post(profile, { input_type: 'structured', data: '{"name": "Hook"}' })).status).toBe(202)
        await waitFor(
          'each delivery tried twice',
          () =>
            q(
              `SELECT profile_id FROM webhook_deliveries
                WHERE tenant_id = $1 AND endpoint_id = 'whe_citus' AND attempts >= 2`,
              [tenant],
            ),
          { until: (rows: unknown[]) => rows.length === profiles.length, timeoutMs: 60_000, everyMs: 100 },
        )
        rx.mode = 'ok'
        await waitFor(
          'every delivery delivered',
          // Naming the tenant, as the workers do: this test's own reads stay on its shard too.
          () =>
            q(`SELECT profile_id, status FROM webhook_deliveries WHERE tenant_id = $1 AND endpoint_id = 'whe_citus'`, [
              tenant,
            ]),
          {
            until: (rows: { status: string }[]) =>
              rows.length === profiles.length && rows.every((r) => r.status === 'delivered'),
            timeoutMs: 60_000,
            everyMs: 100,
          },
        )
        // Nothing is pending: the index holds the posting tenant (until its next look drops it), or nothing.
        const due = await q(`SELECT tenant_id FROM webhook_due`)
        expect(due.filter((row) => row.tenant_id !== tenant)).toEqual([])
        // The workers polled every 200 ms meanwhile: each statement they sent a shard of the deliveries was one of the
        // posting tenant's, or of the other tenant's deliveries (its profiles were applied meanwhile too).
        const text = fs.readFileSync(log, 'utf8').slice(from)
        const shards = new Set<string>()
        for (const t of [keys.a.tenantId, keys.b.tenantId]) {
          const [row] = await q(
            `SELECT get_shard_id_for_distribution_column('webhook_deliveries', $1::text)::text AS id`,
            [t],
          )
          shards.add(row.id)
        }
        const read = [...text.matchAll(/issuing [^\n]*?public\.webhook_deliveries_(\d+)\b/g)].map((m) => m[1]!)
        expect(read.length).toBeGreaterThan(profiles.length)
        expect([...new Set(read)].filter((shard) => !shards.has(shard))).toEqual([])
        for (const profile of profiles) expect((await a.del(profile)).status).toBe(204)
      } finally {
        await q(`DELETE FROM webhook_endpoints WHERE id = 'whe_citus'`)
        await rx.stop()
      }
    }, 180_000)

    it("looks an API key up in its tenant's shard alone, from the key routes on the coordinator", async () => {
      const cli = await openCli(testConfig(db))
      const issued = await cli.tenants.createApp('acme', 'keys').finally(() => cli.close())
      const log = path.join(cluster.coordinator.dir, 'log')
      const from = fs.statSync(log).size
      // Each key is new to the API process, so each request looks it up.
      expect((await client(urls[0]!, issued.api_key).get('/v1/profile/nobody')).status).toBe(404)
      expect((await client(urls[0]!, `${issued.api_key.slice(0, -4)}AAAA`).get('/v1/profile/nobody')).status).toBe(401)
      const unknown = issued.api_key.replace(/^pk_.{4}/, 'pk_zzzz')
      expect((await client(urls[1]!, unknown).get('/v1/profile/nobody')).status).toBe(401)
      const text = fs.readFileSync(log, 'utf8').slice(from)
      // A public id without a route is looked up in no tenant (''), so that it costs what a known one costs.
      const shards = new Set<string>()
      for (const tenant of [issued.tenant_id, '']) {
        const [row] = await q(`SELECT get_shard_id_for_distribution_column('api_keys', $1::text)::text AS id`, [tenant])
        shards.add(row.id)
      }
      const read = [...text.matchAll(/issuing SELECT [^\n]*?public\.api_keys_(\d+)\b/g)].map((m) => m[1]!)
      expect(read.length).toBeGreaterThanOrEqual(3)
      expect([...new Set(read)].filter((shard) => !shards.has(shard))).toEqual([])
    }, 60_000)

    it('REST: submit, get, search with a query and filters, delete; each tenant sees only its own', async () => {
      expect(
        (await a.post('alice', { data: 'My name is Alice Archer. I live in Oslo. I love sailing and chess.' })).status,
      ).toBe(202)
      expect((await a.post('bob', { data: 'My name is Bob Baker. I live in Rome. I enjoy painting.' })).status).toBe(
        202,
      )
      expect((await b.post('alice', { data: 'My name is Alicia Other. I live in Bonn.' })).status).toBe(202)
      const alice = await a.waitReady('alice', 60_000)
      expect(alice.core_info.name.value).toBe('Alice Archer')
      await a.waitReady('bob', 60_000)
      expect((await b.waitReady('alice', 60_000)).core_info.name.value).toBe('Alicia Other')

      const ids = (r: any) => r.profiles.map((p: any) => p.profile_id)
      const hits = await a.search({ query: 'sailing and chess', sensitivity: 0 })
      expect(ids(hits)).toContain('alice')
      expect(ids(await a.search({ filterBy: 'location', filterValue: 'rom' }))).toEqual(['bob'])
      expect(ids(await a.search({ query: 'sailing', filterBy: 'name', filterValue: 'alice' }))).toEqual(['alice'])
      // A misspelt word: the words the tenant holds one edit away are looked up (across the shards) and matched.
      expect(ids(await a.search({ query: 'likes paintingg' }))).toEqual(['bob'])
      expect(ids(await b.search({ query: 'likes paintingg' }))).toEqual([])
      expect((await a.search({})).total).toBe(5) // alice, bob and the three profiles of the crash test
      // The other tenant's search never sees tenant a's profiles; its own 'alice' is another person.
      expect(ids(await b.search({}))).toEqual(['alice'])
      expect(ids(await b.search({ filterBy: 'location', filterValue: 'rom' }))).toEqual([])
      expect((await b.get('/v1/profile/bob')).status).toBe(404)

      expect((await a.del('bob')).status).toBeLessThan(300)
      expect((await a.get('/v1/profile/bob')).status).toBe(404)
      expect((await b.profile('alice')).core_info.name.value).toBe('Alicia Other')
    }, 120_000)

    it('GraphQL: a submission on one API process, READY on a subscription of the other', async () => {
      const socket = connect(urls[1]!, keys.a.key)
      sockets.push(socket)
      await socket.connected
      const status = socket.status('carol')
      const gq = gqlApi(urls[0]!, keys.a.key)
      await gq.data(SUBMIT, { id: 'carol', data: 'My name is Carol Cole. I live in Lima.' })
      await status.until((evs) => evs.some((e) => e.status === 'READY'), 60_000, 'READY for carol')
      const ready = status.events.find((e) => e.status === 'READY')!
      expect(ready.profile.coreInfo.name.value).toBe('Carol Cole')
      const got = await gq.data(`query { profile(id: "carol") { profileId status coreInfo { location { value } } } }`)
      expect(got.profile).toMatchObject({
        profileId: 'carol',
        status: 'READY',
        coreInfo: { location: { value: 'Lima' } },
      })
      // Tenant b's GraphQL does not see it.
      const none = await gqlApi(urls[0]!, keys.b.key).raw(`query { profile(id: "carol") { profileId } }`)
      expect(none.body.data?.profile ?? null).toBeNull()
    }, 120_000)

    it("keeps a tenant's rows of every table in one shard group, on one node", async () => {
      for (const tenant of [keys.a.tenantId, keys.b.tenantId]) {
        const shards = await q<{ t: string; shardid: string; nodeport: number; shardminvalue: string }>(
          `SELECT s.logicalrelid::text AS t, s.shardid, p.nodeport, s.shardminvalue
           FROM unnest($1::text[]) AS x(t)
           JOIN pg_dist_shard s ON s.shardid = get_shard_id_for_distribution_column(x.t, $2::text)
           JOIN pg_dist_shard_placement p ON p.shardid = s.shardid`,
          [DISTRIBUTED, tenant],
        )
        expect(shards).toHaveLength(DISTRIBUTED.length)
        expect(new Set(shards.map((s) => s.nodeport)).size).toBe(1)
        expect(new Set(shards.map((s) => s.shardminvalue)).size).toBe(1)
        // The tenant's profiles and submissions are really in those shards, on that node.
        const node = cluster.workers.find((w) => w.port === shards[0]!.nodeport)!
        const nodeUrl = new URL(db.url!)
        nodeUrl.port = String(node.port)
        const c = new pg.Client({ connectionString: nodeUrl.toString() })
        await c.connect()
        try {
          for (const t of ['profiles', 'submissions']) {
            const shard = shards.find((s) => s.t === t)!
            const [{ n }] = (
              await c.query(`SELECT count(*)::int AS n FROM ${t}_${shard.shardid} WHERE tenant_id = $1`, [tenant])
            ).rows
            const [{ total }] = await q(`SELECT count(*)::int AS total FROM ${t} WHERE tenant_id = $1`, [tenant])
            expect(n, `${t} of ${tenant}`).toBe(total)
            expect(total).toBeGreaterThan(0)
          }
        } finally {
          await c.end()
        }
      }
    })

    it("exports a tenant's profiles and imports them into another tenant", async () => {
      const exp = await fetch(`${urls[0]}/v1/export?profile_id=alice`, {
        headers: { authorization: `Bearer ${keys.a.key}` },
      })
      expect(exp.status).toBe(200)
      const lines = (await exp.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      expect(lines.filter((l) => l.type === 'profile').map((l) => l.profile_id)).toEqual(['alice'])
      // Import into tenant b under a new id: rewrite the profile id in the file.
      const body = lines.map((l) => JSON.stringify(l).replaceAll('"alice"', '"alice-copy"')).join('\n') + '\n'
      const imp = await fetch(`${urls[1]}/v1/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.b.key}`, 'content-type': 'application/x-ndjson' },
        body,
      })
      expect(imp.status, await imp.clone().text()).toBe(200)
      expect(await imp.json()).toMatchObject({ profiles: 1 })
      const copy = await b.profile('alice-copy')
      expect(copy.core_info.name.value).toBe('Alice Archer')
      expect((await a.get('/v1/profile/alice-copy')).status).toBe(404)
    }, 120_000)

    it('exports a profile with texts and passages; imports it to another tenant and back after a delete', async () => {
      const turns = [
        { role: 'assistant', content: 'What have you been up to lately?' },
        {
          role: 'user',
          content: 'I have been restoring an old wooden sailboat in my garage.',
          timestamp: '2024-03-02T10:00:00Z',
        },
        { role: 'assistant', content: 'Do you like jazz?' },
        { role: 'user', content: 'Yes, I play the trumpet in a jazz band.', timestamp: '2024-03-02T10:05:00Z' },
      ]
      expect((await a.post('dora', { input_type: 'conversation', data: JSON.stringify(turns) })).status).toBe(202)
      expect(
        (await a.post('dora', { data: 'My name is Dora Dunn. I visited the glacier museum in Fjaerland last summer.' }))
          .status,
      ).toBe(202)
      await a.waitReady('dora', 60_000)
      const said = async (c: Client, id: string) => {
        const r = await c.get(`/v1/profile/${id}/passages?limit=100`)
        expect(r.status, await r.clone().text()).toBe(200)
        return ((await r.json()) as any).passages
          .map((p: any) => ({ prompt: p.prompt, text: p.text, occurred_at: p.occurred_at }))
          .sort((x: any, y: any) => (x.text < y.text ? -1 : 1))
      }
      const original = await said(a, 'dora')
      expect(original.map((p: any) => p.text)).toEqual(
        expect.arrayContaining([
          'I have been restoring an old wooden sailboat in my garage.',
          'Yes, I play the trumpet in a jazz band.',
        ]),
      )

      const exp = await fetch(`${urls[0]}/v1/export?profile_id=dora&include_text=true`, {
        headers: { authorization: `Bearer ${keys.a.key}` },
      })
      expect(exp.status).toBe(200)
      const file = await exp.text()
      const passages = file
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((l) => l.type === 'passage')
      expect(passages).toHaveLength(original.length)
      const importInto = async (key: string, body: string) => {
        const r = await fetch(`${urls[1]}/v1/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
          body,
        })
        const text = await r.text()
        // An internal error is named in the API processes' log, not in the answer.
        const logged =
          r.status === 500
            ? procs
                .flatMap((p) =>
                  p
                    .out()
                    .split('\n')
                    .filter((l) => l.includes('request failed'))
                    .map((l) => JSON.parse(l).err?.message),
                )
                .join('\n')
            : ''
        expect(r.status, `${text}\n${logged}`).toBe(200)
        return JSON.parse(text)
      }
      const quotes = async (c: Client, id: string) => {
        const query = new URLSearchParams({ query: 'What is Dora restoring?', max_tokens: '500', include: 'passages' })
        const r = await c.get(`/v1/profile/${id}/context?${query}`)
        expect(r.status, await r.clone().text()).toBe(200)
        return r.json() as Promise<any>
      }

      // Into tenant b, under another id.
      expect(await importInto(keys.b.key, file.replaceAll('"dora"', '"dora-copy"'))).toMatchObject({
        profiles: 1,
        submissions: 2,
        passages: original.length,
        passages_skipped: 0,
      })
      expect(await said(b, 'dora-copy')).toEqual(original)
      const context = await quotes(b, 'dora-copy')
      expect(context.passages_included).toBeGreaterThan(0)
      expect(context.text).toContain('I have been restoring an old wooden sailboat in my garage.')
      expect((await a.get('/v1/profile/dora-copy')).status).toBe(404)

      // Back into tenant a after the profile was deleted there (its submissions and passages with it).
      expect((await a.del('dora')).status).toBeLessThan(300)
      expect((await a.get('/v1/profile/dora')).status).toBe(404)
      expect(await importInto(keys.a.key, file)).toMatchObject({
        profiles: 1,
        submissions: 2,
        passages: original.length,
        passages_skipped: 0,
      })
      expect(await said(a, 'dora')).toEqual(original)
      expect((await quotes(a, 'dora')).text).toContain('I have been restoring an old wooden sailboat in my garage.')
    }, 180_000)

    it("deletes tenant a's profiles untouched past its app's policy (workers' sweep), none of tenant b's", async () => {
      const log = path.join(cluster.coordinator.dir, 'log')
      const from = fs.statSync(log).size
      expect((await a.post('old', { data: 'My name is Olga Old. I live in Oslo.' })).status).toBe(202)
      expect((await b.post('old', { data: 'My name is Otto Other. I live in Bonn.' })).status).toBe(202)
      await a.waitReady('old', 60_000)
      await b.waitReady('old', 60_000)
      for (const t of [keys.a.tenantId, keys.b.tenantId]) {
        const at = `now() - make_interval(days => 40)`
        await q(
          `UPDATE profiles SET last_updated = ${at}, created_at = ${at} WHERE tenant_id = $1 AND profile_id = 'old'`,
          [t],
        )
        await q(
          `UPDATE submissions SET created_at = ${at}, started_at = ${at}, finished_at = ${at}
            WHERE tenant_id = $1 AND profile_id = 'old'`,
          [t],
        )
      }
      await waitFor("the sweep to delete tenant a's old profile", async () => (await a.get('/v1/profile/old')).status, {
        until: (s) => s === 404,
        timeoutMs: 60_000,
        everyMs: 250,
      })
      expect((await b.profile('old')).core_info.name.value).toBe('Otto Other')
      expect((await a.profile('alice')).core_info.name.value).toBe('Alice Archer')
      // The sweeps (every 2 s here) read the apps of the tenant marked with a policy from its shard alone.
      const text = fs.readFileSync(log, 'utf8').slice(from)
      const [own] = await q(`SELECT get_shard_id_for_distribution_column('apps', $1::text)::text AS id`, [
        keys.a.tenantId,
      ])
      const read = [...text.matchAll(/issuing SELECT tenant_id, [^\n]*?FROM public\.apps_(\d+)\b/g)].map((m) => m[1]!)
      expect(read.length).toBeGreaterThan(0)
      expect([...new Set(read)]).toEqual([own.id])
    }, 120_000)

    // Last: it leaves this address over its failure limit for a minute.
    it('lets a new key past an address over its failure limit, reading key routes, not every shard', async () => {
      const cli = await openCli(testConfig(db))
      const issued = await cli.tenants.createApp('acme', 'budget').finally(() => cli.close())
      const made = (id: string) => `pk_${id}_${'A'.repeat(32)}`
      const log = path.join(cluster.coordinator.dir, 'log')
      const from = fs.statSync(log).size
      // Failures from this address until it is over its limit (30 a minute, some spent by the tests before): each
      // made-up id is looked up in no tenant (''), as a known one is in its own. Over the limit, the process reads
      // which ids exist, once, then only the keys made since.
      const statuses: number[] = []
      for (let i = 0; i < 40 && statuses.at(-1) !== 429; i++)
        statuses.push((await client(urls[1]!, made(`zz${String(i).padStart(10, '0')}`)).get('/v1/profile/x')).status)
      expect([...new Set(statuses)]).toEqual([401, 429])
      expect((await client(urls[1]!, issued.api_key).get('/v1/profile/nobody')).status).toBe(404)
      expect((await client(urls[1]!, made('yyyyyyyyyyyy')).get('/v1/profile/nobody')).status).toBe(429)
      const shards = new Set<string>()
      for (const tenant of [issued.tenant_id, '']) {
        const [row] = await q(`SELECT get_shard_id_for_distribution_column('api_keys', $1::text)::text AS id`, [tenant])
        shards.add(row.id)
      }
      const text = fs.readFileSync(log, 'utf8').slice(from)
      const read = [...text.matchAll(/issuing SELECT [^\n]*?public\.api_keys_(\d+)\b/g)].map((m) => m[1]!)
      expect(read.length).toBeGreaterThan(0)
      expect([...new Set(read)].filter((shard) => !shards.has(shard))).toEqual([])
    }, 60_000)
  },
)

/**
 * The distributed transactions of the coordinator's log: those that inserted a submission (a POST), by how they ended,
 * and the two-phase commits of transactions that wrote to one worker node only. Each backend's commands are read in
 * order, from BEGIN to the next; a command's DETAIL line names the node it went to.
 */
function commitsOf(log: string): { posts: { committed: number; prepared: number }; preparedOnOneNode: number } {
  type Tx = { nodes: Set<string>; post: boolean; prepared: boolean; committed: boolean }
  const current = new Map<string, Tx>()
  const out = { posts: { committed: 0, prepared: 0 }, preparedOnOneNode: 0 }
  const settle = (tx: Tx | undefined) => {
    if (!tx) return
    if (tx.post && tx.prepared) out.posts.prepared++
    else if (tx.post && tx.committed) out.posts.committed++
    if (tx.prepared && tx.nodes.size === 1) out.preparedOnOneNode++
  }
  for (const [, backend, kind, text] of log.matchAll(/UTC \[(\d+)\] (NOTICE|DETAIL): {2}(.*)/g)) {
    const tx = current.get(backend!)
    if (kind === 'DETAIL') {
      const node = /on server \S+@([\d.]+:\d+)/.exec(text!)?.[1]
      if (tx && node) tx.nodes.add(node)
    } else if (text!.startsWith('issuing BEGIN')) {
      settle(tx)
      current.set(backend!, { nodes: new Set(), post: false, prepared: false, committed: false })
    } else if (tx && text!.startsWith('issuing INSERT INTO public.submissions_')) tx.post = true
    else if (tx && text!.startsWith('issuing PREPARE TRANSACTION')) tx.prepared = true
    else if (tx && text === 'issuing COMMIT') tx.committed = true
  }
  for (const tx of current.values()) settle(tx)
  return out
}
