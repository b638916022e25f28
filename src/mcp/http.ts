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
  const h = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding' || name === 'connection')
      continue
    for (const v of Array.isArray(value) ? value : [value]) h.append(name, v)
  }
  return h
}

function defaultProfile(req: FastifyRequest): string | undefined {
  const h = req.headers[DEFAULT_PROFILE_HEADER]
  const fromHeader = Array.isArray(h) ? h[0] : h
  const q = (req.query as Record<string, unknown>).profile_id
  const fromQuery = Array.isArray(q) ? q[0] : q
  const id = fromHeader ?? (typeof fromQuery === 'string' ? fromQuery : undefined)
  return id === '' ? undefined : id
}

/**
 * MCP over Streamable HTTP at /mcp (issue 25), stateless: every POST is answered on its own by a new server and
 * transport (no sessions), in JSON (no SSE), so any API process of a deployment can answer any request. GET (a
 * server-to-client stream) and DELETE (ending a session) have nothing to do here: 405, as for any other method.
 *
 * As REST: the Bearer key first (401 with WWW-Authenticate otherwise), the server's body limit, and the app's budget:
 * one operation per JSON-RPC request in the body (a POST of notifications only: one), charged before anything runs.
 * Refused tool calls are answered as tool errors (RATE_LIMITED), other refused requests as an HTTP 429.
 */
export async function registerMcpRoutes(app: FastifyInstance, services: Services, config: Config) {
  app.addHook('onRequest', async (req, reply) => {
    req.ctx = { ...(await authenticateBearer(services, req)), signal: abortOnClose(reply.raw) }
  })

  app.post('/mcp', async (req, reply) => {
    const body = req.body
    const messages = Array.isArray(body) ? body : [body]
    const requests = messages.filter(isRequest)
    try {
      setRateLimitHeaders(reply, services.budget.charge(appBudgetKey(req.ctx), Math.max(1, requests.length)))
    } catch (e) {
      if (!(e instanceof RateLimitedError) || !requests.some((r) => r.method === 'tools/call')) throw e
      // A tool call over the budget is a tool error the model can read; any other request in the batch a JSON-RPC error.
      const answers = requests.map((r) =>
        r.method === 'tools/call'
          ? { jsonrpc: '2.0', id: r.id, result: toolError(e, { ctx: req.ctx, log: req.log }) }
          : { jsonrpc: '2.0', id: r.id, error: { code: -32000, message: e.message } },
      )
      return reply
        .code(200)
        .headers(rateLimitHeaders(e.decision))
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
