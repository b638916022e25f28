// Names the MCP endpoint (src/mcp/http.ts) and the stdio bridge (src/mcp/stdio.ts) share; nothing else, so that the
// bridge loads none of the service.

/** The MCP server's name, over both transports. */
export const MCP_SERVER_NAME = 'profiler'

/** The header (or the query parameter profile_id) naming the profile the tools use when their arguments name none. */
export const DEFAULT_PROFILE_HEADER = 'x-profiler-profile-id'
