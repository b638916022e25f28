import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { packageVersion } from '../paths.js'
import { DEFAULT_PROFILE_HEADER, MCP_SERVER_NAME } from './names.js'

// `profiler mcp`: an MCP server on standard input and output for hosts that start one as a process, bridged to a
// running service's /mcp (Streamable HTTP) with its URL and API key. It defines no tools of its own: it lists and
// calls the service's, so the tools, their validation, limits and budget exist once, in the service. Standard output
// is the protocol: everything else goes to standard error.

export interface BridgeOptions {
  url: string
  key: string
  profile?: string
}

/** A user's mistake in the options or the service's refusal: the message alone is printed. */
export class BridgeError extends Error {}

/** The service's /mcp endpoint from its base URL (a URL already ending in /mcp is kept). */
export function mcpEndpoint(base: string): URL {
  let url: URL
  try {
    url = new URL(base)
  } catch {
    throw new BridgeError(
      `--url (PROFILER_URL): '${base}' is not a URL; expected the service's address, e.g. http://localhost:8080`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BridgeError(`--url (PROFILER_URL): '${base}' is not an http(s) URL`)
  if (!/\/mcp\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, '')}/mcp`
  url.search = ''
  return url
}

/** The _meta key that marks a forwarded tool call's POST (see `cancellable`). */
const CALL_MARK = 'profiler/bridge-call'

/** The mark of a POST's tool call, or '' (the body is JSON-RPC: one message, or a batch). */
function markOf(body: string): string {
  try {
    const message = JSON.parse(body) as
      | { params?: { _meta?: Record<string, unknown> } }
      | { params?: { _meta?: Record<string, unknown> } }[]
    const mark = (Array.isArray(message) ? message[0] : message)?.params?._meta?.[CALL_MARK]
    return typeof mark === 'string' ? mark : ''
  } catch {
    return ''
  }
}

const log = (line: string) => void process.stderr.write(`profiler mcp: ${line}\n`)

/**
 * Connects to the service (failing clearly when it cannot be reached or refuses the key), then serves stdio until it
 * closes.
 */
export async function runStdioBridge(options: BridgeOptions): Promise<void> {
  if (!options.key) throw new BridgeError('an API key is required: --key <key> or PROFILER_API_KEY')
  const endpoint = mcpEndpoint(options.url)
  const headers: Record<string, string> = { authorization: `Bearer ${options.key}` }
  if (options.profile) headers[DEFAULT_PROFILE_HEADER] = options.profile
  const version = packageVersion()
  const upstream = new Client({ name: `${MCP_SERVER_NAME}-stdio-bridge`, version })
  // A call the host cancels stops at the service too: its POST is sent with the call's signal, so cancelling closes
  // the connection and the service stops the call's work (a stateless endpoint cannot hear a notifications/cancelled
  // sent in another request). The POST is told by a mark in the call's _meta.
  const calls = new Map<string, AbortSignal>()
  const cancellable: FetchLike = (url, init) => {
    const signal =
      typeof init?.body === 'string' && init.body.includes(CALL_MARK) ? calls.get(markOf(init.body)) : undefined
    return fetch(
      url,
      signal ? { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal } : init,
    )
  }
  try {
    await upstream.connect(
      new StreamableHTTPClientTransport(endpoint, { requestInit: { headers }, fetch: cancellable }),
    )
  } catch (err) {
    const code = err instanceof StreamableHTTPError ? err.code : undefined
    if (code === 401)
      throw new BridgeError(
        `the service at ${endpoint.origin} refused the API key (401): check --key / PROFILER_API_KEY`,
      )
    if (code === 404)
      throw new BridgeError(`${endpoint} was not found (404): is --url the address of a Profiler service with MCP?`)
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause
    throw new BridgeError(
      `cannot reach the service at ${endpoint}: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
    )
  }
  log(`connected to ${endpoint}${options.profile ? ` (default profile ${options.profile})` : ''}`)

  const server = new Server(
    { name: MCP_SERVER_NAME, version },
    {
      capabilities: { tools: {} },
      ...(upstream.getInstructions() ? { instructions: upstream.getInstructions() } : {}),
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, (req, extra) =>
    upstream.listTools(req.params, { signal: extra.signal }),
  )
  // A call the service could not answer (unreachable, an HTTP error) is a tool error the model can read, not a crash.
  let callCount = 0
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const mark = String(++callCount)
    calls.set(mark, extra.signal)
    try {
      const params = { ...req.params, _meta: { ...req.params._meta, [CALL_MARK]: mark } }
      return (await upstream.callTool(params, undefined, { signal: extra.signal })) as CallToolResult
    } catch (err) {
      if (extra.signal.aborted) throw err
      log(`tool ${req.params.name} failed: ${(err as Error).message}`)
      return {
        content: [{ type: 'text', text: `The Profiler service did not answer the call: ${(err as Error).message}` }],
        isError: true,
      }
    } finally {
      calls.delete(mark)
    }
  })

  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve()
    process.stdin.once('end', () => resolve())
    process.once('SIGINT', () => resolve())
    process.once('SIGTERM', () => resolve())
  })
  await server.connect(new StdioServerTransport())
  await closed
  await server.close().catch(() => undefined)
  await upstream.close().catch(() => undefined)
}
