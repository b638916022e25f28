import { startProfiler } from './src/app.ts'
import { loadConfig } from './src/config.ts'
import fs from 'node:fs'
fs.rmSync('/tmp/dbgdata', { recursive: true, force: true })
const p = await startProfiler(loadConfig({ PORT: '0', LOG_LEVEL: 'debug', PROFILER_DATA_DIR: '/tmp/dbgdata' }), { role: 'all' })
const r = await fetch(`${p.url}/v1/profile/x`, { method: 'POST', headers: { authorization: `Bearer ${p.bootstrapKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ data: 'I love jazz' }) })
console.log(r.status, await r.text())
for (let i = 0; i < 6; i++) {
  await new Promise((r) => setTimeout(r, 1000))
  console.log(await p.db.dataSource.query(`select name, state, retry_count, output from pgboss.job`), await p.db.dataSource.query(`select status, attempts, error from submissions`))
}
await p.close()
