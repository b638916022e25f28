// Child process for test/e2e/shutdown.test.ts: starts the whole service with many workers, processes some profiles,
// idles (the workers polling), closes it, and must then exit on its own (nothing left running). Prints "closed" once
// close() has returned.
import 'reflect-metadata'
import { startProfiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { sleep, waitFor } from './wait.js'

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
await waitFor(
  'every profile to be ready (their statuses)',
  () =>
    Promise.all(
      ids.map(
        async (id) =>
          (
            (await (
              await fetch(`${profiler.url}/v1/profile/${id}`, { headers: { authorization: `Bearer ${key}` } })
            ).json()) as any
          ).profile?.status,
      ),
    ),
  { until: (states) => states.every((s) => s === 'ready'), timeoutMs: 90_000, everyMs: 200 },
)
// then idle for a while: every worker keeps polling for jobs, as a service between bursts does (a pause that is the
// point, not a wait)
await sleep(3000)
await profiler.close()
process.stdout.write('closed\n')
