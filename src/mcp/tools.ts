import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { Config } from '../config.js'
import type { ProfileRecord } from '../db/profile.repository.js'
import { DomainError, invalid, type ErrorCode } from '../domain/errors.js'
import { FORGET_SECTIONS } from '../domain/profile.js'
import { CONTEXT_DEFAULT_TOKENS, CONTEXT_MAX_TOKENS } from '../domain/requests.js'
import { callerGone } from '../http/abort.js'
import { toHttpError } from '../http/errors.js'
import { toRestContext, toRestProfile } from '../rest/serializers.js'
import { appBudgetKey } from '../services/budget.js'
import type { RequestContext } from '../services/context.js'
import type { Services } from '../services/index.js'
import { MCP_SERVER_NAME } from './names.js'

// The MCP tools (docs/guides/mcp.md), defined once: the Streamable HTTP endpoint /mcp serves them (src/mcp/http.ts) and
// `profiler mcp` bridges stdio to that endpoint (src/mcp/stdio.ts). Each tool is a thin transport over the same
// service methods as its REST route, with the same validation and limits; the transport charges the budget (one
// operation per JSON-RPC request, as REST charges one per HTTP request) before the tools run.

/**
 * What one MCP request runs with: the caller's context (its signal aborts when the client goes away) and its default
 * profile.
 */
export interface McpCall {
  ctx: RequestContext
  /**
   * The profile a tool uses when its arguments name none (X-Profiler-Profile-Id, ?profile_id=, `profiler mcp
   * --profile`).
   */
  defaultProfileId?: string
  log: { error(fields: object, msg: string): void; info(fields: object, msg: string): void }
}

const INSTRUCTIONS =
  'Profiler keeps a structured profile of each person (an opaque profile_id you choose, e.g. a user id): ' +
  'remember what they say, recall a compact context about them before answering, search profiles, read one, or ' +
  'forget a value. profile_id may be omitted when the server was configured with a default profile.'

const profileIdArg = z
  .string()
  .optional()
  .describe('The profile: 1-200 characters of A-Z a-z 0-9 . _ : @ + -. Omit to use the configured default profile.')

/**
 * A profile as the tools answer it: REST's Profile without its history and field timestamps (large, and not for a
 * prompt).
 */
function profileView(profile: ProfileRecord) {
  const { update_log: _log, field_timestamps: _ts, ...rest } = toRestProfile(profile)
  return rest
}

const profileShape = z
  .looseObject({
    profile_id: z.string(),
    status: z.enum(['processing', 'ready']),
    core_info: z.record(z.string(), z.unknown()),
    interests: z.unknown(),
    personality: z.unknown(),
    memories: z.unknown(),
    preferences: z.unknown(),
    summary: z.string().optional(),
    last_updated: z.string(),
    created_at: z.string(),
  })
  .describe('The profile (REST Profile without update_log and field_timestamps)')

const json = (v: unknown) => JSON.stringify(v)

/** A tool's answer: text a model reads, and the same as structured content. */
const ok = (text: string, structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
})

/** The service's error as a tool result (never a protocol error): its code and message, as REST says them. */
export function toolError(err: unknown, call: Pick<McpCall, 'ctx' | 'log'>): CallToolResult {
  const { status, body, log } = toHttpError(err, call.ctx.requestId)
  if (callerGone(call.ctx.signal))
    call.log.info({ reason: (call.ctx.signal!.reason as Error).message }, 'mcp tool call cancelled')
  else if (log) call.log.error({ err }, 'mcp tool call failed')
  const code: ErrorCode | string =
    err instanceof DomainError ? err.code : status >= 500 ? (status === 503 ? 'UNAVAILABLE' : 'INTERNAL') : 'ERROR'
  return { content: [{ type: 'text', text: `${code} (${status}): ${body.message}` }], isError: true }
}

/**
 * One MCP server with the tools, for one request (the endpoint is stateless: a server per request, as the SDK's
 * stateless example does). `signal` of each tool call follows the request's and the client's cancellation of that call.
 */
export function buildMcpServer(services: Services, config: Config, call: McpCall, version: string): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version },
    { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
  )
  const maxKiB = Math.floor(config.limits.maxDataBytes / 1024)

  const profileOf = (id: string | undefined): string => {
    const chosen = id ?? call.defaultProfileId
    if (chosen === undefined || chosen === '') {
      throw invalid(
        'Missing argument: profile_id (no default profile is configured: send the X-Profiler-Profile-Id header ' +
          'or ?profile_id= to /mcp, or run `profiler mcp --profile <id>`)',
      )
    }
    return chosen
  }
  /**
   * Runs a tool's work with the request's context, its signal following the call's cancellation too; errors as results.
   */
  const run = async (
    extraSignal: AbortSignal,
    work: (ctx: RequestContext) => Promise<CallToolResult>,
  ): Promise<CallToolResult> => {
    const signals = [call.ctx.signal, extraSignal].filter((s): s is AbortSignal => !!s)
    const ctx: RequestContext = { ...call.ctx, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] }
    try {
      ctx.signal?.throwIfAborted()
      return await work(ctx)
    } catch (err) {
      return toolError(err, { ctx, log: call.log })
    }
  }

  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description:
        `Submit what a person wrote or said, to be added to their profile: either text (prose by or about them) ` +
        `or messages (a conversation; only role "user" turns count as evidence about them). Up to ${maxKiB} KiB. ` +
        `Processing is asynchronous: the answer is an acknowledgement, and the profile shows status "processing" ` +
        `until it is merged.`,
      inputSchema: {
        profile_id: profileIdArg,
        text: z.string().optional().describe('Free text by or about the person. Give this or messages, not both.'),
        messages: z
          .array(
            z.object({
              role: z.string().describe('"user" for the profiled person; "assistant" or others for the other side'),
              content: z.string(),
              timestamp: z.string().optional().describe('When it was said (ISO 8601)'),
            }),
          )
          .optional()
          .describe('A conversation, oldest first. Give this or text, not both.'),
        occurred_at: z
          .string()
          .optional()
          .describe(
            'When it was said or written (ISO 8601 date or date-time); default: now, or the latest message timestamp',
          ),
        idempotency_key: z
          .string()
          .optional()
          .describe('Up to 255 characters: the same key and content within 24 h is accepted once'),
      },
      outputSchema: {
        submission_id: z.string(),
        profile_id: z.string(),
        status: z.literal('accepted'),
        replayed: z
          .boolean()
          .describe('True when idempotency_key matched an earlier submission: nothing new was accepted'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) =>
      run(extra.signal, async (ctx) => {
        const profileId = profileOf(args.profile_id)
        if ((args.text === undefined) === (args.messages === undefined))
          throw invalid('Give exactly one of text or messages')
        const ack = await services.submissions.submit(ctx, profileId, {
          data: args.text ?? JSON.stringify(args.messages),
          input_type: args.text !== undefined ? 'text' : 'conversation',
          occurred_at: args.occurred_at,
          idempotencyKey: args.idempotency_key,
        })
        const out = {
          submission_id: ack.id,
          profile_id: ack.profileId,
          status: 'accepted' as const,
          replayed: ack.replayed,
        }
        return ok(
          `Accepted for processing (submission ${ack.id}, profile ${ack.profileId}` +
            `${ack.replayed ? ', a replay of an earlier submission' : ''}).`,
          out,
        )
      }),
  )

  server.registerTool(
    'recall',
    {
      title: 'Recall',
      description:
        'What is known about a person, as compact text for your context, within a token budget. With a query, ' +
        'the facts and quoted passages most relevant to it come first. Use before answering something that ' +
        'depends on the person.',
      inputSchema: {
        profile_id: profileIdArg,
        query: z
          .string()
          .optional()
          .describe("What you need to know (e.g. the user's question); ranks facts and passages by relevance"),
        max_tokens: z
          .number()
          .int()
          .optional()
          .describe(`Token budget of the text, 1-${CONTEXT_MAX_TOKENS} (default ${CONTEXT_DEFAULT_TOKENS})`),
        include: z.enum(['all', 'facts', 'passages']).optional().describe('facts, quoted passages, or all (default)'),
      },
      outputSchema: {
        profile_id: z.string(),
        status: z.enum(['processing', 'ready']),
        text: z.string(),
        tokens: z.number(),
        max_tokens: z.number(),
        encoding: z.string(),
        facts_included: z.number(),
        facts_total: z.number(),
        passages_included: z.number(),
        include: z.string(),
        summary_included: z.boolean(),
        truncated: z.boolean(),
        ranked_by: z.string(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      run(extra.signal, async (ctx) => {
        const context = await services.llmContext.context(ctx, profileOf(args.profile_id), {
          maxTokens: args.max_tokens,
          query: args.query,
          include: args.include,
        })
        const out = toRestContext(context)
        return ok(
          out.text ||
            `(Profile ${out.profile_id} holds nothing yet` +
              `${out.status === 'processing' ? '; it is still processing' : ''}.)`,
          out,
        )
      }),
  )

  server.registerTool(
    'search_profiles',
    {
      title: 'Search profiles',
      description:
        'Find profiles: by meaning and words with query (e.g. "likes hiking in Norway"), by a field with ' +
        "filterBy/filterValue, or list them. Answers each profile's id, status, core info, summary and score; " +
        'read one with get_profile.',
      inputSchema: {
        query: z.string().optional().describe('Natural-language description to match'),
        sensitivity: z.number().optional().describe('0-100: minimum similarityScore of a query match'),
        filterBy: z.enum(['id', 'name', 'location', 'age', 'gender', 'language', 'status']).optional(),
        filterValue: z.string().optional().describe('Case-insensitive partial match for filterBy'),
        sortBy: z
          .enum(['last_updated', 'created_at', 'id', 'name', 'age', 'location'])
          .optional()
          .describe('Without query only'),
        sortOrder: z.enum(['asc', 'desc']).optional(),
        page: z.number().int().optional().describe('From 1'),
        pageSize: z.number().int().optional().describe(`1-${config.limits.maxPageSize} (default 10)`),
      },
      outputSchema: {
        profiles: z.array(
          z.looseObject({
            profile_id: z.string(),
            status: z.enum(['processing', 'ready']),
            core_info: z.record(z.string(), z.unknown()),
            summary: z.string().optional(),
            similarityScore: z.number().optional(),
            last_updated: z.string(),
          }),
        ),
        total: z.number(),
        totalIsEstimate: z
          .literal(true)
          .optional()
          .describe('Present only when total is an estimate (a large tenant), as GET /v1/search says it'),
        page: z.number(),
        pageSize: z.number(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      run(extra.signal, async (ctx) => {
        // Only the small parts of each profile (core info, summary, dates): the page costs no reads of whole profiles.
        const plan = await services.search.find(ctx, args, {
          chargeTo: appBudgetKey(ctx),
          shape: { history: false, light: true },
        })
        const profiles: Record<string, unknown>[] = []
        for await (const p of services.search.profiles(ctx, plan, (p) => p)) {
          profiles.push({
            profile_id: p.profile_id,
            status: p.status,
            core_info: p.content.core_info ?? {},
            ...(p.summary ? { summary: p.summary } : {}),
            ...(p.similarityScore !== undefined ? { similarityScore: p.similarityScore } : {}),
            last_updated: p.last_updated,
          })
        }
        const out = {
          profiles,
          total: plan.total,
          ...(plan.totalIsEstimate ? { totalIsEstimate: true as const } : {}),
          page: plan.page,
          pageSize: plan.pageSize,
        }
        return ok(json(out), out)
      }),
  )

  server.registerTool(
    'get_profile',
    {
      title: 'Get profile',
      description:
        "A person's whole profile: core info, interests, personality, memories, preferences, summary and status.",
      inputSchema: { profile_id: profileIdArg },
      outputSchema: { profile_id: z.string(), profile: profileShape },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      run(extra.signal, async (ctx) => {
        const profile = await services.profiles.get(ctx, profileOf(args.profile_id))
        const out = { profile_id: profile.profile_id, profile: profileView(profile) }
        return ok(json(out.profile), out)
      }),
  )

  server.registerTool(
    'forget',
    {
      title: 'Forget a value',
      description:
        'Remove one value from a profile (e.g. section "interests", value "golf"), and hide the passages that ' +
        'state it. Answers the profile as it is now.',
      inputSchema: {
        profile_id: profileIdArg,
        section: z.string().describe(`One of ${FORGET_SECTIONS.join(', ')}, or custom.<section>.<field>`),
        value: z
          .string()
          .describe('The value as the profile shows it (case and plural do not matter); for memories, the event'),
        category: z.string().optional().describe('interests only: the category (any when omitted)'),
      },
      outputSchema: { profile_id: z.string(), profile: profileShape },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      run(extra.signal, async (ctx) => {
        const profile = await services.edits.forget(ctx, profileOf(args.profile_id), {
          section: args.section,
          value: args.value,
          category: args.category,
        })
        const out = { profile_id: profile.profile_id, profile: profileView(profile) }
        return ok(`Forgotten. The profile now: ${json(out.profile)}`, out)
      }),
  )

  return server
}
