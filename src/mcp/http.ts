import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import { abortOnClose } from '../http/abort.js'
import { authenticateBearer } from '../http/auth.js'
import { rateLimitHeaders, setRateLimitHeaders } from '../http/rate-limit.js'
import { packageVersion } from '../paths.js'
import { appBudgetKey, RateLimitedError } from '../services/budget.js'
import type { Services } from '../services/index.js'
import { DEFAULT_PROFILE_HEADER } from './names.js'
import { buildMcpServer, toolError } from './tools.js'

type JsonRpcRequest = { jsonrpc: '2.0'; id: string | number; method: string; params?: unknown }

const isRequest = (m: unknown): m is JsonRpcRequest =>
  !!m &&
  typeof m === 'object' &&
  typeof (m as JsonRpcRequest).method === 'string' &&
  (typeof (m as JsonRpcRequest).id === 'string' || typeof (m as JsonRpcRequest).id === 'number')

/** Headers of the Fastify request as the SDK's web-standard transport reads them (its body is passed parsed). */
function webHeaders(req: FastifyRequest): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding' || name === 'connection')
      continue
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v)
  }
  return headers
}

function defaultProfile(req: FastifyRequest): string | undefined {
  const header = req.headers[DEFAULT_PROFILE_HEADER]
  const fromHeader = Array.isArray(header) ? header[0] : header
  const query = (req.query as Record<string, unknown>).profile_id
  const fromQuery = Array.isArray(query) ? query[0] : query
  const id = fromHeader ?? (typeof fromQuery === 'string' ? fromQuery : undefined)
  return id === '' ? undefined : id
}

/**
 * The first request id a batch gives to more than one of its requests, or undefined. JSON-RPC matches each answer to
 * its request by id, and MCP forbids reusing an id in a session: two requests of one id would both run while only one
 * answer could be told apart. Ids compare by type and value (1 and "1" are two ids).
 */
export function repeatedRequestId(requests: readonly { id: string | number }[]): string | number | undefined {
  const seen = new Set<string>()
  for (const r of requests) {
    const key = `${typeof r.id}:${r.id}`
    if (seen.has(key)) return r.id
    seen.add(key)
  }
  return undefined
}

/**
 * MCP over Streamable HTTP at /mcp (docs/guides/mcp.md), stateless: every POST is answered on its own by a new server
 * and transport (no sessions), in JSON (no SSE), so any API process of a deployment can answer any request. GET (a
 * server-to-client stream) and DELETE (ending a session) have nothing to do here: 405, as for any other method.
 *
 * As REST: the Bearer key first (401 with WWW-Authenticate otherwise), the server's body limit, and the app's budget:
 * one operation per JSON-RPC request in the body (a POST of notifications only: one), charged before anything runs.
 * Refused tool calls are answered as tool errors (RATE_LIMITED), other refused requests as an HTTP 429.
 *
 * A batch (JSON-RPC batching, in MCP 2025-03-26; later revisions send one message a POST) whose requests repeat an
 * id is refused whole before it is charged or anything runs: HTTP 400 with a JSON-RPC Invalid Request error of no id,
 * as the transport answers input it cannot accept (a batch over its size, two initialize requests).
 */
export async function registerMcpRoutes(app: FastifyInstance, services: Services, config: Config) {
  app.addHook('onRequest', async (req, reply) => {
    req.ctx = { ...(await authenticateBearer(services, req)), signal: abortOnClose(reply.raw) }
  })

  app.post('/mcp', async (req, reply) => {
    const body = req.body
    const messages = Array.isArray(body) ? body : [body]
    const requests = messages.filter(isRequest)
    const repeated = repeatedRequestId(requests)
    if (repeated !== undefined) {
      const id = JSON.stringify(repeated)
      const shown = id.length > 80 ? `${id.slice(0, 79)}…` : id
      const message = `Invalid Request: the batch has more than one request of id ${shown}; each needs its own id`
      const error = { jsonrpc: '2.0', error: { code: -32600, message }, id: null }
      return reply.code(400).type('application/json').send(JSON.stringify(error))
    }
    try {
      setRateLimitHeaders(reply, services.budget.charge(appBudgetKey(req.ctx), Math.max(1, requests.length)))
    } catch (err) {
      if (!(err instanceof RateLimitedError) || !requests.some((r) => r.method === 'tools/call')) throw err
      // A tool call over the budget is a tool error the model can read; any other request in the batch a JSON-RPC
      // error.
      const answers = requests.map((r) =>
        r.method === 'tools/call'
          ? { jsonrpc: '2.0', id: r.id, result: toolError(err, { ctx: req.ctx, log: req.log }) }
          : { jsonrpc: '2.0', id: r.id, error: { code: -32000, message: err.message } },
      )
      return reply
        .code(200)
        .headers(rateLimitHeaders(err.decision))
        .type('application/json')
        .send(JSON.stringify(Array.isArray(body) ? answers : answers[0]))
    }

    const server = buildMcpServer(
      services,
      config,
      { ctx: req.ctx, defaultProfileId: defaultProfile(req), log: req.log },
      packageVersion(),
    )
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    try {
      await server.connect(transport)
      const url = new URL(req.url, `http://${req.headers.host ?? 'localhost'}`)
      const res = await transport.handleRequest(
        new Request(url, { method: 'POST', headers: webHeaders(req), signal: req.ctx.signal }),
        {
          parsedBody: body,
        },
      )
      reply.code(res.status)
      res.headers.forEach((value, name) => void reply.header(name, value))
      const text = await res.text()
      return reply.send(text === '' ? undefined : text)
    } finally {
      await transport.close().catch(() => undefined)
      await server.close().catch(() => undefined)
    }
  })
}
