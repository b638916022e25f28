import { ConversationFormatError, transcript } from '../conversation.js'
import { evidenceCheck } from '../evidence.js'
import type { Extraction } from '../../domain/profile.js'
import type { ExtractRequest, ExtractResult, Extractor, Summarizer, Usage } from '../types.js'
import { addUsage, LlmOutputError, type LlmClient } from './client.js'
import { ZERO_USAGE } from '../usage.js'
import { compactProfile } from './compact-profile.js'
import { customEvidence, customFromOutput, supportedCustom, withCustomOutput } from './custom-output.js'
import { batchOutput, evidenceOf, outputJsonSchema, supportedOnly, toExtraction, type BatchOutput } from './output.js'
import { EXTRACT_PROMPT, loadPrompt, SUMMARIZE_PROMPT } from './prompts.js'
import { customFieldList, jsonAnswerInstructions, withoutCustomDetails } from './schema-prompt.js'
import { z } from 'zod'

/**
 * One chat request per batch, with structured outputs (strict JSON schema). The same request also writes the
 * summary of the profile after the batch: measured in bench/llm-cost.ts, a second request would add its fixed
 * prompt and the whole profile again for every batch.
 */
export class OpenAIExtractor implements Extractor {
  readonly name = 'openai'
  private readonly schema = outputJsonSchema()

  constructor(
    private readonly llm: LlmClient,
    private readonly model: string,
  ) {}

  /** Output schemas with an app's custom fields, by app and version (a version never changes). */
  private readonly customSchemas = new Map<string, Record<string, unknown>>()

  private schemaFor(req: ExtractRequest): Record<string, unknown> {
    const c = req.customSchema
    if (!c || !Object.keys(c.schema.sections).length) return this.schema
    let s = this.customSchemas.get(c.key)
    if (!s) {
      if (this.customSchemas.size >= 256) this.customSchemas.delete(this.customSchemas.keys().next().value!)
      this.customSchemas.set(c.key, (s = withCustomOutput(this.schema, c.schema)))
    }
    return s
  }

  async extract(req: ExtractRequest, signal?: AbortSignal): Promise<ExtractResult> {
    const prompt = loadPrompt(EXTRACT_PROMPT)
    const schema = this.schemaFor(req)
    // Short ids numbered within the batch: a UUID costs more tokens than a short message.
    const user = JSON.stringify({
      profile: compactProfile(req.profile),
      ...submissionsForModel(req.submissions),
      // The app's fields with what each holds, in every response format: a server that only constrains decoding to
      // the schema (Ollama, vLLM, llama.cpp) never shows the model the schema's descriptions.
      ...(schema !== this.schema && req.customSchema
        ? {
            custom_fields: {
              note: 'Also fill `custom` for each submission with these fields of the app (section.field: type; what it holds). Only what the person states about themselves; null or [] otherwise.',
              fields: customFieldList(req.customSchema.schema),
            },
          }
        : {}),
    })
    const system = withOutputFormat(withInstructions(prompt.text, req.summaryInstructions), schema, this.llm.cfg.responseFormat)
    let usage: Usage = ZERO_USAGE
    let problem = ''
    // One transport-retry budget for the operation, output retries included: requests stay within
    // 1 + outputRetries + maxRetries, instead of the product of the two.
    const budget = this.llm.retryBudget()
    for (let attempt = 0; attempt <= this.llm.cfg.outputRetries; attempt++) {
      const res = await this.llm.structuredChat(
        { model: this.model, system, user, schemaName: 'profile_extraction', schema },
        signal,
        budget,
      )
      usage = addUsage(usage, res.usage)
      const parsed = parseOutput(res.content, res.refusal)
      if (!parsed.ok) {
        problem = parsed.problem
        continue
      }
      return { ...this.assign(req, parsed.value, parsed.raw), usage, promptVersion: prompt.version }
    }
    throw new LlmOutputError(`The model's output was unusable after ${this.llm.cfg.outputRetries + 1} requests: ${problem}`, usage)
  }

  /** Answers are matched to the batch by submission id; anything for another id is ignored (untrusted output). */
  private assign(req: ExtractRequest, out: BatchOutput, raw: unknown) {
    const byId = new Map(out.submissions.map((s) => [s.submission_id, s]))
    // zod strips `custom` (it is not in the fixed schema): it is read from the raw answer and checked against the app's schema.
    const rawCustom = new Map<string, unknown>()
    const rawSubs = (raw as { submissions?: unknown[] }).submissions ?? []
    for (const r of rawSubs) if (r && typeof r === 'object' && 'custom' in r) rawCustom.set(String((r as { submission_id?: unknown }).submission_id), (r as { custom: unknown }).custom)
    const extractions: Extraction[] = []
    const evidence: Record<string, string>[] = []
    for (const [i, sub] of req.submissions.entries()) {
      const id = `s${i + 1}`
      const answer = byId.get(id)
      // Only values whose quote the submission holds (src/ai/evidence.ts).
      const supported = evidenceCheck(sub)
      const o = answer ? supportedOnly(answer, supported).out : undefined
      const ex: Extraction = o ? toExtraction(o) : {}
      const ev = o ? evidenceOf(o) : {}
      if (o && req.customSchema && rawCustom.has(id)) {
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

/** The batch as the model reads it; the date given once when every submission has the same (most batches). */
export function submissionsForModel(subs: ExtractRequest['submissions']) {
  const items = subs.map((s, i) => ({ id: `s${i + 1}`, ...submissionForModel(s) }))
  const date = items[0]?.date
  if (!date || !items.every((s) => s.date === date)) return { submissions: items }
  return { date, submissions: items.map(({ date: _, ...rest }) => rest) }
}

/**
 * One submission as the model reads it: its date (the reference for relative dates and ages), and for a conversation
 * the whole transcript with its speakers' labels and `subject`, the label of the profiled person (the partner's turns
 * are context: the question a "yes" answers, cut short).
 */
export function submissionForModel(s: ExtractRequest['submissions'][number]) {
  const date = s.referenceDate && !Number.isNaN(Date.parse(s.referenceDate)) ? new Date(s.referenceDate).toISOString().slice(0, 10) : undefined
  if (s.inputType !== 'conversation') return { input_type: s.inputType, ...(date ? { date } : {}), text: s.data }
  let t: { subject: string | null; text: string }
  try {
    t = transcript(s.data)
  } catch (e) {
    if (!(e instanceof ConversationFormatError)) throw e
    t = { subject: null, text: '' }
  }
  return { input_type: s.inputType, ...(date ? { date } : {}), subject: t.subject ?? '', text: t.text }
}

/**
 * The app's summary instructions, after the versioned prompt: they come from the tenant's own administrators (dashboard
 * or CLI), bounded (5 of at most 200 characters), and are scoped to the summary, so they cannot change extraction.
 */
export function withInstructions(system: string, instructions: readonly string[] | undefined): string {
  if (!instructions?.length) return system
  const lines = instructions.map((i, n) => `${n + 1}. ${i}`).join('\n')
  return `${system}\n\nInstructions of the app for the summary only (they never change what is extracted, and never override the rules above):\n${lines}`
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
  const r = batchOutput.safeParse(json)
  if (!r.success) return { ok: false as const, problem: `output breaks the schema at ${r.error.issues[0]?.path.join('.') || '(root)'}` }
  return { ok: true as const, value: r.data, raw: json }
}

const summaryOutput = z.object({ summary: z.string() })

/** A summary in its own request: for `profiler reindex --summaries`, and when an extraction brought none. */
export class OpenAISummarizer implements Summarizer {
  readonly name = 'openai'
  private readonly schema = (() => {
    const s = z.toJSONSchema(summaryOutput, { target: 'draft-7' }) as Record<string, unknown>
    delete s.$schema
    return s
  })()

  constructor(
    private readonly llm: LlmClient,
    private readonly model: string,
  ) {}

  async summarize(profile: import('../../domain/profile.js').ProfileContent, signal?: AbortSignal, instructions?: readonly string[]) {
    const prompt = loadPrompt(SUMMARIZE_PROMPT)
    let usage: Usage = ZERO_USAGE
    // One transport-retry budget for the operation, output retries included: requests stay within
    // 1 + outputRetries + maxRetries, instead of the product of the two.
    const budget = this.llm.retryBudget()
    for (let attempt = 0; attempt <= this.llm.cfg.outputRetries; attempt++) {
      const res = await this.llm.structuredChat(
        {
          model: this.model,
          system: withOutputFormat(withInstructions(prompt.text, instructions), this.schema, this.llm.cfg.responseFormat),
          user: compactProfile(profile),
          schemaName: 'profile_summary',
          schema: this.schema,
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
