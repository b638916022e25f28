import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
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
  let u: URL
  try {
    u = new URL(base)
  } catch {
    throw new BridgeError(`--url (PROFILER_URL): '${base}' is not a URL; expected the service's address, e.g. http://localhost:8080`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new BridgeError(`--url (PROFILER_URL): '${base}' is not an http(s) URL`)
  if (!/\/mcp\/?$/.test(u.pathname)) u.pathname = `${u.pathname.replace(/\/+$/, '')}/mcp`
  u.search = ''
  return u
}

const log = (line: string) => void process.stderr.write(`profiler mcp: ${line}\n`)

/** Connects to the service (failing clearly when it cannot be reached or refuses the key), then serves stdio until it closes. */
export async function runStdioBridge(o: BridgeOptions): Promise<void> {
  if (!o.key) throw new BridgeError('an API key is required: --key <key> or PROFILER_API_KEY')
  const endpoint = mcpEndpoint(o.url)
  const headers: Record<string, string> = { authorization: `Bearer ${o.key}` }
  if (o.profile) headers[DEFAULT_PROFILE_HEADER] = o.profile
  const version = packageVersion()
  const upstream = new Client({ name: `${MCP_SERVER_NAME}-stdio-bridge`, version })
  try {
    await upstream.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }))
  } catch (e) {
    const code = e instanceof StreamableHTTPError ? e.code : undefined
    if (code === 401) throw new BridgeError(`the service at ${endpoint.origin} refused the API key (401): check --key / PROFILER_API_KEY`)
    if (code === 404) throw new BridgeError(`${endpoint} was not found (404): is --url the address of a Profiler service with MCP?`)
    const cause = (e as Error & { cause?: { code?: string; message?: string } }).cause
    throw new BridgeError(`cannot reach the service at ${endpoint}: ${cause?.code ?? cause?.message ?? (e as Error).message}`)
  }
  log(`connected to ${endpoint}${o.profile ? ` (default profile ${o.profile})` : ''}`)

  const server = new Server(
    { name: MCP_SERVER_NAME, version },
    { capabilities: { tools: {} }, ...(upstream.getInstructions() ? { instructions: upstream.getInstructions() } : {}) },
  )
  server.setRequestHandler(ListToolsRequestSchema, (req, extra) => upstream.listTools(req.params, { signal: extra.signal }))
  // A call the service could not answer (unreachable, an HTTP error) is a tool error the model can read, not a crash.
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    try {
      return (await upstream.callTool(req.params, undefined, { signal: extra.signal })) as CallToolResult
    } catch (e) {
      if (extra.signal.aborted) throw e
      log(`tool ${req.params.name} failed: ${(e as Error).message}`)
      return { content: [{ type: 'text', text: `The Profiler service did not answer the call: ${(e as Error).message}` }], isError: true }
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
