// A round cut short by a lost connection gives its leases back at once, so the retry of its jobs claims the work in
// seconds instead of after the lease (docs/operations/scaling-out.md, "Citus"). The lost connection is a trigger that
// raises connection_failure (SQLSTATE 08006) in the apply: the worker reads it as an outage, as it reads a server that
// went away, while the database stays reachable for the release and the retry. Runs on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type TestService } from '../support/harness.js'
import { post } from '../support/submit.js'
import { waitFor } from '../support/wait.js'

describe('leases after a round loses its connection', () => {
  let svc: TestService
  const q = (sql: string) => svc.profiler.db.dataSource.query(sql)

  beforeAll(async () => {
    // A lease far longer than the test: only a release lets the work go on in time.
    svc = await startService({ env: { PROFILER_LEASE_SECONDS: '600', PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    await q(
      `CREATE FUNCTION cut_history() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'injected outage' USING ERRCODE = '08006'; END
       $$`,
    )
    await q(
      `CREATE TRIGGER cut_history BEFORE INSERT ON profile_history FOR EACH ROW
         WHEN (NEW.profile_id = 'cut') EXECUTE FUNCTION cut_history()`,
    )
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('gives the lease back, and the retry applies the submission once the database answers', async () => {
    const api = client(svc.url, svc.key)
    const id = await post(api, 'cut', { data: 'I live in Porto and I love sailing.' })
    const state = async () =>
      (
        await q(
          `SELECT s.status, s.attempts, p.claimed_by, p.lease_until FROM submissions s
             JOIN profiles p USING (tenant_id, profile_id) WHERE s.profile_id = 'cut'`,
        )
      )[0] as { status: string; attempts: number; claimed_by: string | null; lease_until: Date | null }
    // Tried once, cut short, and unleased: without the release the lease would hold for 10 minutes.
    const cut = await waitFor('the lease given back after the cut round', state, {
      until: (s) => s.attempts >= 1 && s.claimed_by === null && s.lease_until === null,
      timeoutMs: 30_000,
      everyMs: 20,
    })
    expect(cut.status).toBe('processing')
    await q(`DROP TRIGGER cut_history ON profile_history`)
    const profile = await api.waitReady('cut', 60_000)
    expect(profile.core_info.location).toMatchObject({ value: 'Porto' })
    expect(profile.update_log.flatMap((e: { submission_ids: string[] }) => e.submission_ids)).toEqual([id])
    expect((await state()).status).toBe('done')
  })
})
