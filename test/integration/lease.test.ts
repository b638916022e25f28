// A worker's lease on a profile lives as long as the worker holds the profile: through the extraction, and also through
// storing the evidence and the apply, however long those take. A lease that lapsed after the extraction let the
// reconciler hand the profile to another round while the first still worked on it (on a loaded Citus cluster every
// attempt of a submission ended that way, and it failed). The slow step is made slow with a lock a test transaction
// holds on the passages table, which the worker waits for; a separate connection is needed, so this runs on the server.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, SERVER_URL, startService, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

describe.skipIf(!SERVER_URL)('the lease of a profile being worked on (server PostgreSQL)', () => {
  let svc: TestService
  let sql: pg.Client
  beforeAll(async () => {
    svc = await startService({
      env: { PROFILER_LEASE_SECONDS: '2', PROFILER_RECONCILE_SECONDS: '1', PROFILER_RATE_LIMIT_PER_MINUTE: '100000' },
    })
    sql = new pg.Client({ connectionString: svc.db.url })
    await sql.connect()
  })
  afterAll(async () => {
    await sql?.query('ROLLBACK').catch(() => undefined)
    await sql?.end().catch(() => undefined)
    await svc?.close()
  })

  it('is kept alive while the evidence waits to be stored: applied once, on the first attempt', async () => {
    const http = client(svc.url, svc.key)
    const lease = async () =>
      (
        await sql.query(
          `SELECT s.status, p.lease_until FROM submissions s JOIN profiles p USING (tenant_id, profile_id)
            WHERE s.profile_id = 'slow'`,
        )
      ).rows[0] as { status: string; lease_until: Date | null } | undefined
    await sql.query('BEGIN')
    await sql.query('LOCK TABLE passages IN SHARE MODE') // the worker's INSERT of the passages waits for this
    try {
      expect((await http.post('slow', { data: 'I love sailing. I live in Porto.' })).status).toBe(202)
      // Extracted and waiting: the worker asks for a lock on passages that this transaction holds.
      await waitFor(
        'the worker to wait for the passages lock',
        async () =>
          (
            await svc.profiler.db.dataSource.query(
              `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'passages'::regclass`,
            )
          )[0].n > 0 || undefined,
      )
      const first = (await lease())!
      expect(first.status).toBe('processing')
      // The lease goes on being renewed past three of its lengths (6 s) while the worker waits (it lapsed after one
      // before).
      await waitFor(
        () => `the lease to be renewed past ${first.lease_until?.toISOString()} + 6 s`,
        async () => ((await lease())?.lease_until?.getTime() ?? 0) > first.lease_until!.getTime() + 6_000 || undefined,
        { everyMs: 200 },
      )
    } finally {
      await sql.query('ROLLBACK')
    }
    await http.waitReady('slow')
    const { body } = await gql(
      svc.url,
      svc.key,
      `{ profile(id: "slow") {
          history(first: 10) { entries { seq } } submissions(first: 10) { nodes { status attempts } }
        } }`,
    )
    expect(body.data.profile.submissions.nodes).toEqual([{ status: 'DONE', attempts: 1 }])
    expect(body.data.profile.history.entries).toHaveLength(1)
  })
})
