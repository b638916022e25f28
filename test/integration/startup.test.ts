import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite, type Extensions } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { vector } from '@electric-sql/pglite-pgvector'
import { afterAll, describe, expect, it } from 'vitest'
import { createAiProviders } from '../../src/ai/index.js'
import { startProfiler } from '../../src/app.js'
import { ConfigError, loadConfig } from '../../src/config.js'
import { PGliteServer } from '../../src/db/pglite-session.js'
import { startService, testConfig } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

describe('start-up checks', () => {
  const dirs: string[] = []
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

  /**
   * The error the service starts with on a PGlite server that has only `extensions`; `check` runs on that server after.
   */
  const startOn = async (extensions: Extensions, check: (err: any, db: PGlite) => Promise<void>) => {
    const db = await PGlite.create({ extensions })
    const server = new PGliteServer(db)
    const port = await server.start()
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-noextension-'))
    dirs.push(dataDir)
    try {
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        PORT: '0',
        PROFILER_DATA_DIR: dataDir,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
      })
      await check(
        await startProfiler(config, { role: 'all' }).then(
          () => null,
          (e) => e,
        ),
        db,
      )
    } finally {
      await server.stop()
      await db.close()
    }
  }

  it('a server without pgvector gets a one-line error that says how to install it', async () => {
    await startOn({}, async (err) => {
      expect(err?.message).toMatch(/no pgvector extension: install pgvector 0\.7\+/)
      expect(err?.message).not.toContain('\n')
    })
  })

  it('a server lacking a contrib extension (btree_gin): a one-line error saying how to install it', async () => {
    await startOn({ vector, pg_trgm }, async (err, db) => {
      expect(err?.message).toMatch(/no btree_gin extension: install PostgreSQL's contrib modules/)
      expect(err?.message).not.toContain('\n')
      // Nothing was migrated: the check comes first.
      expect((await db.query(`SELECT to_regclass('profiles') AS t`)).rows[0]).toEqual({ t: null })
    })
  })

  it('a new database takes the configured embedding model; with profiles embedded, a mismatch is refused', async () => {
    const local = createAiProviders(loadConfig({}))
    const other = Object.create(local.embedder, { dimension: { value: 1536 }, model: { value: 'another-model' } })
    // Empty database: the column is adapted to the configured model at start-up.
    const fresh = await startService({ ai: { ...local, embedder: other } })
    const [{ dim }] = await fresh.profiler.db.dataSource.query(
      `SELECT atttypmod AS dim FROM pg_attribute WHERE attrelid = 'profiles'::regclass AND attname = 'embedding'`,
    )
    expect(dim).toBe(1536)
    await fresh.close()
    // With embedded profiles, another dimension needs an explicit reindex.
    const svc = await startService()
    const r = await fetch(`${svc.url}/v1/profile/p`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
      body: '{"data":"I love jazz."}',
    })
    expect(r.status).toBe(202)
    await waitFor(
      'an embedded profile (profiles with an embedding)',
      async () =>
        (
          await svc.profiler.db.dataSource.query(`SELECT count(*)::int AS n FROM profiles WHERE embedding IS NOT NULL`)
        )[0].n,
      { until: (n) => n > 0, everyMs: 100 },
    )
    await svc.profiler.close()
    const err = await startProfiler(testConfig(svc.db), { role: 'all', ai: { ...local, embedder: other } }).then(
      async (p) => (await p.close(), null),
      (e) => e,
    )
    await svc.db.drop()
    expect(err?.message).toMatch(
      /stores 1024-dimensional embeddings but the embedding model another-model makes 1536.*profiler reindex/,
    )
  })

  it('invalid configuration fails fast and names the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError)
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/)
    expect(() => loadConfig({ PROFILER_AI: 'magic' })).toThrow(/PROFILER_AI/)
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/)
  })
})
