// Fan-out of status events: N subscribers (each a graphql-ws client on a WebSocket of its own, in a process of its
// own) follow one tenant's profileStatusChanged; profiles are submitted one at a time, and for each READY the time from
// the profile's apply (its lastUpdated) to each subscriber's receipt is measured. Side by side: the same with one
// subscriber. The per-key caps on sockets and subscriptions (20 each by default) are raised for the run.
// npx tsx bench/subscriptions.ts [--db server|embedded|both] [--subscribers 1000] [--events 20]
import { waitFor } from '../test/support/wait.js'
import { freshDb, spawnTs, startService, type DbKind, type Proc, type Service } from './lib/env.js'
import { median, round } from './lib/load.js'
import { MESSAGES, post } from './lib/seed.js'
import { arg, benchMain, type BenchResult } from './lib/report.js'

interface Delivery {
  profileId: string
  received: number
  min: number
  p50: number
  p99: number
  max: number
}

async function fanOut(kind: DbKind, subscribers: number, events: number): Promise<Delivery[]> {
  const db = await freshDb(kind)
  const procs: Service[] = []
  let fleet: Proc | undefined
  try {
    const env = { PROFILER_WS_MAX_SOCKETS: '10000', PROFILER_WS_MAX_SUBSCRIPTIONS: '10000' }
    // Embedded: one process; server: an API process and a worker process (the event crosses them by NOTIFY).
    for (const role of kind === 'embedded' ? (['start'] as const) : (['serve', 'worker'] as const))
      procs.push(await startService(db, role, env))
    const api = procs[0]!
    fleet = spawnTs('bench/lib/subscriber-fleet.ts', [api.url, api.key, String(subscribers)], {})
    await waitFor(`${subscribers} sockets`, () => fleet!.output().includes('connected'), { timeoutMs: 120_000 })
    const lines = () =>
      fleet!
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Delivery)
    // A first profile proves every subscription is live (a subscription is registered a moment after its socket).
    for (let i = 0; ; i++) {
      await post(api.url, api.key, `probe${i}`, 'I live in Oslo.')
      const d = await waitFor('the probe event', () => lines().find((l) => l.profileId === `probe${i}`), {
        timeoutMs: 60_000,
      })
      if (d.received === subscribers) break
      if (i > 20) throw new Error(`only ${d.received} of ${subscribers} subscribers receive events`)
    }
    const out: Delivery[] = []
    for (let i = 0; i < events; i++) {
      const id = `ev${i}`
      await post(api.url, api.key, id, MESSAGES[i % MESSAGES.length]!)
      out.push(
        await waitFor(`READY of ${id} at every subscriber`, () => lines().find((l) => l.profileId === id), {
          timeoutMs: 60_000,
        }),
      )
    }
    return out
  } finally {
    await fleet?.stop()
    for (const p of procs.reverse()) await p.stop().catch(() => undefined)
    await db.drop()
  }
}

export async function runSubscriptions(kind: DbKind, o: { subscribers: number; events: number }): Promise<BenchResult> {
  const one = await fanOut(kind, 1, o.events)
  const many = await fanOut(kind, o.subscribers, o.events)
  const worst = (ds: Delivery[]) => Math.max(...ds.map((d) => d.max))
  const all = many.every((d) => d.received === o.subscribers)
  const p99s = many.map((d) => d.p99)
  process.stderr.write(
    `  ${kind}: 1 subscriber: median ${round(median(one.map((d) => d.max)), 1)} ms; ${o.subscribers}: median of last receipts ${round(median(many.map((d) => d.max)), 1)} ms, worst ${round(worst(many), 1)} ms\n`,
  )
  return {
    name: 'subscriptions',
    db: kind,
    rows: [
      {
        what: `${o.subscribers} subscribers of one tenant, ${o.events} READY events: every subscriber's receipt after the apply`,
        value: round(worst(many), 1),
        unit: 'ms (worst)',
        target: 'each within 1,000 ms',
        met: all && worst(many) <= 1000,
        figures: `per event: median p99 ${round(median(p99s), 1)} ms, median of the last receipt ${round(median(many.map((d) => d.max)), 1)} ms; every event reached all ${o.subscribers}: ${all ? 'yes' : 'no'}; one subscriber: median ${round(median(one.map((d) => d.max)), 1)} ms`,
      },
    ],
    raw: { one, many },
    chart: {
      title: `Status event fan-out, ${kind} database (time from the apply to receipt)`,
      unit: 'ms',
      bars: [
        { label: '1 subscriber, median', value: round(median(one.map((d) => d.max)), 1), baseline: true },
        { label: `${o.subscribers} subscribers, median of p50`, value: round(median(many.map((d) => d.p50)), 1) },
        { label: `${o.subscribers} subscribers, median of last`, value: round(median(many.map((d) => d.max)), 1) },
        { label: `${o.subscribers} subscribers, worst last`, value: round(worst(many), 1) },
      ],
    },
  }
}

await benchMain(import.meta.url, 'subscriptions', (kind) =>
  runSubscriptions(kind, { subscribers: Number(arg('subscribers', '1000')), events: Number(arg('events', '20')) }),
)
