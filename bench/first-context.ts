// The first context after a start: `profiler start` on a database that already holds processed profiles, then, once
// /readyz answers, one context of the first profile. The baseline is the first context of each other profile in the
// same process: what a request pays for its profile (reading it, embedding its facts), without the start. The later
// contexts of the first profile, each a new question, are reported beside it: they also find that profile's facts
// embedded and counted. The machine's load moves all of them alike.
// npx tsx bench/first-context.ts [--db embedded|server|both] [--runs 5] [--later 5]
import { execFile, spawn } from 'node:child_process'
import os from 'node:os'
import { promisify } from 'node:util'
import { waitFor } from '../test/support/wait.js'
import { freePort, freshDb, SERVICE_ROOT, type BenchDb, type DbKind } from './lib/env.js'
import { median, round } from './lib/load.js'
import { arg, benchMain, type BenchResult } from './lib/report.js'

const run = promisify(execFile)
const BIN = 'bin/profiler.js'
/** The profiles seeded: the first is asked first after each start, the others give the baseline. */
const PROFILES = ['maria', 'joao', 'ines', 'tiago', 'rita'].map((name) => `first-context-${name}`)
const CITIES = ['Lisbon', 'Porto', 'Braga', 'Faro', 'Coimbra']
const JOBS = ['nurse', 'teacher', 'baker', 'electrician', 'architect']
const QUESTIONS = [
  'what does she like to cook',
  'how is her sister doing',
  'what music does she play',
  'any plans for the weekend',
  'how is the dog',
  'where did she travel last summer',
  'what does she do for work',
]

interface Service {
  url: string
  stop(): Promise<void>
}

function dbEnv(db: BenchDb): Record<string, string> {
  return { PROFILER_DATA_DIR: db.dataDir, LOG_LEVEL: 'warn', ...(db.url ? { DATABASE_URL: db.url } : {}) }
}

async function cli(db: BenchDb, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, ...args], {
    cwd: SERVICE_ROOT,
    env: { ...process.env, ...dbEnv(db) },
    timeout: 120_000,
  })
  return stdout
}

/** `profiler start` until /readyz answers 200. */
async function start(db: BenchDb): Promise<Service> {
  const port = await freePort()
  const child = spawn(process.execPath, [BIN, 'start'], {
    cwd: SERVICE_ROOT,
    env: { ...process.env, ...dbEnv(db), PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  await waitFor(
    'profiler start to be ready',
    async () => {
      if (child.exitCode !== null) throw new Error(`profiler start exited (${child.exitCode}):\n${stderr}`)
      return fetch(`${url}/readyz`).then(
        (r) => r.status === 200 || undefined,
        () => undefined,
      )
    },
    { timeoutMs: 120_000, everyMs: 20 },
  )
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** Profiles of a few conversations, processed, in a database the service is then started on again. */
async function seed(db: BenchDb, key: string): Promise<void> {
  const service = await start(db)
  try {
    for (const [index, profileId] of PROFILES.entries()) {
      const name = profileId.replace('first-context-', '')
      for (let day = 1; day <= 3; day++) {
        const data =
          `User: I am ${name}, a ${30 + index} year old ${JOBS[index]} from ${CITIES[index]}. On day ${day} I cooked ` +
          `pasta, walked my dog and called my sister about her new job.\nAssistant: That sounds like a full day.\n` +
          `User: I play jazz piano on weekends, and last summer I went hiking in the Alps.`
        const r = await fetch(`${service.url}/v1/profile/${profileId}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ data, input_type: 'conversation' }),
        })
        if (r.status !== 202) throw new Error(`submit answered ${r.status}: ${await r.text()}`)
      }
    }
    await waitFor(
      'the profiles to be ready',
      async () => {
        for (const profileId of PROFILES) {
          const r = await fetch(`${service.url}/v1/profile/${profileId}`, {
            headers: { authorization: `Bearer ${key}` },
          })
          const body = (await r.json()) as { profile?: { status?: string } }
          if (body.profile?.status !== 'ready') return undefined
        }
        return true
      },
      { timeoutMs: 120_000, everyMs: 100 },
    )
  } finally {
    await service.stop()
  }
}

/** Milliseconds one context takes, from request to full answer. */
async function timeContext(url: string, key: string, profileId: string, query: string): Promise<number> {
  const t0 = performance.now()
  const r = await fetch(`${url}/v1/profile/${profileId}/context?${new URLSearchParams({ query, max_tokens: '300' })}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  const body = await r.text()
  if (r.status !== 200) throw new Error(`context answered ${r.status}: ${body}`)
  return performance.now() - t0
}

export async function runFirstContext(kind: DbKind, opts: { runs: number; later: number }): Promise<BenchResult> {
  await run(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: SERVICE_ROOT })
  const db = await freshDb(kind)
  const first: number[] = []
  const otherProfiles: number[] = []
  const later: number[] = []
  const loads = [os.loadavg()[0]!.toFixed(1)]
  try {
    await cli(db, ['migrate'])
    const created = JSON.parse(await cli(db, ['app', 'create', '--tenant', 'bench', '--name', 'Bench', '--json']))
    const key = created.api_key as string
    await seed(db, key)
    for (let i = 0; i < opts.runs; i++) {
      const service = await start(db)
      try {
        // Each start asks another profile first, and each context another question.
        const profiles = PROFILES.map((_, j) => PROFILES[(i + j) % PROFILES.length]!)
        const questions = QUESTIONS.map((_, j) => QUESTIONS[(i + j) % QUESTIONS.length]!)
        first.push(await timeContext(service.url, key, profiles[0]!, questions[0]!))
        const others: number[] = []
        for (const profileId of profiles.slice(1))
          others.push(await timeContext(service.url, key, profileId, questions[0]!))
        otherProfiles.push(median(others))
        const these: number[] = []
        for (let j = 1; j <= opts.later; j++) {
          these.push(await timeContext(service.url, key, profiles[0]!, questions[j % questions.length]!))
        }
        later.push(median(these))
      } finally {
        await service.stop()
      }
      loads.push(os.loadavg()[0]!.toFixed(1))
    }
  } finally {
    await db.drop()
  }
  const ms = (xs: number[]) => xs.map((x) => round(x, 0)).join(', ')
  const firstMs = median(first)
  const otherMs = median(otherProfiles)
  const laterMs = median(later)
  const ratio = round(firstMs / otherMs, 1)
  const laterRatio = round(firstMs / laterMs, 1)
  const setting =
    `${opts.runs} starts, ${PROFILES.length - 1} other profiles and ${opts.later} later contexts each; load average ` +
    `${loads.join(' -> ')} on ${os.availableParallelism()} cores`
  const figures =
    `first ${round(firstMs, 0)} ms (${ms(first)}), other profiles' first ${round(otherMs, 0)} ms ` +
    `(medians per start: ${ms(otherProfiles)}); ${setting}`
  const laterFigures = `first ${round(firstMs, 0)} ms, later ${round(laterMs, 0)} ms (medians per start: ${ms(later)}); ${setting}`
  process.stderr.write(`  first context after start: ${figures}\n  later contexts: ${laterFigures}\n`)
  return {
    name: 'first-context',
    db: kind,
    rows: [
      {
        what: `first context after \`profiler start\` against other profiles' first contexts, ${kind} database`,
        ratio,
        target: '< 2x',
        met: ratio < 2,
        figures,
      },
      {
        what: `first context after \`profiler start\` against later ones of the same profile, ${kind} database`,
        ratio: laterRatio,
        target: 'reported',
        met: true,
        figures: laterFigures,
      },
    ],
    raw: { first, otherProfiles, later, loadAverage: loads },
    chart: {
      title: `The first context after start-up and the first of other profiles, ${kind} database (medians)`,
      unit: 'ms',
      bars: [
        { label: 'first context after start', value: round(firstMs, 0), baseline: false },
        { label: "other profiles' first", value: round(otherMs, 0), baseline: true },
        { label: 'later, same profile', value: round(laterMs, 0), baseline: true },
      ],
    },
  }
}

await benchMain(import.meta.url, 'first-context', (kind) =>
  runFirstContext(kind, { runs: Number(arg('runs', '5')), later: Number(arg('later', '5')) }),
)
