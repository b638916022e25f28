// Worker throughput with the local extractor, against the same AI work done in one process with no database (the
// ceiling this machine allows), side by side in one run:
// - drain: N short chat messages queued (each to a profile of its own, the costliest case), then W worker processes
//     drain them; submissions/s, for W = 1 and 2;
//   - burst: while a worker runs, a burst of POSTs for --burst seconds at full speed (32 connections); how long the
//     backlog takes to drain after the burst, against how long the burst took to arrive.
//   npx tsx bench/worker.ts [--db server|embedded|both] [--n 3000] [--burst 30] [--workers 1,2]
import { waitFor } from '../test/support/wait.js'
import { freshDb, spawnTs, startService, withClient, type BenchDb, type DbKind } from './lib/env.js'
import { cpuDelta, cpuSnapshot } from './lib/cpu.js'
import { load, round } from './lib/load.js'
import { MESSAGES, POST_BODIES, post } from './lib/seed.js'
import { startOpenAIServer } from '../test/support/openai-server.js'
import { arg, benchMain, type BenchResult, type ResultRow } from './lib/report.js'

async function openCount(db: BenchDb): Promise<number> {
  return withClient(db.connectionString(), async (c) =>
    Number(
      (await c.query(`SELECT count(*)::int AS n FROM submissions WHERE status IN ('pending', 'processing')`)).rows[0].n,
    ),
  )
}

/** When the last submission was finished (ms since the epoch). */
async function lastFinished(db: BenchDb): Promise<number> {
  return withClient(db.connectionString(), async (c) =>
    Number(
      (await c.query(`SELECT (extract(epoch FROM max(finished_at)) * 1000)::float8 AS t FROM submissions`)).rows[0].t,
    ),
  )
}

async function failedCount(db: BenchDb): Promise<number> {
  return withClient(db.connectionString(), async (c) =>
    Number((await c.query(`SELECT count(*)::int AS n FROM submissions WHERE status = 'failed'`)).rows[0].n),
  )
}

/** Queues `n` messages through the API (each to its own profile) with 32 requests in flight. */
async function queue(base: string, key: string, prefix: string, n: number): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let i = next++; i < n; i = next++)
        await post(base, key, `${prefix}${i}`, `${MESSAGES[i % MESSAGES.length]} (${i})`)
    }),
  )
}

/**
 * The same AI work as the worker's (extract, merge, summarize, embed) for `n` messages in this process, no database.
 */
async function ceiling(n: number): Promise<number> {
  const p = spawnTs('bench/lib/pipeline-ceiling.ts', [String(n)], {})
  const code = await new Promise<number | null>((r) => p.child.once('exit', r))
  const m = p.output().match(/per second: ([\d.]+)/)
  if (code !== 0 || !m) throw new Error(`pipeline ceiling failed:\n${p.output()}`)
  return Number(m[1])
}

async function drain(
  kind: DbKind,
  n: number,
  workers: number,
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<{ perSecond: number; seconds: number; cpuMsPerSubmission: Record<string, number> }> {
  const db = await freshDb(kind)
  try {
    const api = await startService(db, 'serve', env)
    await queue(api.url, api.key, 'd', n)
    await api.stop()
    // Embedded: one process owns the database, so one worker; on a server, any number.
    const t0 = Date.now()
    const procs = await Promise.all(Array.from({ length: workers }, () => startService(db, 'worker', env, nodeArgs)))
    const groups = { worker: procs.map((p) => p.child.pid!), ...(db.backends ? { postgres: db.backends } : {}) }
    const before = cpuSnapshot(groups)
    const started = Date.now()
    // Polled twice a second (each poll counts the open submissions: ten a second took about a tenth of a core from
    // what is measured), and timed by the last submission's finished_at, so the poll's period does not blur the figure.
    await waitFor('the queue to drain (open submissions)', () => openCount(db), {
      until: (n) => n === 0,
      timeoutMs: 1_800_000,
      everyMs: 500,
    })
    const used = cpuDelta(before, cpuSnapshot(groups))
    const seconds = ((await lastFinished(db)) - started) / 1000
    const cpuMsPerSubmission = Object.fromEntries(Object.entries(used).map(([k, v]) => [k, round(v / n, 3)]))
    // Before the workers stop: on the embedded database the worker process is the one that serves it.
    const failed = await failedCount(db)
    for (const p of procs) await p.stop()
    if (failed) throw new Error(`${failed} submissions failed`)
    process.stderr.write(
      `  ${kind} drain: ${n} with ${workers} worker(s) in ${seconds.toFixed(1)} s (start-up ${((started - t0) / 1000).toFixed(1)} s), CPU ms per submission ${JSON.stringify(cpuMsPerSubmission)}\n`,
    )
    return { perSecond: n / seconds, seconds, cpuMsPerSubmission }
  } finally {
    await db.drop()
  }
}

async function burst(
  kind: DbKind,
  seconds: number,
  rate?: number,
): Promise<{ arrived: number; arrivalSeconds: number; drainSeconds: number; rps: number; backlog: number }> {
  const db = await freshDb(kind)
  const stops: (() => Promise<void>)[] = []
  try {
    // Embedded: API and worker in one process (PGlite has one owner); server: an API process and a worker process.
    const api = await startService(db, kind === 'embedded' ? 'start' : 'serve')
    stops.push(() => api.stop())
    if (kind === 'server') {
      const worker = await startService(db, 'worker')
      stops.push(() => worker.stop())
    }
    const auth = { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' }
    const t0 = Date.now()
    const r = await load({
      url: api.url,
      method: 'POST',
      path: '/v1/profile/burst{i}',
      headers: auth,
      bodies: POST_BODIES,
      connections: 32,
      seconds,
      rate,
    })
    const arrivalSeconds = (Date.now() - t0) / 1000
    const backlog = await openCount(db)
    const t1 = Date.now()
    await waitFor('the burst to drain (open submissions)', () => openCount(db), {
      until: (n) => n === 0,
      timeoutMs: 3_600_000,
      everyMs: 100,
    })
    const drainSeconds = (Date.now() - t1) / 1000
    process.stderr.write(
      `  ${kind} burst: ${r.requests} in ${r.seconds} s (${Math.round(r.rps)}/s), backlog ${backlog} at its end, drained ${drainSeconds.toFixed(1)} s later\n`,
    )
    return {
      arrived: r.requests,
      arrivalSeconds: Math.max(arrivalSeconds, r.seconds),
      drainSeconds,
      rps: r.rps,
      backlog,
    }
  } finally {
    for (const s of stops.reverse()) await s().catch(() => undefined)
    await db.drop()
  }
}

/**
 * Scale-out where the work waits on a model: the openai provider against the tests' local OpenAI-compatible server,
 * every chat request taking `latencyMs` (as a hosted model's does), 1 then 2 worker processes (server only).
 */
async function llmScaling(n: number, latencyMs: number): Promise<{ one: number; two: number }> {
  const fake = await startOpenAIServer({ chatLatencyMs: latencyMs })
  try {
    const env = {
      PROFILER_AI: 'openai',
      OPENAI_API_KEY: 'bench',
      PROFILER_OPENAI_BASE_URL: fake.url,
      PROFILER_EMBEDDING_MODEL: 'text-embedding-3-small',
    }
    const one = await drain('server', n, 1, [], env)
    const two = await drain('server', n, 2, [], env)
    return { one: one.perSecond, two: two.perSecond }
  } finally {
    await fake.close()
  }
}

export async function runWorker(
  kind: DbKind,
  opts: { n: number; burstSeconds: number; workers: number[]; scaling?: boolean },
): Promise<BenchResult> {
  const top = await ceiling(Math.min(opts.n, 2000))
  process.stderr.write(`  ceiling (AI work alone, one process, no database): ${Math.round(top)}/s\n`)
  const rows: ResultRow[] = []
  const bars = [{ label: 'AI work alone, no database (ceiling)', value: Math.round(top), baseline: true }]
  const counts = kind === 'embedded' ? [1] : opts.workers
  const drained: Record<number, number> = {}
  for (const w of counts) {
    const d = await drain(kind, opts.n, w)
    drained[w] = d.perSecond
    bars.push({ label: `${w} worker process${w > 1 ? 'es' : ''}`, value: Math.round(d.perSecond), baseline: false })
    const cpu = Object.values(d.cpuMsPerSubmission).reduce((a, b) => a + b, 0)
    const cpuText = `CPU per submission: ${Object.entries(d.cpuMsPerSubmission)
      .map(([k, v]) => `${k} ${v} ms`)
      .join(', ')}`
    rows.push(
      w === 1
        ? {
            what: `drain, 1 worker process (${opts.n} messages, a profile each)`,
            value: Math.round(d.perSecond),
            unit: 'submissions/s',
            target: '>= 200/s',
            met: d.perSecond >= 200,
            figures: `${d.seconds.toFixed(1)} s; ${round(d.perSecond / top)}x the ceiling; ${cpuText}`,
          }
        : {
            // With the local extractor the work is the machine's CPU: a second process on 2 cores adds no cores.
            what: `drain, ${w} worker processes, local extractor`,
            value: Math.round(d.perSecond),
            unit: 'submissions/s',
            target: '(context: CPU-bound)',
            met: true,
            figures: `${round(d.perSecond / drained[1]!)}x one process; ${cpuText}: ${round(cpu, 2)} ms of CPU each, at most ${Math.round(2000 / cpu)}/s on 2 cores`,
          },
    )
  }
  if (opts.scaling && kind === 'server') {
    const latencyMs = 200
    const sc = await llmScaling(400, latencyMs)
    process.stderr.write(
      `  server, model answering in ${latencyMs} ms: 1 worker ${sc.one.toFixed(1)}/s, 2 workers ${sc.two.toFixed(1)}/s\n`,
    )
    rows.push({
      what: `drain with a model answering in ${latencyMs} ms (openai provider, local server), 2 worker processes against 1`,
      ratio: round(sc.two / sc.one),
      target: 'scales with worker processes',
      met: sc.two / sc.one >= 1.6,
      figures: `${sc.one.toFixed(1)} -> ${sc.two.toFixed(1)} submissions/s (PROFILER_LLM_CONCURRENCY 4 per process)`,
    })
    bars.push(
      { label: `model at ${latencyMs} ms, 1 worker`, value: round(sc.one, 1), baseline: false },
      { label: `model at ${latencyMs} ms, 2 workers`, value: round(sc.two, 1), baseline: false },
    )
  }
  // Bursts at a steady rate, the worker running all along: the issue's measured burst (6,965 in 30 s, 232/s) is the
  // target; 300/s is context (on 2 cores the load generator, the API, PostgreSQL and the worker then need about all of
  // the machine: see the CPU per submission above); then one at the API's full speed.
  for (const rate of [232, 300]) {
    const paced = await burst(kind, opts.burstSeconds, rate)
    rows.push({
      what: `burst of ${opts.burstSeconds} s at ${rate}/s, the worker running: backlog left when it ends`,
      value: paced.backlog,
      unit: 'submissions',
      target: rate === 232 ? 'drained as fast as it arrives' : '(context)',
      met: rate === 232 ? paced.drainSeconds <= 1 : true,
      figures: `${paced.arrived} arrived at ${Math.round(paced.rps)}/s; the last drained ${round(paced.drainSeconds, 1)} s after the burst`,
    })
  }
  const b = await burst(kind, opts.burstSeconds)
  rows.push({
    what: `burst of ${opts.burstSeconds} s at the API's full speed (32 connections), drained after it ended in`,
    value: round(b.drainSeconds, 1),
    unit: 's',
    target: '(context)',
    met: true,
    figures: `${b.arrived} arrived at ${Math.round(b.rps)}/s, ${b.backlog} still queued at its end; the worker shares the 2 cores with the API under load`,
  })
  return {
    name: 'worker',
    db: kind,
    rows,
    raw: { ceiling: top, drained, burst: b },
    chart: {
      title: `Worker throughput, ${kind} database (local extractor, short chat messages)`,
      unit: 'submissions/s',
      bars,
    },
  }
}

export { drain }

await benchMain(import.meta.url, 'worker', (kind) =>
  runWorker(kind, {
    n: Number(arg('n', '3000')),
    burstSeconds: Number(arg('burst', '30')),
    workers: arg('workers', '1,2').split(',').map(Number),
    scaling: arg('scaling', 'yes') === 'yes',
  }),
)
