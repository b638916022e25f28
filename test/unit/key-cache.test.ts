import { describe, expect, it } from 'vitest'
import crypto from 'node:crypto'
import { credentialId } from '../../src/domain/keys.js'
import { KeyCache, KnownKeyIds } from '../../src/services/key-cache.js'

const A = { tenantId: 't1', appId: 'a1' }
const B = { tenantId: 't1', appId: 'a2' }

describe('credentialId', () => {
  it('is the SHA-256 digest of the credential in base64url, never the credential; nothing for no credential', () => {
    const key = 'pk_ABCDEFGHIJKL_abcdefghijklmnopqrstuvwxyz012345'
    expect(credentialId(key)).toBe(crypto.createHash('sha256').update(key, 'utf8').digest('base64url'))
    expect(credentialId('ünïcode')).toBe(crypto.createHash('sha256').update('ünïcode', 'utf8').digest('base64url'))
    expect(credentialId(key)).not.toContain('abcdefghij')
    expect(credentialId(undefined)).toBeUndefined()
    expect(credentialId('')).toBeUndefined()
  })
})

describe('KeyCache', () => {
  it('answers a stored key until its TTL, then forgets it', () => {
    let now = 0
    const c = new KeyCache(1000, 10, () => now)
    c.set('k1', A, c.begin())
    now = 1000
    expect(c.get('k1')).toMatchObject(A)
    now = 1001
    expect(c.get('k1')).toBeUndefined()
    expect(c.size).toBe(0)
  })

  it("forgetApp drops every key of that app and none of another's", () => {
    const c = new KeyCache()
    c.set('k1', A, c.begin())
    c.set('k2', A, c.begin())
    c.set('k3', B, c.begin())
    c.forgetApp('t1', 'a1')
    expect(c.get('k1')).toBeUndefined()
    expect(c.get('k2')).toBeUndefined()
    expect(c.get('k3')).toMatchObject(B)
  })

  it('a lookup begun before an invalidation does not refill the cache after it (revocation vs request)', () => {
    const c = new KeyCache()
    const began = c.begin() // a request reads the key row: still valid
    c.forgetApp('t1', 'a1') // the revocation commits and is announced meanwhile
    c.set('k1', A, began) // the request's result arrives late
    expect(c.get('k1')).toBeUndefined()
    const again = c.begin()
    c.clear()
    c.set('k2', B, again)
    expect(c.get('k2')).toBeUndefined()
    c.set('k2', B, c.begin())
    expect(c.get('k2')).toMatchObject(B)
  })

  it('holds at most `max` keys, dropping the least recently stored first', () => {
    const c = new KeyCache(60_000, 3)
    for (const k of ['k1', 'k2', 'k3']) c.set(k, A, c.begin())
    c.set('k1', A, c.begin()) // stored again: newest
    c.set('k4', A, c.begin())
    expect(c.size).toBe(3)
    expect(c.get('k2')).toBeUndefined()
    expect(['k1', 'k3', 'k4'].every((k) => c.get(k))).toBe(true)
  })
})

describe('StatusOrder', () => {
  it("admits a profile's events in rising seq only, per profile and tenant; events without seq always", async () => {
    const { StatusOrder } = await import('../../src/events/event-bus.js')
    const o = new StatusOrder(2)
    const e = (tenantId: string, profileId: string, seq?: number) => ({
      tenantId,
      profileId,
      status: 'ready' as const,
      at: '',
      seq,
    })
    expect(o.admit(e('t', 'a', 5))).toBe(true)
    expect(o.admit(e('t', 'a', 5))).toBe(false)
    expect(o.admit(e('t', 'a', 4))).toBe(false)
    expect(o.admit(e('u', 'a', 1))).toBe(true)
    expect(o.admit(e('t', 'a'))).toBe(true)
    expect(o.admit(e('t', 'a', 6))).toBe(true)
    // Bounded: a third profile pushes out the least recently delivered ('u'/'a').
    expect(o.admit(e('t', 'b', 1))).toBe(true)
    expect(o.admit(e('u', 'a', 1))).toBe(true)
  })
})

describe('KnownKeyIds', () => {
  /** A read of the api_keys table: the ids of the rows created since `since`, and the clock; counted. */
  function table() {
    const rows: { id: string; at: number }[] = []
    const reads: (number | undefined)[] = []
    let clock = 1_000_000
    return {
      rows,
      reads,
      insert: (id: string) => rows.push({ id, at: (clock += 1) }),
      read: async (since: Date | undefined) => {
        reads.push(since?.getTime())
        const ids = rows.filter((r) => since === undefined || r.at >= since.getTime()).map((r) => r.id)
        return { ids, now: new Date((clock += 1)) }
      },
    }
  }

  it('knows the ids read, and the ids it is told of, without reading again', async () => {
    const t = table()
    t.insert('AAAAAAAAAAAA')
    const known = new KnownKeyIds(t.read, 20)
    expect(await known.has('AAAAAAAAAAAA')).toBe(true)
    known.add('BBBBBBBBBBBB')
    expect(await known.has('BBBBBBBBBBBB')).toBe(true)
    expect(await known.has('AAAAAAAAAAAA')).toBe(true)
    expect(t.reads).toEqual([undefined])
  })

  it('an unknown id waits for a read begun after it was asked: a key made elsewhere just before is found', async () => {
    const t = table()
    const known = new KnownKeyIds(t.read, 20)
    expect(await known.has('AAAAAAAAAAAA')).toBe(false)
    t.insert('AAAAAAAAAAAA') // committed by another process after that read
    expect(await known.has('AAAAAAAAAAAA')).toBe(true)
    // The second read starts from the first one's clock, less the overlap: it reads only recent keys.
    expect(t.reads).toHaveLength(2)
    expect(t.reads[1]).toBeLessThan(1_000_002)
  })

  it('a flood of made-up ids shares reads: at most one per interval, however many ask', async () => {
    const t = table()
    const known = new KnownKeyIds(t.read, 50)
    const started = Date.now()
    const answers = await Promise.all(Array.from({ length: 500 }, (_, i) => known.has(`made-up-${i}`)))
    expect(answers.every((a) => a === false)).toBe(true)
    const elapsed = Date.now() - started
    expect(t.reads.length).toBeLessThanOrEqual(2 + Math.ceil(elapsed / 50))
  })
})
