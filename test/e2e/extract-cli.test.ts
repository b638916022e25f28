import { spawn } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { RULE_LIST, ruleDescription } from '../../src/ai/local/rules.js'
import { profilerArgs } from '../support/cli.js'

const root = path.resolve(import.meta.dirname, '../..')
/** Each CLI call is a process with its own 60 s bound (see cli.test.ts); a test of n calls gets n times that. */
const perCalls = (n: number) => n * 60_000

/** Runs `profiler extract …` as a process, with `stdin` written to it (or nothing, closed). */
function extract(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, profilerArgs('extract', ...args), {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`profiler extract ${args.join(' ')} took over 60 s:\n${stdout}${stderr}`))
    }, 60_000)
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.once('error', reject)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.stdin.on('error', () => undefined) // EPIPE: the command may refuse its input before reading all of it
    child.stdin.end(stdin)
  })
}

/** As `extract`, expecting success: its standard output. */
async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await extract(args, stdin)
  expect(r.code, r.stderr).toBe(0)
  return r.stdout
}

const TEXT =
  "Hi, I'm Rosa and I'm 38. I live in Valencia and I work as a pharmacist. " +
  "I love salsa dancing. Don't talk about politics with me."

/** `profiler extract`: a real process, no database, no service. */
describe('profiler extract (real processes)', () => {
  it(
    'prints what the in-process extractor finds, with --explain the rule of each value and the text it matched',
    async () => {
      const expected = new LocalExtractor().explainOne({ inputType: 'text', data: TEXT })
      const out = JSON.parse(await ok(['--json', '--explain', TEXT]))
      expect(out.extraction).toEqual(expected.extraction)
      expect(out.trace).toEqual(
        expected.trace.map((v) => ({
          ...v,
          hits: v.hits.map((h) => ({ ...h, description: ruleDescription(h.rule) })),
        })),
      )

      const text = await ok(['--explain', TEXT])
      for (const v of expected.trace) {
        expect(text).toContain(`${v.field}: ${v.value}`)
        for (const h of v.hits) {
          expect(text).toContain(
            `${h.rule}${h.confidence === undefined ? '' : ` (${h.confidence})`}: ${ruleDescription(h.rule)}`,
          )
          if (h.match) expect(text).toContain(`matched ${JSON.stringify(h.match)}`)
        }
      }
      expect(text).toMatch(
        /core_info\.location: Valencia \(0\.9\)\n {2}location\.live-in \(0\.9\): .*\n {4}matched "i live in valencia"/,
      )
    },
    perCalls(2),
  )

  it(
    'reads standard input; without --explain prints the values only',
    async () => {
      const out = await ok([], `${TEXT}\n`)
      expect(out).toContain('core_info.name: Rosa (')
      expect(out).toContain('preferences.topics_to_avoid: politics (')
      expect(out).not.toMatch(/location\.live-in|matched/)
    },
    perCalls(1),
  )

  it(
    "refuses standard input over the API's bound on data (PROFILER_MAX_DATA_BYTES) without reading it all",
    async () => {
      const r = await extract([], 'I live in Oslo. '.repeat(7000)) // 112,000 bytes
      expect(r.code).toBe(1)
      expect(r.stderr).toBe('profiler: the text on standard input (PROFILER_MAX_DATA_BYTES) is over 102400 bytes\n')
      expect(r.stdout).toBe('')
    },
    perCalls(1),
  )

  it(
    'reads a conversation like the API: only the profiled person, and a malformed one is refused',
    async () => {
      const conv = await ok([
        '--input-type',
        'conversation',
        '--explain',
        'Ann: I love jazz\nBot: I love rock\nAnn: I am a nurse',
      ])
      expect(conv).toMatch(/interests\.music: jazz \(0\.9\)\n {2}interest\.love/)
      expect(conv).toMatch(/core_info\.occupation: nurse .*\n {2}occupation\.i-am-a/)
      expect(conv).not.toContain('rock')

      const bad = await extract(['--input-type', 'conversation', 'just some words'])
      expect(bad.code).toBe(1)
      expect(bad.stderr).toMatch(/^profiler: data: /)
    },
    perCalls(2),
  )

  it(
    'takes structured input as given, and lists the rule registry',
    async () => {
      const s = await ok([
        '--input-type',
        'structured',
        '--explain',
        '{"core_info": {"age": 40}, "interests": {"music": ["jazz"]}}',
      ])
      expect(s).toContain('core_info.age: 40 (1)\n  (given in the structured input; no rule involved)')

      expect(JSON.parse(await ok(['--list-rules', '--json']))).toEqual(RULE_LIST)
      const lines = (await ok(['--list-rules'])).split('\n')
      for (const r of RULE_LIST)
        expect(
          lines.some((l) => l.startsWith(`${r.id} `) && l.endsWith(`  ${r.description}`)),
          r.id,
        ).toBe(true)
    },
    perCalls(3),
  )
})
