// N graphql-ws clients, each on a WebSocket of its own, subscribed to a tenant's profileStatusChanged (id omitted).
// For each profile that turns READY it prints one JSON line once every subscriber has it (or after 10 s): when each
// received it, relative to the profile's lastUpdated (the apply's transaction time on the database's clock).
//   node --import tsx bench/lib/subscriber-fleet.ts <ws url> <api key> <n>
import { createClient } from 'graphql-ws'
import WebSocket from 'ws'

const [url, key, nArg] = process.argv.slice(2) as [string, string, string]
const n = Number(nArg)
const seen = new Map<string, { lastUpdated: number; at: number[]; timer: NodeJS.Timeout }>()

function report(profileId: string) {
  const s = seen.get(profileId)!
  clearTimeout(s.timer)
  const lat = s.at.map((t) => t - s.lastUpdated).sort((a, b) => a - b)
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.ceil((p / 100) * lat.length) - 1)]!
  process.stdout.write(JSON.stringify({ profileId, received: lat.length, min: lat[0], p50: q(50), p99: q(99), max: lat.at(-1) }) + '\n')
}

let acked = 0
const clients = Array.from({ length: n }, () =>
  createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    lazy: false,
    retryAttempts: 0,
    on: { connected: () => void (++acked === n && process.stdout.write('connected\n')) },
  }),
)
for (const c of clients) {
  c.subscribe(
    { query: 'subscription { profileStatusChanged { profileId status profile { lastUpdated } } }' },
    {
      next: ({ data }) => {
        const e = (data as any)?.profileStatusChanged
        if (e?.status !== 'READY') return
        const now = Date.now()
        let s = seen.get(e.profileId)
        if (!s) {
          s = { lastUpdated: Date.parse(e.profile.lastUpdated), at: [], timer: setTimeout(() => report(e.profileId), 10_000) }
          seen.set(e.profileId, s)
        }
        s.at.push(now)
        if (s.at.length === n) report(e.profileId)
      },
      error: (err) => process.stderr.write(`subscription error: ${JSON.stringify(err)}\n`),
      complete: () => undefined,
    },
  )
}
process.on('SIGTERM', async () => {
  await Promise.all(clients.map((c) => c.dispose()))
  process.exit(0)
})
