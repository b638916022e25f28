// `profiler export`, `profiler import` and `profiler app retention` as shipped (real processes, no service running):
// a file imported into one tenant, exported again, and restored into another, twice.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshDatabase, testEnv, type TestDatabase } from '../support/harness.js'
import { profilerArgs, ROOT } from '../support/cli.js'
import { importRecords, jsonLines } from '../support/import-file.js'

const run = promisify(execFile)

describe('CLI export and import (real processes)', () => {
  let db: TestDatabase
  let env: Record<string, string>
  const cli = (...args: string[]) =>
    run(process.execPath, profilerArgs(...args), { cwd: ROOT, env: { ...process.env, ...env }, timeout: 90_000 })

  beforeAll(async () => {
    db = await freshDatabase()
    env = testEnv(db, { LOG_LEVEL: 'warn', PROFILER_BOOTSTRAP: 'false' })
  })
  afterAll(async () => db?.drop())

  it(
    'imports, exports and restores into another tenant, idempotently, with progress on stderr',
    async () => {
      const at = '2025-01-02T03:04:05.000Z'
      const ids = ['ann', 'ben@example.com', 'cat:3']
      const sailing = { sports: [{ value: 'sailing', confidence: 0.7 }] }
      const profiles = ids.map((id) => ({
        id,
        fields: {
          summary: `${id} likes sailing.`,
          core_info: { name: { value: `Name ${id}`, confidence: 0.9 } },
          interests: sailing,
          field_timestamps: { core_info: at },
          internals: { mood_counts: {}, seen: { 'core_info.name': 1 } },
        },
        history: [{ changes: { interests: sailing }, input_type: 'text' }],
        texts: [`I am ${id} and I like sailing.`],
      }))
      const records: any[] = importRecords(profiles, { at, tenant: 'x' })
      const input = path.join(db.dataDir, 'in.jsonl')
      fs.writeFileSync(input, jsonLines(records))

      await cli('tenant', 'create', 'src')
      const first = await cli('import', input, '--tenant', 'src', '--json')
      expect(JSON.parse(first.stdout)).toMatchObject({
        profiles: 3,
        history: 3,
        submissions: 3,
        submissions_kept: 0,
        embedded: 3,
      })
      expect(first.stderr).toMatch(/^import: 0\/3 profiles \(0%/m) // not a terminal: plain lines
      expect(first.stderr).toMatch(/^import: 3\/3 profiles \(100%/m)

      const out = path.join(db.dataDir, 'out.jsonl')
      const exported = await cli('export', '--tenant', 'src', '--out', out, '--include-text', '--json')
      expect(JSON.parse(exported.stdout)).toMatchObject({ profiles: 3, history: 3, submissions: 3, file: out })
      const back = fs
        .readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      expect(back[0]).toMatchObject({ type: 'header', tenant: { name: 'src' }, include_text: true, profiles: 3 })
      // What went in comes out (the submissions' sequence numbers are the database's own; an export gives each
      // submission its event time, which is the acceptance time when none was given).
      // The file had no passages (an older export): the end record says so.
      const strip = (r: any) =>
        r.type === 'submission'
          ? { ...r, seq: 0, occurred_at: r.occurred_at ?? r.created_at }
          : r.type === 'end'
            ? { ...r, passages: r.passages ?? 0 }
            : r
      expect(back.slice(1).map(strip)).toEqual(records.slice(1).map(strip))

      await cli('tenant', 'create', 'dst')
      const restored = await cli('import', out, '--tenant', 'dst', '--json')
      expect(JSON.parse(restored.stdout)).toMatchObject({ profiles: 3, submissions: 3, embedded: 3 })
      const again = await cli('import', out, '--tenant', 'dst', '--json')
      expect(JSON.parse(again.stdout)).toMatchObject({ profiles: 3, submissions: 0, submissions_kept: 3 })

      // The reindex gives the imported submissions (of both tenants) the evidence passages the file did not carry,
      // embedded.
      const reindexed = await cli('reindex')
      expect(reindexed.stdout).toMatch(/Rebuilt 6 passages of 6 submissions; embedded 6 passages\./)
      const withPassages = await cli('export', '--tenant', 'dst', '--include-text', '--json')
      const lines = withPassages.stdout.trim().split('\n')
      expect(
        lines
          .filter((l) => l.startsWith('{"type":"passage"'))
          .map((l) => JSON.parse(l).text)
          .sort(),
      ).toEqual(ids.map((id) => `I am ${id} and I like sailing.`).sort())
      expect(JSON.parse(withPassages.stderr.slice(withPassages.stderr.indexOf('{')))).toMatchObject({ passages: 3 })

      // A file cut short: exit 1 with the line at fault.
      fs.writeFileSync(
        input,
        records
          .slice(0, -1)
          .map((r) => JSON.stringify(r))
          .join('\n') + '\n',
      )
      const cut = await cli('import', input, '--tenant', 'dst').then(
        () => null,
        (e) => e,
      )
      expect(cut?.code).toBe(1)
      expect(cut.stderr).toMatch(/profiler: Line 11: the file ends without its end record/)

      await cli('app', 'create', '--tenant', 'src', '--name', 'a')
      const policy = await cli(
        'app',
        'retention',
        '--tenant',
        'src',
        '--app',
        'a',
        '--delete-after-days',
        '30',
        '--drop-text-after-days',
        'off',
        '--json',
      )
      expect(JSON.parse(policy.stdout)).toMatchObject({
        name: 'a',
        delete_profiles_after_days: 30,
        drop_submission_text_after_days: null,
      })
    },
    15 * 90_000,
  )
})
