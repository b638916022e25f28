// N graphql-ws clients, each on a WebSocket of its own, subscribed to a tenant's profileStatusChanged (id omitted).
// For each profile that turns READY it prints one JSON line once every subscriber has it (or after 10 s): when each
// received it, relative to the profile's lastUpdated (the apply's transaction time on the database's clock).
// node --import tsx bench/lib/subscriber-fleet.ts <service url> <api key> <n>
import { connect } from '../../test/support/graphql-client.js'

const [base, key, nArg] = process.argv.slice(2) as [string, string, string]
const n = Number(nArg)
const seen = new Map<string, { lastUpdated: number; at: number[]; timer: NodeJS.Timeout }>()

function report(profileId: string) {
  const s = seen.get(profileId)!
  clearTimeout(s.timer)
  const lat = s.at.map((t) => t - s.lastUpdated).sort((a, b) => a - b)
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.ceil((p / 100) * lat.length) - 1)]!
  process.stdout.write(
    JSON.stringify({ profileId, received: lat.length, min: lat[0], p50: q(50), p99: q(99), max: lat.at(-1) }) + '\n',
  )
}

// The test suite's client (no retries; connected once acknowledged). Events are handled here as they come, not
// recorded: a fleet holds thousands of sockets.
const sockets = Array.from({ length: n }, () => connect(base, key))
Promise.all(sockets.map((s) => s.connected)).then(
  () => process.stdout.write('connected\n'),
  (e: Error) => process.stderr.write(`${e.message}\n`),
)
for (const { client } of sockets) {
  client.subscribe(
    { query: 'subscription { profileStatusChanged { profileId status profile { lastUpdated } } }' },
    {
      next: ({ data }) => {
        const e = (data as any)?.profileStatusChanged
        if (e?.status !== 'READY') return
        const now = Date.now()
        let s = seen.get(e.profileId)
        if (!s) {
          s = {
            lastUpdated: Date.parse(e.profile.lastUpdated),
            at: [],
            timer: setTimeout(() => report(e.profileId), 10_000),
          }
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
  await Promise.all(sockets.map((s) => s.close()))
  process.exit(0)
})
