// Child process for test/e2e/shutdown.test.ts: starts the whole service with many workers, processes some profiles,
// idles (the workers polling), closes it, and must then exit on its own (nothing left running). Prints "closed" once
// close() has returned.
import 'reflect-metadata'
import { startProfiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'

const profiler = await startProfiler(loadConfig(process.env), { role: 'all' })
const key = profiler.bootstrapKey!
const ids = Array.from({ length: 40 }, (_, i) => `p${i}`)
await Promise.all(
  ids.map((id) =>
    fetch(`${profiler.url}/v1/profile/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: `I am ${id}, a baker in Lyon. I love chess.` }),
    }),
  ),
)
for (;;) {
  const states = await Promise.all(
    ids.map(async (id) => ((await (await fetch(`${profiler.url}/v1/profile/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).profile?.status),
  )
  if (states.every((s) => s === 'ready')) break
  await new Promise((r) => setTimeout(r, 200))
}
// then idle for a while: every worker keeps polling for jobs, as a service between bursts does
await new Promise((r) => setTimeout(r, 3000))
await profiler.close()
process.stdout.write('closed\n')
