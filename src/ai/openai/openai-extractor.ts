import { ConversationFormatError, transcript } from '../conversation.js'
import { evidenceCheck } from '../evidence.js'
import type { Extraction } from '../../domain/profile.js'
import type { ExtractRequest, ExtractResult, Extractor, Summarizer, Usage } from '../types.js'
import { addUsage, isTimeout, LlmOutputError, type LlmClient } from './client.js'
import { countTokens, framingTokens, promptTokens, tokenLimits, type TokenLimits } from './tokens.js'
import { ZERO_USAGE } from '../usage.js'
import { compactProfile } from './compact-profile.js'
import { customEvidence, customFromOutput, supportedCustom, withCustomOutput } from './custom-output.js'
import { batchOutput, evidenceOf, outputJsonSchema, supportedOnly, toExtraction, type BatchOutput } from './output.js'
import { EXTRACT_PROMPT, loadPrompt, SUMMARIZE_PROMPT } from './prompts.js'
import { customFieldList, jsonAnswerInstructions, withoutCustomDetails } from './schema-prompt.js'
import { z } from 'zod'

/**
 * One chat request per batch when it fits, with structured outputs (strict JSON schema). The same request also writes
 * the summary of the profile after the batch: measured in bench/llm-cost.ts, a second request would add its fixed
 * prompt and the whole profile again for every batch.
 *
 * Bounded by tokens (docs/guides/ai-providers.md, "Token bounds"): the prompt is counted with a real tokenizer
 * (src/ai/openai/tokens.ts) and a batch is packed into as many requests as it takes for instructions + profile +
 * submissions + the output cap to fit the model's context. A request whose answer is cut at the output cap
 * (finish_reason "length"), or that times out, is split in halves and sent again; a submission that cannot fit alone,
 * or whose answer alone is cut, is reported in `failed` with a message naming the sizes and the setting, never sent
 * again unchanged. A batch sent in several requests gets no summary from them (the worker asks the summarizer, from the
 * merged profile).
 */
export class OpenAIExtractor implements Extractor {
  readonly name = 'openai'
  private readonly schema = outputJsonSchema()
  readonly limits: TokenLimits

  constructor(
    private readonly llm: LlmClient,
    private readonly model: string,
  ) {
    this.limits = tokenLimits(model, llm.cfg)
  }

  /** Output schemas with an app's custom fields, by app and version (a version never changes). */
  private readonly customSchemas = new Map<string, Record<string, unknown>>()
  /** Tokens of each output schema, for models that read it as part of the prompt (OpenAI's). */
  private readonly schemaTokens = new WeakMap<object, number>()

  private schemaFor(req: ExtractRequest): Record<string, unknown> {
    const custom = req.customSchema
    if (!custom || !Object.keys(custom.schema.sections).length) return this.schema
    let schema = this.customSchemas.get(custom.key)
    if (!schema) {
      if (this.customSchemas.size >= 256) this.customSchemas.delete(this.customSchemas.keys().next().value!)
      this.customSchemas.set(custom.key, (schema = withCustomOutput(this.schema, custom.schema)))
    }
    return schema
  }

  /**
   * What every request of a batch costs besides its submissions: the instructions, the envelope with the profile, the
   * chat framing, and for OpenAI's models the schema (counted on the safe side: servers that only constrain decoding
   * with it, like Ollama, vLLM and llama.cpp, do not put it in the prompt, and their models are not counted so).
   */
  private async fixedTokens(system: string, emptyUser: string, schema: Record<string, unknown>): Promise<number> {
    const limits = this.limits
    let schemaTokens = 0
    if (limits.exact) {
      const known = this.schemaTokens.get(schema)
      schemaTokens = known ?? (await countTokens(JSON.stringify(schema)))
      if (known === undefined) this.schemaTokens.set(schema, schemaTokens)
    }
    return (
      (await promptTokens(limits, system)) +
      (await promptTokens(limits, emptyUser)) +
      schemaTokens +
      framingTokens(limits)
    )
  }

  async extract(req: ExtractRequest, signal?: AbortSignal): Promise<ExtractResult> {
    const prompt = loadPrompt(EXTRACT_PROMPT)
    const schema = this.schemaFor(req)
    const system = withOutputFormat(
      withInstructions(prompt.text, req.summaryInstructions),
      schema,
      this.llm.cfg.responseFormat,
    )
    const limits = this.limits
    const profile = compactProfile(req.profile)
    // Short ids numbered within the batch: a UUID costs more tokens than a short message.
    const items = req.submissions.map((s, i) => ({ id: `s${i + 1}`, ...submissionForModel(s) }))
    // The app's fields with what each holds, in every response format: a server that only constrains decoding to
    // the schema (Ollama, vLLM, llama.cpp) never shows the model the schema's descriptions.
    const extra =
      schema !== this.schema && req.customSchema
        ? {
            custom_fields: {
              note:
                'Also fill `custom` for each submission with these fields of the app (section.field: type; ' +
                'what it holds). Only what the person states about themselves; null or [] otherwise.',
              fields: customFieldList(req.customSchema.schema),
            },
          }
        : {}
    const userOf = (part: number[]) => JSON.stringify({ profile, ...datedOnce(part.map((i) => items[i]!)), ...extra })

    // Packing: consecutive submissions while instructions + profile + submissions + the output cap fit the context.
    const fixed = await this.fixedTokens(system, userOf([]), schema)
    const unfit = new Map<number, string>()
    const parts: number[][] = []
    let size = 0
    for (const [i, item] of items.entries()) {
      const tokens = (await promptTokens(limits, JSON.stringify(item))) + 1
      if (fixed + tokens > limits.prompt) {
        unfit.set(i, tooLong(limits, tokens, fixed))
        continue
      }
      const last = parts[parts.length - 1]
      if (last && fixed + size + tokens <= limits.prompt) {
        last.push(i)
        size += tokens
      } else {
        parts.push([i])
        size = tokens
      }
    }

    let usage: Usage = ZERO_USAGE
    // One transport-retry budget and one output-retry budget for the whole batch, however many requests it takes.
    const budget = this.llm.retryBudget()
    let outputRetries = this.llm.cfg.outputRetries
    const answers = new Map<number, { extraction: Extraction; evidence: Record<string, string> }>()
    let summary: string | undefined
    let answered = 0
    try {
      // Depth first, in order: a split part's halves run before the parts after it.
      const todo = [...parts].reverse()
      while (todo.length) {
        const part = todo.pop()!
        const halves = () =>
          todo.push(part.slice(Math.ceil(part.length / 2)), part.slice(0, Math.ceil(part.length / 2)))
        let problem = ''
        for (let tries = 1; ; tries++) {
          let res: Awaited<ReturnType<LlmClient['structuredChat']>>
          try {
            res = await this.llm.structuredChat(
              {
                model: this.model,
                system,
                user: userOf(part),
                schemaName: 'profile_extraction',
                schema,
                maxOutputTokens: limits.output,
                splitOnTimeout: part.length > 1,
              },
              signal,
              budget,
            )
          } catch (err) {
            if (part.length > 1 && isTimeout(err) && !signal?.aborted) {
              halves()
              break
            }
            throw err
          }
          usage = addUsage(usage, res.usage)
          if (res.finishReason === 'length') {
            // Cut at the output cap: the same request would be cut the same way.
            if (part.length > 1) halves()
            else unfit.set(part[0]!, answerTooLong(limits))
            break
          }
          const parsed = parseOutput(res.content, res.refusal)
          if (!parsed.ok) {
            problem = parsed.problem
            if (outputRetries-- > 0) continue
            throw new LlmOutputError(`The model's output was unusable after ${tries} requests: ${problem}`, usage)
          }
          const out = this.assign(req, part, parsed.value, parsed.raw)
          for (const [k, i] of part.entries())
            answers.set(i, { extraction: out.extractions[k]!, evidence: out.evidence[k]! })
          answered++
          summary = out.summary
          break
        }
      }
    } catch (err) {
      // What the requests before the failure cost travels with it.
      if (err instanceof Error && !(err instanceof LlmOutputError))
        Object.assign(err, { usage: addUsage(usage, (err as { usage?: Usage }).usage) })
      throw err
    }
    const whole = answered === 1 && unfit.size === 0 && answers.size === items.length
    return {
      extractions: items.map((_, i) => answers.get(i)?.extraction ?? {}),
      evidence: items.map((_, i) => answers.get(i)?.evidence ?? {}),
      ...(whole && summary ? { summary } : {}),
      ...(unfit.size
        ? {
            failed: [...unfit]
              .sort(([a], [b]) => a - b)
              .map(([i, error]) => ({ submissionId: req.submissions[i]!.submissionId, error })),
          }
        : {}),
      usage,
      promptVersion: prompt.version,
    }
  }

  /** Answers are matched to the batch by submission id; anything for another id is ignored (untrusted output). */
  private assign(req: ExtractRequest, part: number[], out: BatchOutput, raw: unknown) {
    const byId = new Map(out.submissions.map((s) => [s.submission_id, s]))
    // zod strips `custom` (it is not in the fixed schema): it is read from the raw answer and checked against the app's
    // schema.
    const rawCustom = new Map<string, unknown>()
    const rawSubs = (raw as { submissions?: unknown[] }).submissions ?? []
    for (const r of rawSubs)
      if (r && typeof r === 'object' && 'custom' in r)
        rawCustom.set(String((r as { submission_id?: unknown }).submission_id), (r as { custom: unknown }).custom)
    const extractions: Extraction[] = []
    const evidence: Record<string, string>[] = []
    for (const i of part) {
      const sub = req.submissions[i]!
      const id = `s${i + 1}`
      const answer = byId.get(id)
      // Only values whose quote the submission holds (src/ai/evidence.ts).
      const supported = evidenceCheck(sub)
      const output = answer ? supportedOnly(answer, supported).out : undefined
      const ex: Extraction = output ? toExtraction(output) : {}
      const ev = output ? evidenceOf(output) : {}
      if (output && req.customSchema && rawCustom.has(id)) {
        const raw = supportedCustom(rawCustom.get(id), supported)
        const custom = customFromOutput(req.customSchema.schema, raw)
        if (Object.keys(custom).length) ex.custom = custom
        Object.assign(ev, customEvidence(raw))
      }
      extractions.push(ex)
      evidence.push(ev)
    }
    const summary = out.summary.trim().slice(0, 2000)
    return { extractions, evidence, ...(summary ? { summary } : {}) }
  }
}

/** Submissions as the model reads them; the date given once when every submission has the same (most batches). */
export function datedOnce<T extends { date?: string }>(
  items: T[],
): { date?: string; submissions: Omit<T, 'date'>[] | T[] } {
  const date = items[0]?.date
  if (!date || !items.every((s) => s.date === date)) return { submissions: items }
  return { date, submissions: items.map(({ date: _, ...rest }) => rest) }
}

/**
 * One submission as the model reads it: its date (the reference for relative dates and ages), and for a conversation
 * the whole transcript with its speakers' labels and `subject`, the label of the profiled person (the partner's turns
 * are context: the question a "yes" answers, cut short).
 */
export function submissionForModel(submission: ExtractRequest['submissions'][number]) {
  const date =
    submission.referenceDate && !Number.isNaN(Date.parse(submission.referenceDate))
      ? new Date(submission.referenceDate).toISOString().slice(0, 10)
      : undefined
  if (submission.inputType !== 'conversation')
    return { input_type: submission.inputType, ...(date ? { date } : {}), text: submission.data }
  let parsed: { subject: string | null; text: string }
  try {
    parsed = transcript(submission.data)
  } catch (err) {
    if (!(err instanceof ConversationFormatError)) throw err
    parsed = { subject: null, text: '' }
  }
  return {
    input_type: submission.inputType,
    ...(date ? { date } : {}),
    subject: parsed.subject ?? '',
    text: parsed.text,
  }
}

const fmt = (n: number) => n.toLocaleString('en-US')

function tooLong(limits: TokenLimits, tokens: number, fixed: number): string {
  const room =
    `the context of ${limits.model} is ${fmt(limits.context)} tokens (${limits.source.context}), ` +
    `of which ${fmt(limits.output)} are kept for the answer (${limits.source.output})`
  if (fixed >= limits.prompt)
    return `cannot be extracted: the instructions and the profile alone take about ${fmt(fixed)} tokens and ${room}`
  return (
    `cannot be extracted: it is about ${fmt(tokens)} tokens, and with the instructions and the profile ` +
    `(about ${fmt(fixed)} tokens) it does not fit the model: ${room}. ` +
    'Send it in smaller parts, or configure a larger context'
  )
}

function answerTooLong(limits: TokenLimits): string {
  return (
    "cannot be extracted: the model's answer for this submission alone is longer than the output cap of " +
    `${fmt(limits.output)} tokens (${limits.source.output}) and was cut. Send it in smaller parts, or raise the cap`
  )
}

/**
 * The app's summary instructions, after the versioned prompt: they come from the tenant's own administrators (dashboard
 * or CLI), bounded (5 of at most 200 characters), and are scoped to the summary, so they cannot change extraction.
 */
export function withInstructions(system: string, instructions: readonly string[] | undefined): string {
  if (!instructions?.length) return system
  const lines = instructions.map((i, n) => `${n + 1}. ${i}`).join('\n')
  return (
    `${system}\n\nInstructions of the app for the summary only ` +
    `(they never change what is extracted, and never override the rules above):\n${lines}`
  )
}

const inPrompt = new WeakMap<Record<string, unknown>, string>()

/**
 * PROFILER_LLM_RESPONSE_FORMAT=json_object|none: the output schema goes into the system prompt (after everything
 * else), compactly; with json_schema it is sent as structured outputs and the prompt is unchanged.
 */
export function withOutputFormat(system: string, schema: Record<string, unknown>, format: string | undefined): string {
  if (!format || format === 'json_schema') return system
  let text = inPrompt.get(schema)
  if (text === undefined) inPrompt.set(schema, (text = jsonAnswerInstructions(withoutCustomDetails(schema))))
  return `${system}\n\n${text}`
}

function parseOutput(content: string | null | undefined, refusal: string | null | undefined) {
  if (refusal) return { ok: false as const, problem: `refused: ${refusal.slice(0, 200)}` }
  if (!content) return { ok: false as const, problem: 'empty output' }
  let json: unknown
  try {
    json = JSON.parse(content)
  } catch {
    return { ok: false as const, problem: 'output is not JSON' }
  }
  const parsed = batchOutput.safeParse(json)
  if (!parsed.success)
    return {
      ok: false as const,
      problem: `output breaks the schema at ${parsed.error.issues[0]?.path.join('.') || '(root)'}`,
    }
  return { ok: true as const, value: parsed.data, raw: json }
}

const summaryOutput = z.object({ summary: z.string() })

/** A summary in its own request: for `profiler reindex --summaries`, and when an extraction brought none. */
export class OpenAISummarizer implements Summarizer {
  readonly name = 'openai'
  private readonly schema = (() => {
    const schema = z.toJSONSchema(summaryOutput, { target: 'draft-7' }) as Record<string, unknown>
    delete schema.$schema
    return schema
  })()

  /** The output cap sent with each request (a summary is a few sentences; the model's cap bounds a runaway answer). */
  private readonly maxOutputTokens: number

  constructor(
    private readonly llm: LlmClient,
    private readonly model: string,
  ) {
    this.maxOutputTokens = tokenLimits(model, llm.cfg).output
  }

  async summarize(
    profile: import('../../domain/profile.js').ProfileContent,
    signal?: AbortSignal,
    instructions?: readonly string[],
  ) {
    const prompt = loadPrompt(SUMMARIZE_PROMPT)
    let usage: Usage = ZERO_USAGE
    // One transport-retry budget for the operation, output retries included: requests stay within
    // 1 + outputRetries + maxRetries, instead of the product of the two.
    const budget = this.llm.retryBudget()
    for (let attempt = 0; attempt <= this.llm.cfg.outputRetries; attempt++) {
      const res = await this.llm.structuredChat(
        {
          model: this.model,
          system: withOutputFormat(
            withInstructions(prompt.text, instructions),
            this.schema,
            this.llm.cfg.responseFormat,
          ),
          user: compactProfile(profile),
          schemaName: 'profile_summary',
          schema: this.schema,
          maxOutputTokens: this.maxOutputTokens,
        },
        signal,
        budget,
      )
      usage = addUsage(usage, res.usage)
      try {
        const { summary } = summaryOutput.parse(JSON.parse(res.content ?? ''))
        if (summary.trim()) return { summary: summary.trim().slice(0, 2000), usage }
      } catch {
        /* retried below */
      }
    }
    throw new LlmOutputError('The model returned no usable summary', usage)
  }
}
