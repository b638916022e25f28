// Memory for the Vercel AI SDK: a language model middleware that adds a Profiler profile's context to the system
// prompt and, once the answer is complete, submits the exchange as a conversation. The service is never in the way of
// the answer: the context has a short time limit, the submission happens afterwards, and failures only warn.
// It works with the AI SDK 5, 6 and 7: its types come from the `ai` the app installed, and it only uses what the three
// language model specifications (v2, v3, v4) share: system and user messages, text content and `text-delta` parts.
import type { LanguageModelMiddleware } from 'ai'
import { ProfilerClient, type Logger } from './client.js'
import { ProfilerNotFoundError } from './errors.js'
import type { Context, ContextInclude, ConversationMessage } from './types.js'

type TransformArgs = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]
/** The call options the model receives (prompt, provider options, ...). */
export type CallParams = TransformArgs['params']
type PromptMessage = CallParams['prompt'][number]
type StreamResult = Awaited<ReturnType<Parameters<NonNullable<LanguageModelMiddleware['wrapStream']>>[0]['doStream']>>
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never

export interface ProfilerMemoryOptions {
  /** A client; or give `url` and `apiKey`. */
  client?: ProfilerClient
  url?: string
  apiKey?: string
  /**
   * Whose profile: an id, or a function of the call's parameters. Default: `providerOptions.profiler.profileId` of the
   * call (`generateText({ ..., providerOptions: { profiler: { profileId: 'alice' } } })`). No id: the call passes
   * through untouched.
   */
  profileId?: string | ((params: CallParams) => string | undefined | Promise<string | undefined>)
  /** Token budget of the context added to the system prompt. Default 500. */
  maxTokens?: number
  /** What the context is made of (facts, evidence passages or both). Default: the service's (`all`). */
  include?: ContextInclude
  /** The query the context is ranked by. Default: the text of the last user message. */
  query?: (params: CallParams) => string | undefined
  /** How long to wait for the context before answering without it. Default 2000 ms. */
  contextTimeoutMs?: number
  /** Submit each exchange (the last user turn and the answer) as a conversation. Default true. */
  submit?: boolean
  /**
   * How long one submission may take, retries included, before it is given up with a warning. Default 10000 ms.
   * `flush()` never waits longer than this.
   */
  submitTimeoutMs?: number
  /** How the context is put into the system prompt. Default: a short heading, then the text. */
  formatContext?: (context: Context) => string
  /** Where warnings go (the service unreachable, a failed submission). Default: console. */
  logger?: Logger
}

/**
 * The middleware, plus `flush()` (for serverless runtimes): resolves once every submission started so far has settled,
 * within `submitTimeoutMs` at most (each submission gives up by then), and says how many were given up.
 */
export type ProfilerMemoryMiddleware = LanguageModelMiddleware & { flush(): Promise<FlushResult> }

/** What `flush()` waited for: submissions that reached the service, and those that failed or were given up. */
export interface FlushResult {
  submitted: number
  failed: number
}

const defaultFormat = (c: Context) =>
  `What you remember about the user (from earlier conversations; use it when relevant, do not recite it):\n${c.text}`

/**
 * A middleware for `wrapLanguageModel({ model, middleware: profilerMemory({...}) })`.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4o-mini'), middleware: profilerMemory({ client, profileId: 'alice' }) })
 * const { text } = await generateText({ model, prompt: 'Any ideas for the weekend?' })
 * ```
 */
export function profilerMemory(options: ProfilerMemoryOptions): ProfilerMemoryMiddleware {
  const client =
    options.client ??
    (options.url && options.apiKey ? new ProfilerClient({ url: options.url, apiKey: options.apiKey }) : undefined)
  if (!client) throw new TypeError('profilerMemory: pass a client, or url and apiKey')
  const logger: Logger = options.logger ?? console
  const warn = (message: string, error?: unknown) =>
    logger.warn?.(`profiler memory: ${message}${error === undefined ? '' : `: ${error instanceof Error ? error.message : String(error)}`}`)
  const maxTokens = options.maxTokens ?? 500
  const contextTimeoutMs = options.contextTimeoutMs ?? 2000
  const submitTimeoutMs = options.submitTimeoutMs ?? 10_000
  const format = options.formatContext ?? defaultFormat
  const deriveQuery = options.query ?? ((p: CallParams) => lastUserText(p.prompt))
  const pending = new Set<Promise<boolean>>()
  /** The profile id of each transformed call (wrapGenerate and wrapStream receive the transformed params). */
  const profileOf = new WeakMap<object, string>()

  const resolveProfileId = async (params: CallParams): Promise<string | undefined> => {
    const known = profileOf.get(params)
    if (known) return known
    try {
      if (typeof options.profileId === 'function') return (await options.profileId(params)) || undefined
      if (typeof options.profileId === 'string') return options.profileId
      const fromCall = (params.providerOptions as { profiler?: { profileId?: unknown } } | undefined)?.profiler?.profileId
      return typeof fromCall === 'string' && fromCall ? fromCall : undefined
    } catch (e) {
      warn('profileId failed; answering without memory', e)
      return undefined
    }
  }

  const submitExchange = (profileId: string, params: CallParams, answer: string) => {
    if (options.submit === false) return
    const messages = exchangeOf(params.prompt, answer)
    if (!messages.some((m) => m.role === 'user')) return
    // One signal bounds the whole submission, retries and their waits included.
    const signal = AbortSignal.timeout(submitTimeoutMs)
    const p = client
      .submit(profileId, { conversation: messages }, { idempotencyKey: globalThis.crypto.randomUUID(), signal })
      .then(
        () => true,
        (e) => {
          const why = signal.aborted ? new Error(`no answer within submitTimeoutMs (${submitTimeoutMs} ms)`) : e
          warn(`the exchange was not submitted to profile ${profileId}`, why)
          return false
        },
      )
      .finally(() => pending.delete(p))
    pending.add(p)
  }

  return {
    // The AI SDK 6's middleware type requires 'v3' and 7's takes any version; 5's has its own optional field instead.
    // No version reads the field when it wraps a model.
    specificationVersion: 'v3',

    async transformParams({ params }) {
      const profileId = await resolveProfileId(params)
      if (!profileId) return params
      let context: Context | undefined
      try {
        const query = deriveQuery(params)?.slice(0, 1000) || undefined
        context = await client.context(profileId, { query, maxTokens, include: options.include, timeoutMs: contextTimeoutMs, maxRetries: 0 })
      } catch (e) {
        if (!(e instanceof ProfilerNotFoundError)) warn(`no context for profile ${profileId}; answering without memory`, e)
      }
      const next: CallParams = context?.text ? { ...params, prompt: withSystem(params.prompt, format(context)) } : { ...params }
      profileOf.set(next, profileId)
      return next
    },

    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate()
      const profileId = await resolveProfileId(params)
      if (profileId) {
        const answer = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
        submitExchange(profileId, params, answer)
      }
      return result
    },

    async wrapStream({ doStream, params }) {
      const result = await doStream()
      const profileId = await resolveProfileId(params)
      if (!profileId || options.submit === false) return result
      let answer = ''
      let failed = false
      const tap = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === 'text-delta') answer += part.delta
          else if (part.type === 'error') failed = true
          controller.enqueue(part)
        },
        flush() {
          if (!failed) submitExchange(profileId, params, answer)
        },
      })
      return { ...result, stream: result.stream.pipeThrough(tap) }
    },

    async flush() {
      const result: FlushResult = { submitted: 0, failed: 0 }
      while (pending.size) {
        for (const settled of await Promise.all([...pending])) settled ? result.submitted++ : result.failed++
      }
      return result
    },
  }
}

const textOf = (m: PromptMessage): string =>
  typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('')

function lastUserText(prompt: CallParams['prompt']): string | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) if (prompt[i]!.role === 'user') return textOf(prompt[i]!)
  return undefined
}

/** The context appended to the first system message, or a system message of its own before the conversation. */
function withSystem(prompt: CallParams['prompt'], block: string): CallParams['prompt'] {
  const first = prompt[0]
  if (first?.role === 'system') return [{ ...first, content: `${first.content}\n\n${block}` }, ...prompt.slice(1)]
  return [{ role: 'system', content: block }, ...prompt]
}

/** The user turns since the last assistant message, then the answer. */
function exchangeOf(prompt: CallParams['prompt'], answer: string): ConversationMessage[] {
  let start = prompt.length
  while (start > 0 && prompt[start - 1]!.role !== 'assistant') start--
  const turns: ConversationMessage[] = prompt
    .slice(start)
    .filter((m) => m.role === 'user')
    .map((m) => ({ role: 'user', content: textOf(m) }))
    .filter((m) => m.content.trim() !== '')
  if (answer.trim()) turns.push({ role: 'assistant', content: answer })
  return turns
}
