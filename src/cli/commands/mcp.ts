import { type Command, Option } from 'commander'

interface McpOptions {
  url: string
  key: string
  profile?: string
}

/** `mcp`: an MCP server over stdio, bridged to a running service's /mcp endpoint. */
export function addMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      "an MCP server on stdin/stdout for MCP hosts, bridged to a running service's /mcp endpoint (docs/guides/mcp.md)",
    )
    .addOption(
      new Option('--url <url>', "the service's address, e.g. http://localhost:8080")
        .env('PROFILER_URL')
        .makeOptionMandatory(),
    )
    .addOption(new Option('--key <key>', "an app's API key").env('PROFILER_API_KEY').makeOptionMandatory())
    .addOption(
      new Option('--profile <id>', 'the profile the tools use when a call names none').env('PROFILER_PROFILE_ID'),
    )
    .action(async (opts: McpOptions) => {
      // Standard output is the protocol: messages go to standard error, and a failure to connect ends the process.
      const { runStdioBridge, BridgeError } = await import('../../mcp/stdio.js')
      try {
        await runStdioBridge(opts)
      } catch (error) {
        if (!(error instanceof BridgeError)) throw error
        process.stderr.write(`profiler mcp: ${error.message}\n`)
        process.exit(1)
      }
      process.exit(0)
    })
}
