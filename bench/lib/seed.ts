// Realistic data for the benchmarks: profiles made by the real pipeline from short chat messages.
import { BURST, SEQUENTIAL, SINGLES } from '../messages.js'
import { waitFor } from '../../test/support/wait.js'

export const MESSAGES = [...SINGLES, ...BURST, ...SEQUENTIAL]

/** POST bodies (JSON strings) of the typical short chat messages, each made unique by the request counter. */
export const POST_BODIES = MESSAGES.map((m) => JSON.stringify({ data: `${m} ({i})` }))

export async function post(base: string, key: string, id: string, data: string): Promise<void> {
  const r = await fetch(`${base}/v1/profile/${encodeURIComponent(id)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  })
  if (r.status !== 202) throw new Error(`POST ${id}: ${r.status} ${await r.text()}`)
}

export async function status(base: string, key: string, id: string): Promise<string | undefined> {
  const r = await fetch(`${base}/v1/profile/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } })
  if (r.status === 404) return undefined
  return ((await r.json()) as { profile: { status: string } }).profile.status
}

/** `count` profiles `${prefix}0..`, each from `perProfile` messages, processed by a running worker. */
export async function seedProfiles(
  base: string,
  key: string,
  prefix: string,
  count: number,
  perProfile: number,
): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}${i}`)
  for (let round = 0; round < perProfile; round++) {
    await Promise.all(ids.map((id, i) => post(base, key, id, MESSAGES[(i * 7 + round) % MESSAGES.length]!)))
  }
  await waitFor(
    `${count} seeded profiles to be ready`,
    async () => (await Promise.all(ids.map((id) => status(base, key, id)))).every((s) => s === 'ready'),
    {
      timeoutMs: 600_000,
      everyMs: 250,
    },
  )
  return ids
}
