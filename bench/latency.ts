// POST -> ready latency on an idle service, as a client sees it: subscribed to the profile's status over graphql-ws, it
// POSTs one short chat message and waits for READY. Samples one at a time with a pause between (an idle service), for
// the embedded database (profiler start) and the server (profiler start, and an API process with a worker process, so
// the wake-up crosses processes). Beside it, the same AI work for one message alone, with no database (the floor).
// npx tsx bench/latency.ts [--db server|embedded|both] [--samples 40]
import { createClient } from 'graphql-ws'
import WebSocket from 'ws'
import { freshDb, spawnTs, startService, type DbKind, type Service } from './lib/env.js'
import { percentile, round } from './lib/load.js'
import { MESSAGES, post } from './lib/seed.js'
import { arg, benchMain, type BenchResult, type ResultRow } from './lib/report.js'

async function sample(api: Service, n: number, prefix: string): Promise<number[]> {
  const ws = createClient({
    url: `${api.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${api.key}` },
  })
  const out: number[] = []
  try {
    for (let i = -3; i < n; i++) {
      const id = `${prefix}${i + 3}`
      const ready = new Promise<number>((resolve, reject) => {
        const stop = ws.subscribe(
          { query: `subscription($id: ID) { profileStatusChanged(id: $id) { status } }`, variables: { id } },
          {
            next: ({ data }) => {
              if ((data as any)?.profileStatusChanged?.status === 'READY') {
                stop()
                resolve(performance.now())
              }
            },
            error: reject,
            complete: () => undefined,
          },
        )
      })
      // Give the subscription a moment to be registered (it is on an idle socket), then pause like an idle service.
      await new Promise((r) => setTimeout(r, 300))
      const t0 = performance.now()
      await post(api.url, api.key, id, MESSAGES[(i + 3) % MESSAGES.length]!)
      const t1 = await ready
      if (i >= 0) out.push(t1 - t0) // the first three warm up
    }
  } finally {
    await ws.dispose()
  }
  return out
}

async function floor(): Promise<number> {
  const p = spawnTs('bench/lib/pipeline-ceiling.ts', ['50', '--one-at-a-time'], {})
  const code = await new Promise<number | null>((r) => p.child.once('exit', r))
  const m = p.output().match(/ms each: ([\d.]+)/)
  if (code !== 0 || !m) throw new Error(`pipeline floor failed:\n${p.output()}`)
  return Number(m[1])
}

export async function runLatency(kind: DbKind, opts: { samples: number }): Promise<BenchResult> {
  const one = await floor()
  const setups: { label: string; roles: ('start' | 'serve' | 'worker')[] }[] =
    kind === 'embedded'
      ? [{ label: 'profiler start', roles: ['start'] }]
      : [
          { label: 'profiler start', roles: ['start'] },
          { label: 'serve + worker processes', roles: ['serve', 'worker'] },
        ]
  const rows: ResultRow[] = []
  const bars = [{ label: 'AI work for one message alone (floor)', value: round(one, 1), baseline: true }]
  const raw: Record<string, number[]> = {}
  for (const s of setups) {
    const db = await freshDb(kind)
    const procs: Service[] = []
    try {
      for (const role of s.roles) procs.push(await startService(db, role))
      const api = procs[0]!
      const times = await sample(api, opts.samples, 'lat')
      raw[s.label] = times
      const p50 = percentile(times, 50)
      const p95 = percentile(times, 95)
      process.stderr.write(
        `  ${kind}, ${s.label}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms\n`,
      )
      rows.push({
        what: `POST -> READY over graphql-ws, idle service, ${s.label}`,
        value: round(p50, 1),
        unit: 'ms p50',
        target: 'p50 < 150 ms',
        met: p50 < 150,
        figures: `p95 ${round(p95, 1)} ms, max ${round(Math.max(...times), 1)} ms over ${times.length} samples; the AI work alone takes ${round(one, 1)} ms`,
      })
      bars.push({ label: s.label, value: round(p50, 1), baseline: false })
    } finally {
      for (const p of procs.reverse()) await p.stop().catch(() => undefined)
      await db.drop()
    }
  }
  return {
    name: 'latency',
    db: kind,
    rows,
    raw,
    chart: { title: `POST -> READY, p50, ${kind} database`, unit: 'ms', bars },
  }
}

await benchMain(import.meta.url, 'latency', (kind) => runLatency(kind, { samples: Number(arg('samples', '40')) }))
