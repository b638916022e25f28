// One load run with autocannon, in a process of its own (so the load generator never shares an event loop with what
// it measures). Reads its spec as JSON from argv[2], prints the result as JSON on stdout.
import autocannon from 'autocannon'
import type { LoadSpec } from './load.js'

const spec = JSON.parse(process.argv[2]!) as LoadSpec
let n = spec.startAt ?? 0
const fill = (template: string, i: number) =>
  template.replaceAll('{i}', String(i)).replaceAll('{n}', String(i % (spec.ids ?? Number.MAX_SAFE_INTEGER)))

process.stdout.write('load: started\n')
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  ...(spec.rate ? { overallRate: spec.rate } : {}),
  timeout: 30,
  requests: [
    {
      method: spec.method,
      headers: spec.headers,
      setupRequest: (req: any) => {
        const i = n++
        req.path = fill(spec.paths ? spec.paths[i % spec.paths.length]! : spec.path, i)
        if (spec.bodies) req.body = fill(spec.bodies[i % spec.bodies.length]!, i)
        return req
      },
    },
  ],
})
process.stdout.write('load: finished\n')
const l = result.latency
process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.total / result.duration,
    seconds: result.duration,
    latency: { p50: l.p50, p90: l.p90, p99: l.p99, max: l.max, mean: l.average },
    statuses: { '2xx': result['2xx'], non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts },
    sent: n - (spec.startAt ?? 0),
  }) + '\n',
)
