import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROCESS_QUEUE } from '../../src/jobs/queue.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { sleep, waitFor } from '../support/wait.js'

describe('processing: merge, idempotency, concurrency, isolation', () => {
  let svc: TestService
  let api: Client

  beforeAll(async () => {
    svc = await startService()
    api = client(svc.url, svc.key)
  })
  afterAll(async () => svc?.close())

  it('POST answers 202 at once with a submission id and Location; the profile is visible as processing', async () => {
    const res = await api.post('early', { data: 'My name is Petra and I live in Vienna.' })
    expect(res.status).toBe(202)
    expect(res.headers.get('location')).toBe('/v1/profile/early')
    const ack = await res.json()
    expect(ack).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), message: 'Accepted for processing' })
    const p = await api.profile('early')
    expect(['processing', 'ready']).toContain(p.status)
    expect(p.created_at).toBeTruthy()
    expect(p.last_updated).toBeTruthy()
    const ready = await api.waitReady('early')
    expect(ready.core_info.name.value).toBe('Petra')
  })

  it('a profile built from two submissions shows the merge rules', async () => {
    expect(
      (await api.post('anna', { data: 'My name is Anna. I live in Berlin. I love hiking and I play chess.' })).status,
    ).toBe(202)
    const first = await api.waitReady('anna')
    expect(first.core_info.name.value).toBe('Anna')
    expect(first.core_info.location.value).toBe('Berlin')
    const hobbies1 = Object.values(first.interests)
      .flat()
      .map((v: any) => v.value.toLowerCase())
    expect(hobbies1).toEqual(expect.arrayContaining(['hiking', 'chess']))
    const hikingBefore = Object.values(first.interests)
      .flat()
      .find((v: any) => v.value.toLowerCase() === 'hiking') as any

    expect(
      (await api.post('anna', { data: 'I moved to Munich last year. I love hiking, jazz and cooking.' })).status,
    ).toBe(202)
    const second = await api.waitReady('anna')
    // Location replaced, and the replaced value is in the log.
    expect(second.core_info.location.value).toBe('Munich')
    expect(second.update_log).toHaveLength(2)
    const last = second.update_log[1]
    expect(last.changes.replaced['core_info.location'].value).toBe('Berlin')
    expect(last.submission_ids).toHaveLength(1)
    expect(last.input_type).toBe('text')
    // Interests unioned, the repeat reinforced (1-(1-a)(1-b)), not duplicated.
    const all = Object.values(second.interests).flat() as any[]
    const values = all.map((v) => v.value.toLowerCase())
    expect(values).toEqual(expect.arrayContaining(['hiking', 'chess', 'jazz', 'cooking']))
    expect(values.filter((v) => v === 'hiking')).toHaveLength(1)
    const hikingAfter = all.find((v) => v.value.toLowerCase() === 'hiking')
    expect(hikingAfter.confidence).toBeGreaterThan(hikingBefore.confidence)
    // Name untouched; timestamps and summary refreshed.
    expect(second.core_info.name.value).toBe('Anna')
    expect(new Date(second.field_timestamps['core_info.location']).getTime()).toBeGreaterThan(
      new Date(first.last_updated).getTime() - 1,
    )
    expect(new Date(second.last_updated).getTime()).toBeGreaterThan(new Date(first.last_updated).getTime())
    expect(second.summary).toMatch(/Anna/)
    expect(second.summary).toMatch(/Munich/)
  })

  it('a submission that changes nothing visible is done, and leaves no update_log entry', async () => {
    expect((await api.post('quiet', { data: 'My name is Quentin and I live in Lyon.' })).status).toBe(202)
    const first = await api.waitReady('quiet')
    expect(first.update_log).toHaveLength(1)
    const before = await svc.profiler.db.dataSource.query(`SELECT history_seq FROM profiles WHERE profile_id = 'quiet'`)
    expect((await api.post('quiet', { data: 'Hmm, ok.' })).status).toBe(202)
    const second = await api.waitReady('quiet')
    expect(second.update_log).toEqual(first.update_log)
    expect(second.core_info).toEqual(first.core_info)
    const rows = await svc.profiler.db.dataSource.query(
      `SELECT status, count(*)::int AS n FROM submissions WHERE profile_id = 'quiet' GROUP BY status`,
    )
    expect(rows).toEqual([{ status: 'done', n: 2 }])
    const after = await svc.profiler.db.dataSource.query(`SELECT history_seq FROM profiles WHERE profile_id = 'quiet'`)
    expect(after).toEqual(before)
    // The next change is logged with the next sequence number.
    expect((await api.post('quiet', { data: 'I moved to Nantes.' })).status).toBe(202)
    const third = await api.waitReady('quiet')
    expect(third.update_log).toHaveLength(2)
    expect(third.update_log[1].changes.replaced['core_info.location'].value).toBe('Lyon')
  })

  it('the same submission POSTed again with the same Idempotency-Key changes nothing', async () => {
    const body = { data: 'I am a nurse and I love gardening.' }
    const r1 = await api.post('idem', body, { 'idempotency-key': 'same-key-1' })
    expect(r1.status).toBe(202)
    const a1 = await r1.json()
    const before = await api.waitReady('idem')
    const r2 = await api.post('idem', body, { 'idempotency-key': 'same-key-1' })
    expect(r2.status).toBe(202)
    expect(await r2.json()).toEqual(a1)
    expect(r2.headers.get('location')).toBe('/v1/profile/idem')
    // A window for a second processing, which must not happen.
    await sleep(1500)
    const after = await api.profile('idem')
    expect(after.status).toBe('ready')
    expect(after.update_log).toHaveLength(1)
    expect(after.last_updated).toBe(before.last_updated)
    expect(after).toEqual(before)
    const [{ n }] = await svc.profiler.db.dataSource.query(
      `SELECT count(*)::int AS n FROM submissions WHERE profile_id = 'idem'`,
    )
    expect(n).toBe(1)
  })

  it('20 concurrent POSTs to one id: all 20 facts land, status ready, none applied twice', async () => {
    const words = [
      'archery',
      'baking',
      'canoeing',
      'darts',
      'embroidery',
      'fencing',
      'gardening',
      'hiking',
      'ice skating',
      'juggling',
      'kayaking',
      'knitting',
      'lacrosse',
      'mountaineering',
      'origami',
      'pottery',
      'quilting',
      'rowing',
      'sailing',
      'tennis',
    ]
    const acks = await Promise.all(
      words.map((w) =>
        api.post('burst', { input_type: 'structured', data: JSON.stringify({ interests: { hobbies: [w] } }) }),
      ),
    )
    expect(acks.map((r) => r.status)).toEqual(words.map(() => 202))
    const ids = await Promise.all(acks.map(async (r) => ((await r.json()) as any).id))
    expect(new Set(ids).size).toBe(20)
    const p = await api.waitReady('burst', 60_000)
    const hobbies = p.interests.hobbies.map((v: any) => v.value).sort()
    expect(hobbies).toEqual([...words].sort())
    for (const v of p.interests.hobbies) expect(v.confidence).toBe(1)
    const logged = p.update_log.flatMap((e: any) => e.submission_ids)
    expect(logged.sort()).toEqual([...ids].sort())
    const rows = await svc.profiler.db.dataSource.query(
      `SELECT status, count(*)::int AS n FROM submissions WHERE profile_id = 'burst' GROUP BY status`,
    )
    expect(rows).toEqual([{ status: 'done', n: 20 }])
  })

  it('a conversation counts only the profiled person turns', async () => {
    const data =
      'Lena: Hi! I live in Hamburg and I love sailing.\nBot: Nice. I live in Paris and I love opera.\n' +
      'Lena: I work as a pharmacist.'
    expect((await api.post('lena', { data, input_type: 'conversation' })).status).toBe(202)
    const p = await api.waitReady('lena')
    expect(p.core_info.location.value).toBe('Hamburg')
    const values = Object.values(p.interests)
      .flat()
      .map((v: any) => v.value.toLowerCase())
    expect(values).toContain('sailing')
    expect(values).not.toContain('opera')
  })

  it('takes none of the facts the person tells about others as theirs, in a text and in a conversation', async () => {
    const data =
      'My sister lives in Oslo and loves skiing, but I live in Bergen. My boss is a vegan. ' +
      'My friend said "I work as a pilot and I love opera." In the book the hero loves jazz. ' +
      'I used to live in Chicago. I work as a nurse.'
    expect((await api.post('told-text', { data })).status).toBe(202)
    const conversation = JSON.stringify([
      { role: 'user', content: 'My husband works as a pilot and loves golf. I teach math.' },
      { role: 'assistant', content: 'I live in Paris and I love opera. Do you live in Ohio?' },
      {
        role: 'user',
        content: 'No, I live in Bergen. He told me "I am from Rome." If I were rich I would move there.',
      },
    ])
    expect((await api.post('told-chat', { data: conversation, input_type: 'conversation' })).status).toBe(202)
    const interestsOf = (p: any) =>
      Object.values(p.interests ?? {})
        .flat()
        .map((v: any) => v.value.toLowerCase())
    // no value of any section names what belongs to someone else
    const othersFacts = /oslo|skiing|vegan|pilot|opera|jazz|golf|paris|ohio|rome/i
    // a memory may name them: "their sister lives in Oslo and loves skiing" is a standing fact about the sister
    const ownMemories = (p: any) => p.memories.filter((m: any) => !/^their /.test(m.event))
    const sections = (p: any) =>
      JSON.stringify([p.core_info, p.interests, p.personality, p.preferences, ownMemories(p)])
    const text = await api.waitReady('told-text')
    expect(text.core_info.location.value).toBe('Bergen')
    expect(text.core_info.occupation.value).toBe('nurse')
    expect(interestsOf(text)).toEqual([])
    expect(sections(text)).not.toMatch(othersFacts)
    const chat = await api.waitReady('told-chat')
    expect(chat.core_info.location.value).toBe('Bergen')
    expect(chat.core_info.occupation.value).toBe('math teacher')
    expect(interestsOf(chat)).toEqual([])
    expect(sections(chat)).not.toMatch(othersFacts)
  })

  it('structured data is taken as given; bare values get confidence 1', async () => {
    const data = JSON.stringify({
      core_info: { name: 'Kofi', age: 41, location: { value: 'Accra', confidence: 0.7 } },
      interests: { music: ['highlife'] },
    })
    expect((await api.post('kofi', { data, input_type: 'structured' })).status).toBe(202)
    const p = await api.waitReady('kofi')
    expect(p.core_info.name).toEqual({ value: 'Kofi', confidence: 1 })
    expect(p.core_info.age).toEqual({ value: 41, confidence: 1 })
    expect(p.core_info.location).toEqual({ value: 'Accra', confidence: 0.7 })
    expect(p.interests.music).toEqual([{ value: 'highlife', confidence: 1 }])
    expect(p.update_log[0].input_type).toBe('structured')
  })

  it('tenant isolation: another tenant gets 404 and never sees the profile in search', async () => {
    const other = await svc.profiler.services.tenants.createApp('tenant-b', 'app')
    const b = client(svc.url, other.api_key)
    expect((await api.post('secret', { data: 'My name is Zora and I love astronomy.' })).status).toBe(202)
    await api.waitReady('secret')
    expect((await b.get('/v1/profile/secret')).status).toBe(404)
    expect((await b.del('secret')).status).toBe(404)
    const listing = await b.search({ pageSize: 100 })
    expect(listing.total).toBe(0)
    const semantic = await b.search({ query: 'astronomy', sensitivity: 0 })
    expect(semantic.profiles).toEqual([])
    const filtered = await b.search({ filterBy: 'id', filterValue: 'secret' })
    expect(filtered.total).toBe(0)
    // The same id in tenant B is a different profile.
    expect((await b.post('secret', { data: 'My name is Bo.' })).status).toBe(202)
    const bp = await b.waitReady('secret')
    expect(bp.core_info.name.value).toBe('Bo')
    expect(bp.tenant_id).toBe(other.tenant_id)
    const ap = await api.profile('secret')
    expect(ap.core_info.name.value).toBe('Zora')
    expect(ap.tenant_id).not.toBe(other.tenant_id)
  })

  it('DELETE removes the profile, its history and submissions', async () => {
    expect((await api.post('gone', { data: 'I love jazz.' })).status).toBe(202)
    await api.waitReady('gone')
    const del = await api.del('gone')
    expect(del.status).toBe(204)
    expect(await del.text()).toBe('')
    expect((await api.get('/v1/profile/gone')).status).toBe(404)
    const ds = svc.profiler.db.dataSource
    for (const t of ['submissions', 'profile_history']) {
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM ${t} WHERE profile_id = 'gone'`)
      expect(n).toBe(0)
    }
  })
})

describe('processing: delete wins over a submission in flight', () => {
  let svc: TestService
  let api: Client
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_EXTRACT_DELAY_MS: '1500' } })
    api = client(svc.url, svc.key)
  })
  afterAll(async () => svc?.close())

  it('DELETE while a submission is being processed: the profile stays deleted', async () => {
    expect((await api.post('doomed', { data: 'My name is Ivo and I love rowing.' })).status).toBe(202)
    const ds = svc.profiler.db.dataSource
    await waitFor(
      'the submission of doomed to be processing',
      async () => (await ds.query(`SELECT status FROM submissions WHERE profile_id = 'doomed'`))[0]?.status,
      {
        until: (status) => status === 'processing',
      },
    )
    const [row] = await ds.query(`SELECT status FROM submissions WHERE profile_id = 'doomed'`)
    expect(row.status).toBe('processing')
    expect((await api.del('doomed')).status).toBe(204)
    // The extraction finishes and tries to apply: its round has ended once the job it took is no longer active.
    await waitFor(
      'the end of the round that took doomed (its active jobs)',
      async () =>
        (
          await ds.query(
            `SELECT count(*)::int AS n FROM pgboss.job
  WHERE name = $1 AND state = 'active' AND data->>'profileId' = 'doomed'`,
            [PROCESS_QUEUE],
          )
        )[0].n,
      { until: (n) => n === 0 },
    )
    expect((await api.get('/v1/profile/doomed')).status).toBe(404)
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM profiles WHERE profile_id = 'doomed'`)
    expect(n).toBe(0)
    // A new POST after the delete starts a fresh profile.
    expect((await api.post('doomed', { data: 'My name is Ivo.' })).status).toBe(202)
    const p = await api.waitReady('doomed')
    expect(p.update_log).toHaveLength(1)
    expect(p.interests).toEqual({})
  })
})
