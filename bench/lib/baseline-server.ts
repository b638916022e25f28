// The baselines of the request-path benchmarks: bare Fastify routes on the same database with the same pool size as the
// service, and nothing else (no auth, no validation, no logging):
// POST /same-insert/:id   the service's own POST statement (profile, submission and job in one INSERT), prepared
// GET  /same-select/:id   the service's own GET statement (profile by key with its recent history), prepared
// POST /plain-insert/:id  one plain INSERT of the text into a table of its own
// GET  /plain-select/:id  one plain SELECT of a profile row by key
// POST /graphql           Apollo Server on Fastify (as the service mounts it) with the service's committed schema,
//                           whose profile(id) runs the same prepared SELECT: the floor of the chosen GraphQL stack
//   node --import tsx bench/lib/baseline-server.ts <connection string> <tenant id>
import crypto from 'node:crypto'
import fs from 'node:fs'
import { ApolloServer } from '@apollo/server'
import { fastifyApolloHandler } from '@as-integrations/fastify'
import Fastify from 'fastify'
import { buildSchema } from 'graphql'
import pg from 'pg'
import { PROFILE_WITH_HISTORY_SQL, toRecord } from '../../src/db/profile.repository.js'
import { toGqlProfile } from '../../src/graphql/serializers.js'
import { SUBMIT_SQL } from '../../src/services/submission.service.js'

const [url, tenant] = process.argv.slice(2) as [string, string]
const pool = new pg.Pool({ connectionString: url, max: 10 })
await pool.query(`CREATE TABLE IF NOT EXISTS bench_baseline (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), profile_id text NOT NULL,
  data text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`)

// Prepared per connection as the service does (on the embedded database all connections share one session, so names
// carry the connection's serial there).
const serial = new WeakMap<object, number>()
let next = 1
async function prepared(name: string, text: string, values: unknown[]) {
  const client = await pool.connect()
  try {
    if (!serial.has(client)) serial.set(client, next++)
    return (await client.query({ name: `bench_${name}_${serial.get(client)}`, text, values })).rows
  } finally {
    client.release()
  }
}

const app = Fastify({ logger: false })
app.post<{ Params: { id: string }; Body: { data: string } }>('/same-insert/:id', async (req, reply) => {
  const id = crypto.randomUUID()
  const profileId = req.params.id
  await prepared('submit', SUBMIT_SQL, [
    tenant,
    profileId,
    id,
    'text',
    req.body.data,
    null,
    id,
    null,
    null,
    null,
    JSON.stringify({ tenantId: tenant, profileId }),
    0,
  ])
  return reply.code(202).send({ id, message: 'Accepted for processing' })
})
app.get<{ Params: { id: string } }>('/same-select/:id', async (req, reply) => {
  const rows = await prepared('profile', PROFILE_WITH_HISTORY_SQL, [tenant, req.params.id])
  if (!rows.length) return reply.code(404).send({ error: 404 })
  return { profile_id: rows[0].profile_id, profile: rows[0] }
})
app.post<{ Params: { id: string }; Body: { data: string } }>('/plain-insert/:id', async (req, reply) => {
  const rows = await prepared(
    'plain_insert',
    `INSERT INTO bench_baseline (profile_id, data) VALUES ($1, $2) RETURNING id`,
    [req.params.id, req.body.data],
  )
  return reply.code(202).send({ id: rows[0].id, message: 'Accepted for processing' })
})
app.get<{ Params: { id: string } }>('/plain-select/:id', async (req, reply) => {
  const rows = await prepared(
    'plain_select',
    `SELECT profile_id, content, summary, status FROM profiles WHERE tenant_id = $1 AND profile_id = $2`,
    [tenant, req.params.id],
  )
  if (!rows.length) return reply.code(404).send({ error: 404 })
  return { profile_id: rows[0].profile_id, profile: rows[0] }
})
const apollo = new ApolloServer({
  schema: buildSchema(fs.readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8')),
  rootValue: {
    profile: async ({ id }: { id: string }) => {
      const rows = await prepared('profile', PROFILE_WITH_HISTORY_SQL, [tenant, id])
      return rows.length ? toGqlProfile(toRecord(rows[0])) : null
    },
  },
})
await apollo.start()
app.route({ url: '/graphql', method: ['POST'], handler: fastifyApolloHandler(apollo) })
await app.listen({ port: 0, host: '127.0.0.1' })
const addr = app.server.address() as { port: number }
process.stdout.write(`baseline listening on http://127.0.0.1:${addr.port}\n`)
process.on('SIGTERM', async () => {
  await app.close()
  await pool.end()
  process.exit(0)
})
