// A real HTTP server on 127.0.0.1 that speaks the OpenAI wire format (chat completions with structured outputs, and
// embeddings), so the service's unmodified `openai` SDK talks to it over the network (never a mocked SDK:
// CONTRIBUTING.md, "Test").
//
// The "model" behind /v1/chat/completions is the offline LocalExtractor: it reads the batch of submissions from the
// user message, extracts each one and answers in the provider's JSON schema. /v1/embeddings answers with
// deterministic hashed bags of word stems. Every request is recorded (path, parsed body, headers, arrival time, the
// usage reported back), and faults can be queued per test: 429 with Retry-After, 5xx, delays (client timeouts),
// malformed or schema-invalid output, answers for a submission that was not in the batch, reordered answers.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { stemmer } from 'stemmer'
import { ConversationFormatError, parseConversation, subjectTurns } from '../../src/ai/conversation.js'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { summarizeProfile } from '../../src/ai/local/local-summarizer.js'
import { merge } from '../../src/domain/merge.js'
import {
  emptyContent,
  emptyState,
  type Extraction,
  type ProfileContent,
  type Scored,
} from '../../src/domain/profile.js'
import { strictSchemaProblems, validateInstance } from './json-schema-strict.js'
import { compileSchema, readCustomFields } from '../../src/ai/local/custom-fields.js'
import type { CustomField, CustomSchema } from '../../src/domain/custom-schema.js'
import { PROVIDER_MODES, type ProviderMode } from './provider-modes.js'

export interface WireUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
}

export interface UsageTotals {
  promptTokens: number
  completionTokens: number
  totalTokens: number
}

/** One queued fault; applied to the next matching request (chat unless `endpoint` says otherwise). */
export interface Fault {
  /** Which endpoint the fault is for (default chat; 'any': both). */
  endpoint?: 'chat' | 'embeddings' | 'any'
  /** Not consumed: every matching request gets it until `faults.clear()` (a wrong key, a missing model, no quota). */
  persistent?: boolean
  /** One of OpenAI's errors, with its status and exact body (OPENAI_ERRORS); `status` is then implied. */
  error?: OpenAIErrorName
  /** Extra response headers (x-ratelimit-*, retry-after-ms ...). */
  headers?: Record<string, string>
  /** Only a request whose raw body contains this string consumes the fault (default: the next request). */
  match?: string
  /** Answer with this HTTP status and an OpenAI error body (429, 500, 503, 400, 401 ...). */
  status?: number
  /** With status 429: the `Retry-After` header, in seconds. */
  retryAfterSeconds?: number
  /** Wait this long before answering; a client that gave up meanwhile gets nothing. The answer is otherwise normal. */
  delayMs?: number
  /** Answer only once this settles (after `delayMs`, if both): holds a request until a test's condition holds. */
  holdUntil?: Promise<unknown>
  /** The content is not JSON (a truncated answer with finish_reason "stop"). */
  malformedJson?: boolean
  /** Valid JSON that violates the schema: 'missing-submissions' (default) or 'confidence-string'. */
  schemaInvalid?: boolean | 'missing-submissions' | 'confidence-string'
  /**
   * The model also answers for a submission id that was not in the batch (a given id; else the next batch id, s<n+1>,
   * or a UUID).
   */
  injectForeignSubmission?: boolean | string
  /** The model answers for the batch's submissions in reverse order (the provider must match by id). */
  reverseOrder?: boolean
  /** The model refuses: content null, `refusal` set. */
  refusal?: boolean
  /** The answer was cut off: finish_reason "length" with truncated content. */
  truncated?: boolean
  /** Every submission's `custom` answer is this instead (values outside the app's schema, say). */
  customOverride?: unknown
  /** Every submission's answer also proposes this interest, with this evidence (a quote the text may not hold). */
  extraInterest?: { category: string; value: string; evidence: string }
  /** Every submission's answer also proposes this removal, with this evidence. */
  extraRemoval?: {
    section: 'interests' | 'traits' | 'topics_to_avoid'
    category?: string
    value: string
    evidence: string
  }
}

export interface RecordedRequest {
  seq: number
  method: string
  path: string
  headers: Record<string, string>
  /** Parsed JSON body (the raw text when it is not JSON). */
  body: any
  /** Arrival time (ms since epoch). */
  at: number
  kind: 'chat' | 'embeddings' | 'other'
  /** The fault applied to this request, if any. */
  fault?: Fault
  /** Status sent (undefined while in flight or when the client went away first). */
  status?: number
  /** False when the client went away before the answer (a timeout). */
  delivered?: boolean
  /** The usage reported in a delivered 200 answer. */
  usage?: WireUsage
  /** Chat: the batch the model saw. */
  batch?: { submissionIds: string[]; texts: string[]; inputTypes: string[] }
  /** Chat: the answer's message content. */
  content?: string | null
  /** Problems with the request (non-strict schema, unparseable batch) or with our answer against its schema. */
  problems: string[]
}

export interface OpenAIServerOptions {
  /** Dimension for models without a known default (and without `dimensions` in the request). Default 64. */
  defaultDimension?: number
  /** Every chat request takes at least this long, as a real model does (benchmarks of I/O-bound work). Default 0. */
  chatLatencyMs?: number
  /** Clock for relative dates in extraction. */
  now?: () => Date
  /** Which provider the fake behaves as (test/support/provider-modes.ts). Default 'openai'. */
  mode?: ProviderMode
}

export interface FaultQueue {
  /** Queue a fault for the next `times` matching requests. */
  add(fault: Fault, times?: number): void
  clear(): void
  /** Faults not consumed yet. */
  readonly pending: Fault[]
}

export interface OpenAIServer {
  /** Base URL ending in /v1 (what PROFILER_OPENAI_BASE_URL takes). */
  url: string
  requests: RecordedRequest[]
  chatRequests(): RecordedRequest[]
  embeddingRequests(): RecordedRequest[]
  /** Sum of the usage reported in delivered answers (optionally only of the requests that pass `filter`). */
  usageTotals(filter?: (r: RecordedRequest) => boolean): {
    chat: UsageTotals
    embeddings: UsageTotals
    all: UsageTotals
  }
  faults: FaultQueue
  /** Most chat requests in flight at once since start (or since resetStats). */
  maxConcurrentChat(): number
  resetStats(): void
  /** The model changed: every extraction the fake model answers from now on passes through this (undefined: as is). */
  revise?: (ex: Extraction, text: string) => Extraction
  /** The provider the fake behaves as; may be changed between requests. */
  mode: ProviderMode
  close(): Promise<void>
}

export const MODEL_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'test-embed-small': 64,
  'test-embed-large': 128,
}

const tokens = (chars: number) => Math.ceil(chars / 4)

function errorBody(message: string, type: string, code: string | null = null, param: string | null = null) {
  return { error: { message, type, param, code } }
}

/**
 * OpenAI's answers to a misconfigured client, status and body as the API sends them
 * (https://platform.openai.com/docs/guides/error-codes): a wrong key (401 invalid_api_key), a model that does not
 * exist or the key may not use (404 model_not_found), no credit or spend limit reached (429, type and code
 * insufficient_quota: "retrying will not help"), a region not served (403 unsupported_country_region_territory).
 */
export const OPENAI_ERRORS = {
  invalid_api_key: (_body: any) => ({
    status: 401,
    body: errorBody(
      'Incorrect API key provided: sk-wrong****1234. ' +
        'You can find your API key at https://platform.openai.com/account/api-keys.',
      'invalid_request_error',
      'invalid_api_key',
    ),
  }),
  model_not_found: (body: any) => ({
    status: 404,
    body: errorBody(
      `The model \`${String(body?.model ?? '')}\` does not exist or you do not have access to it.`,
      'invalid_request_error',
      'model_not_found',
    ),
  }),
  insufficient_quota: (_body: any) => ({
    status: 429,
    body: errorBody(
      'You exceeded your current quota, please check your plan and billing details. ' +
        'For more information on this error, read the docs: ' +
        'https://platform.openai.com/docs/guides/error-codes/api-errors.',
      'insufficient_quota',
      'insufficient_quota',
    ),
  }),
  unsupported_country: (_body: any) => ({
    status: 403,
    body: errorBody(
      'Country, region, or territory not supported',
      'request_forbidden',
      'unsupported_country_region_territory',
    ),
  }),
}
export type OpenAIErrorName = keyof typeof OPENAI_ERRORS

// ---------------------------------------------------------------------------------------------------------------
// Embeddings: a normalised, signed, hashed bag of lower-cased word stems (seeded by the model name, so two models
// give different vectors for the same text, as real ones do).

const STOP = new Set(
  `a an and are as at be but by for from has have he her his i in is it its me my of on or our she so that the their
  them they this to was we were with you your who whom which what when where how not no do does did am been
  being`.split(/\s+/),
)

function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

export function stems(text: string): string[] {
  const words = text.toLowerCase().match(/\p{L}[\p{L}\p{N}']*|\p{N}+/gu) ?? []
  return words.filter((w) => !STOP.has(w)).map((w) => stemmer(w.replace(/'s$/, '')))
}

export function fakeEmbedding(text: string, dimension: number, model: string): number[] {
  const v = new Array<number>(dimension).fill(0)
  const tf = new Map<string, number>()
  for (const s of stems(text)) tf.set(s, (tf.get(s) ?? 0) + 1)
  for (const [s, n] of tf) {
    const h = fnv1a(`${model}\u0000${s}`)
    const h2 = fnv1a(`${s}\u0000${model}`)
    const w = 1 + Math.log(n)
    v[h % dimension] += (h2 & 1 ? 1 : -1) * w
  }
  let norm = Math.hypot(...v)
  if (norm === 0) {
    v[0] = 1
    norm = 1
  }
  return v.map((x) => x / norm)
}

// ---------------------------------------------------------------------------------------------------------------
// The "model": LocalExtractor over the batch, answered in the provider's output shape.

interface BatchItem {
  id: string
  inputType: string
  text: string
  /** A conversation's profiled speaker, when the request names one. */
  subject?: string
  /** The submission's date, when the request gives one. */
  date?: string
}

/** Finds the batch in the messages: the user message is JSON with a `submissions` array (and a `profile`). */
function findBatch(messages: any[]): { items: BatchItem[]; profile: ProfileContent; problems: string[] } {
  const problems: string[] = []
  const users = messages.filter((m) => m?.role === 'user')
  for (const m of users) {
    const content = messageText(m)
    let parsed: any
    try {
      parsed = JSON.parse(content)
    } catch {
      const start = content.indexOf('{')
      const end = content.lastIndexOf('}')
      if (start < 0 || end <= start) continue
      try {
        parsed = JSON.parse(content.slice(start, end + 1))
        problems.push('the user message is not pure JSON (the batch was found inside it)')
      } catch {
        continue
      }
    }
    const subs = parsed?.submissions
    if (!Array.isArray(subs)) continue
    const items = subs.map((s: any) => ({
      id: String(s.id ?? s.submission_id ?? s.submissionId),
      inputType: String(s.input_type ?? s.inputType ?? 'text'),
      text: String(s.text ?? s.data ?? s.content ?? ''),
      ...(typeof s.subject === 'string' && s.subject ? { subject: s.subject } : {}),
      ...(typeof (s.date ?? parsed.date) === 'string' ? { date: s.date ?? parsed.date } : {}),
    }))
    return { items, profile: parseProfile(parsed.profile), problems }
  }
  problems.push('no user message holds a JSON object with a `submissions` array')
  return { items: [], profile: emptyContent(), problems }
}

/**
 * Reads the compact profile of src/ai/openai/compact-profile.ts back (leniently: "core: name=Ana, age=34" or
 * "name: Ana; age: 34"; "interests: hobbies=hiking, music=jazz" or "interests: hobbies=hiking, jazz; music=x"; ...).
 */
export function parseCompactProfile(text: string): ProfileContent {
  const p = emptyContent()
  const scored = (value: string): Scored<string> => ({ value: value.trim(), confidence: 0.9 })
  const items = (v: string) =>
    v
      .split(/[;,]/)
      .map((x) => x.trim())
      .filter(Boolean)
  const setCore = (k: string, v: string) => {
    if (k === 'age') {
      const n = Number(v)
      if (Number.isFinite(n)) p.core_info.age = { value: n, confidence: 0.9 }
    } else if (k === 'name' || k === 'gender' || k === 'location' || k === 'occupation') p.core_info[k] = scored(v)
  }
  for (const line of text.split('\n')) {
    const m = /^(\w+):\s*(.*)$/.exec(line.trim())
    if (!m) continue
    const key = m[1]!
    const rest = m[2]!
    if (key === 'core') {
      for (const it of items(rest)) {
        const [k, ...v] = it.split('=')
        if (k && v.length) setCore(k.trim(), v.join('=').trim())
      }
    } else if (key === 'interests') {
      let category = 'other'
      for (const it of items(rest)) {
        const eq = it.indexOf('=')
        if (eq > 0) category = it.slice(0, eq).trim()
        const value = eq > 0 ? it.slice(eq + 1).trim() : it
        if (value) (p.interests[category] ??= []).push(scored(value))
      }
    } else if (key === 'traits') p.personality.traits = items(rest).map(scored)
    else if (key === 'topics_to_avoid') p.preferences.topics_to_avoid = items(rest).map(scored)
    else if (key === 'mood') p.personality.mood_trends.recent = scored(rest)
    else if (key === 'conversation_style') p.preferences.conversation_style = scored(rest)
    else if (key === 'preferences') {
      for (const it of items(rest)) {
        const [k, v] = it.split('=')
        if (k?.trim() === 'style' && v) p.preferences.conversation_style = scored(v)
        if (k?.trim() === 'mood' && v) p.personality.mood_trends.recent = scored(v)
      }
    } else if (key === 'memories') {
      p.memories = (rest.includes(';') ? rest.split(';') : rest.split(','))
        .map((x) => x.trim())
        .filter(Boolean)
        .map((x) => {
          const d = /^(\d{4}-\d{2}-\d{2}) (.*)$/.exec(x)
          return d ? { event: d[2]!, date: d[1]! } : { event: x }
        })
    } else {
      for (const part of line.split(';')) {
        const kv = /^\s*(\w+):\s*(.+)$/.exec(part)
        if (kv) setCore(kv[1]!, kv[2]!.trim())
      }
    }
  }
  return p
}

function parseProfile(p: unknown): ProfileContent {
  let v: any = p
  if (typeof p === 'string') {
    try {
      v = JSON.parse(p)
    } catch {
      return parseCompactProfile(p)
    }
  }
  if (!v || typeof v !== 'object' || !v.core_info) return emptyContent()
  const base = emptyContent()
  return {
    core_info: v.core_info ?? base.core_info,
    interests: v.interests ?? base.interests,
    personality: { traits: v.personality?.traits ?? [], mood_trends: v.personality?.mood_trends ?? {} },
    memories: Array.isArray(v.memories) ? v.memories : [],
    preferences: {
      ...(v.preferences?.conversation_style ? { conversation_style: v.preferences.conversation_style } : {}),
      topics_to_avoid: v.preferences?.topics_to_avoid ?? [],
    },
  }
}

function messageText(m: any): string {
  if (typeof m?.content === 'string') return m.content
  if (Array.isArray(m?.content))
    return m.content.map((p: any) => (typeof p === 'string' ? p : (p?.text ?? ''))).join('')
  return ''
}

/** The sentence of `text` that mentions `value` (or one of its words); the first sentence otherwise. */
function evidenceFor(text: string, value: unknown): string {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean)
  const v = String(value ?? '').toLowerCase()
  const words = v.split(/\W+/).filter((w) => w.length > 2)
  const hit =
    sentences.find((s) => v && s.toLowerCase().includes(v)) ??
    sentences.find((s) => words.some((w) => s.toLowerCase().includes(w))) ??
    sentences[0] ??
    text
  return hit.slice(0, 200)
}

/**
 * What the fake model reads as the person's words: a conversation's subject turns when the request names the subject.
 */
export function personWords(item: BatchItem): string {
  if (item.inputType !== 'conversation' || !item.subject) return item.text
  try {
    const same = (a: string) => a.localeCompare(item.subject!, undefined, { sensitivity: 'accent' }) === 0
    return parseConversation(item.text)
      .turns.filter((t) => same(t.speaker))
      .map((t) => t.text)
      .join('\n')
  } catch (e) {
    if (e instanceof ConversationFormatError) return ''
    throw e
  }
}

function extractItem(extractor: LocalExtractor, item: BatchItem): Extraction {
  const referenceDate = item.date ? `${item.date}T12:00:00.000Z` : undefined
  if (item.inputType !== 'conversation')
    return extractor.extractOne({ inputType: 'text', data: item.text, referenceDate })
  if (item.subject) {
    // The transcript with every speaker and the subject named: the model reads the subject's turns as theirs.
    const turns = personWords(item)
      .split('\n')
      .filter((l) => l.trim())
    return turns.length
      ? extractor.extractOne({
          inputType: 'conversation',
          data: turns.map((l) => `Person: ${l}`).join('\n'),
          referenceDate,
        })
      : {}
  }
  // The provider may send the transcript, or (as planned) only the person's turns. Either way the extractor reads it
  // as a conversation, so another speaker's words are never taken as the person's.
  try {
    if (subjectTurns(item.text).length) return extractor.extractOne({ inputType: 'conversation', data: item.text })
  } catch (e) {
    if (!(e instanceof ConversationFormatError)) throw e
  }
  const asTurns = item.text
    .split(/\n+/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => `Person: ${l}`)
    .join('\n')
  return asTurns ? extractor.extractOne({ inputType: 'conversation', data: asTurns }) : {}
}

const round = (n: number | undefined, d = 0.7) => Math.round((n ?? d) * 1000) / 1000

function sv(s: Scored<string> | undefined, text: string) {
  return s ? { value: s.value, confidence: round(s.confidence), evidence: evidenceFor(text, s.value) } : null
}

/** One extraction in the provider's output shape (see src/ai/openai). */
export function toWire(id: string, ex: Extraction, text: string) {
  const ci = ex.core_info ?? {}
  return {
    submission_id: id,
    core_info: {
      name: sv(ci.name, text),
      age: ci.age
        ? {
            value: Math.round(ci.age.value),
            confidence: round(ci.age.confidence),
            evidence: evidenceFor(text, ci.age.value),
          }
        : null,
      gender: sv(ci.gender, text),
      location: sv(ci.location, text),
      occupation: sv(ci.occupation, text),
    },
    interests: Object.entries(ex.interests ?? {}).flatMap(([category, list]) =>
      list.map((i) => ({
        category,
        value: i.value,
        confidence: round(i.confidence),
        evidence: evidenceFor(text, i.value),
      })),
    ),
    traits: (ex.personality?.traits ?? []).map((t) => sv(t, text)!),
    mood: sv(ex.personality?.mood, text),
    memories: (ex.memories ?? []).map((m) => ({
      event: m.event,
      date: m.date ?? null,
      importance: m.importance ?? 'medium',
      confidence: round(m.confidence),
      evidence: evidenceFor(text, m.event),
    })),
    conversation_style: sv(ex.preferences?.conversation_style, text),
    topics_to_avoid: (ex.preferences?.topics_to_avoid ?? []).map((t) => sv(t, text)!),
    removals: (ex.removals ?? []).map((r) => ({
      section: r.section,
      category: r.category ?? null,
      value: r.value,
      evidence: evidenceFor(text, r.value),
    })),
    language: ex.language ?? null,
  }
}

/**
 * The app's custom fields as the request's JSON schema declares them (submissions[].custom): the fake model reads
 * each field's type and description from there, as a real model would, and fills them with the local reader.
 */
export function customSchemaOf(schema: any): CustomSchema | undefined {
  const custom = schema?.properties?.submissions?.items?.properties?.custom
  if (!custom?.properties) return undefined
  const out: CustomSchema = { sections: {} }
  for (const [section, s] of Object.entries<any>(custom.properties)) {
    const fields: Record<string, CustomField> = {}
    for (const [name, f] of Object.entries<any>(s.properties ?? {})) {
      const description = typeof f.description === 'string' ? f.description : undefined
      if (f.type === 'array') {
        fields[name] = { type: 'string[]', ...(description ? { description } : {}) }
        continue
      }
      const v = f.anyOf?.[0]?.properties?.value ?? {}
      if (Array.isArray(v.enum))
        fields[name] = { type: 'enum', values: v.enum, ...(description ? { description } : {}) }
      else
        fields[name] = {
          type: v.type === 'integer' || v.type === 'number' || v.type === 'boolean' ? v.type : 'string',
          ...(description ? { description } : {}),
        }
    }
    out.sections[section] = fields
  }
  return out
}

/**
 * The app's custom fields as the prompt lists them (the user message's `custom_fields.fields`:
 * `{"section.field": "type; what it holds"}`), or undefined.
 */
export function customSchemaFromPrompt(messages: any[]): CustomSchema | undefined {
  for (const m of messages.filter((x) => x?.role === 'user')) {
    let fields: unknown
    try {
      fields = JSON.parse(messageText(m))?.custom_fields?.fields
    } catch {
      continue
    }
    if (!fields || typeof fields !== 'object') continue
    const out: CustomSchema = { sections: {} }
    for (const [path, spec] of Object.entries(fields as Record<string, string>)) {
      const dot = path.indexOf('.')
      const [typePart, ...rest] = String(spec).split('; ')
      const description = rest.join('; ') || undefined
      const t = typePart!.trim()
      const def: CustomField = t.startsWith('one of: ')
        ? { type: 'enum', values: t.slice('one of: '.length).split(' | ') }
        : {
            type: (['string', 'string[]', 'integer', 'number', 'boolean'].includes(t)
              ? t
              : 'string') as CustomField['type'],
          }
      if (description) def.description = description
      ;(out.sections[path.slice(0, dot)] ??= {})[path.slice(dot + 1)] = def
    }
    return out
  }
  return undefined
}

/**
 * The custom fields the fake model fills, and what it knows of each. A model that reads the request's schema takes
 * them from there (types and descriptions); behind a server that only constrains decoding it knows the types (the
 * grammar) but each field's meaning only from the prompt; without a schema in the request, all of it from the prompt.
 */
function customFieldsFor(schema: any, messages: any[], readsSchema: boolean): CustomSchema | undefined {
  const listed = customSchemaFromPrompt(messages)
  if (!schema) return listed
  const fromSchema = customSchemaOf(schema)
  if (!fromSchema || readsSchema) return fromSchema
  for (const [section, fields] of Object.entries(fromSchema.sections)) {
    for (const [name, f] of Object.entries(fields)) {
      delete f.description
      const d = listed?.sections[section]?.[name]?.description
      if (d) f.description = d
    }
  }
  return fromSchema
}

function customWire(schema: CustomSchema, text: string) {
  const found = readCustomFields(text, compileSchema(schema))
  return Object.fromEntries(
    Object.entries(schema.sections).map(([section, fields]) => [
      section,
      Object.fromEntries(
        Object.entries(fields).map(([name, def]) => {
          const v = found[section]?.[name]
          const wire = (x: { value: unknown; confidence: number }) => ({
            value: x.value,
            confidence: round(x.confidence),
            evidence: evidenceFor(text, x.value),
          })
          if (def.type === 'string[]') return [name, Array.isArray(v) ? v.map(wire) : []]
          return [name, v && !Array.isArray(v) ? wire(v) : null]
        }),
      ),
    ]),
  )
}

// ---------------------------------------------------------------------------------------------------------------

export async function startOpenAIServer(opts: OpenAIServerOptions = {}): Promise<OpenAIServer> {
  const defaultDimension = opts.defaultDimension ?? 64
  const extractor = new LocalExtractor({ now: opts.now })
  const requests: RecordedRequest[] = []
  let queue: Fault[] = []
  let inFlightChat = 0
  let maxInFlightChat = 0
  let seq = 0

  const takeFault = (endpoint: 'chat' | 'embeddings', raw: string): Fault | undefined => {
    const i = queue.findIndex(
      (f) => [endpoint, 'any'].includes(f.endpoint ?? 'chat') && (!f.match || raw.includes(f.match)),
    )
    if (i < 0) return undefined
    return queue[i]!.persistent ? queue[i] : queue.splice(i, 1)[0]
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((e) => {
        if (!res.headersSent) send(res, 500, errorBody(`fake server error: ${(e as Error).message}`, 'server_error'))
      })
    })
  })

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed || res.writableEnded) return false
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_fake_${seq}`, ...headers })
    res.end(JSON.stringify(body))
    return true
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    let gone = false
    res.on('close', () => {
      if (!res.writableFinished) gone = true
    })
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    let body: any = raw
    try {
      body = raw ? JSON.parse(raw) : undefined
    } catch {
      /* keep the raw text */
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    )
    const kind =
      url.pathname === '/v1/chat/completions' ? 'chat' : url.pathname === '/v1/embeddings' ? 'embeddings' : 'other'
    const rec: RecordedRequest = {
      seq: ++seq,
      method: req.method ?? '',
      path: url.pathname,
      headers,
      body,
      at: Date.now(),
      kind,
      problems: [],
    }
    requests.push(rec)
    const reply = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
      const ok = !gone && send(res, status, payload, extra)
      rec.delivered = ok
      if (ok) rec.status = status
      return ok
    }

    if (!/^Bearer \S+/.test(headers.authorization ?? '')) {
      reply(
        401,
        errorBody(
          "You didn't provide an API key. You need to provide your API key in an Authorization header " +
            'using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).',
          'invalid_request_error',
        ),
      )
      return
    }
    if (kind === 'other' || req.method !== 'POST') {
      reply(404, errorBody(`Invalid URL (${req.method} ${url.pathname})`, 'invalid_request_error'))
      return
    }
    if (!body || typeof body !== 'object') {
      reply(400, errorBody('We could not parse the JSON body of your request.', 'invalid_request_error'))
      return
    }

    if (kind === 'chat' && Array.isArray(body.messages)) {
      // What the model is asked about, recorded whatever happens to the request next.
      const { items } = findBatch(body.messages)
      if (items.length)
        rec.batch = {
          submissionIds: items.map((i) => i.id),
          texts: items.map((i) => i.text),
          inputTypes: items.map((i) => i.inputType),
        }
    }
    const refusal = PROVIDER_MODES[api.mode].refuse?.(kind, body, headers)
    if (refusal) {
      rec.problems.push(`refused in mode ${api.mode}: ${JSON.stringify(refusal.body).slice(0, 300)}`)
      reply(refusal.status, refusal.body, refusal.headers)
      return
    }
    const fault = takeFault(kind, raw)
    if (fault) rec.fault = fault
    if (kind === 'chat') {
      inFlightChat++
      maxInFlightChat = Math.max(maxInFlightChat, inFlightChat)
    }
    try {
      const delayMs = fault?.delayMs ?? (kind === 'chat' ? opts.chatLatencyMs : undefined)
      if (delayMs) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, delayMs)
          res.once('close', () => {
            clearTimeout(t)
            resolve()
          })
        })
        if (gone) {
          rec.delivered = false
          return
        }
      }
      if (fault?.holdUntil) {
        await Promise.race([
          fault.holdUntil.catch(() => undefined),
          new Promise((resolve) => res.once('close', resolve)),
        ])
        if (gone) {
          rec.delivered = false
          return
        }
      }
      if (fault?.error) {
        const { status, body: errBody } = OPENAI_ERRORS[fault.error](body)
        reply(status, errBody, fault.headers ?? {})
        return
      }
      if (fault?.status) {
        const h: Record<string, string> = { ...fault.headers }
        if (fault.retryAfterSeconds !== undefined) h['retry-after'] = String(fault.retryAfterSeconds)
        const type =
          fault.status === 429 ? 'rate_limit_exceeded' : fault.status >= 500 ? 'server_error' : 'invalid_request_error'
        const msg =
          fault.status === 429 ? 'Rate limit reached for requests (injected).' : `Injected failure ${fault.status}.`
        reply(fault.status, errorBody(msg, type, fault.status === 429 ? 'rate_limit_exceeded' : null), h)
        return
      }
      if (kind === 'embeddings') return embeddings(body, rec, reply)
      return chat(body, rec, fault, reply)
    } finally {
      if (kind === 'chat') inFlightChat--
    }
  }

  function embeddings(body: any, rec: RecordedRequest, reply: (s: number, b: unknown) => boolean) {
    const model = String(body.model ?? '')
    const inputs: unknown[] =
      Array.isArray(body.input) && body.input.length && typeof body.input[0] !== 'number' ? body.input : [body.input]
    if (!model || inputs.some((i) => i === undefined || i === null || i === '')) {
      reply(400, errorBody("'input' and 'model' are required; input must not be empty.", 'invalid_request_error'))
      return
    }
    const texts = inputs.map((i) => (Array.isArray(i) ? i.join(' ') : String(i)))
    // `dimensions` shortens the vectors of a model that takes it; any other model ignores it (its native size).
    const rules = PROVIDER_MODES[api.mode]
    const shortened =
      body.dimensions !== undefined && (rules.takesDimensions?.(model) ?? /text-embedding-3-/.test(model))
        ? body.dimensions
        : undefined
    const dimension = Number(
      shortened ?? rules.embeddingDimension?.(model) ?? MODEL_DIMENSIONS[model] ?? defaultDimension,
    )
    const vectors = texts.map((t) => fakeEmbedding(t, dimension, model))
    const base64 = body.encoding_format === 'base64'
    const promptTokens = texts.reduce((n, t) => n + tokens(t.length), 0)
    const usage = { prompt_tokens: promptTokens, total_tokens: promptTokens }
    const ok = reply(200, {
      object: 'list',
      data: vectors.map((v, index) => ({
        object: 'embedding',
        index,
        embedding: base64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v,
      })),
      model,
      usage,
    })
    if (ok) rec.usage = { ...usage, completion_tokens: 0 }
  }

  function chat(body: any, rec: RecordedRequest, fault: Fault | undefined, reply: (s: number, b: unknown) => boolean) {
    const sent: any[] = Array.isArray(body.messages) ? body.messages : []
    // What the model reads of them (a provider may silently drop part of an over-long prompt).
    const messages: any[] = PROVIDER_MODES[api.mode].messages?.(sent, body) ?? sent
    // The provider's own log line (Ollama: "truncating input prompt"), the only trace a real one leaves.
    if (messages !== sent)
      rec.problems.push(`mode ${api.mode}: the provider dropped the start of the prompt to fit its context`)
    if (!sent.length || !body.model) {
      reply(400, errorBody("'messages' and 'model' are required.", 'invalid_request_error'))
      return
    }
    const rf = body.response_format
    let schema: any
    if (rf?.type === 'json_schema') {
      schema = rf.json_schema?.schema
      const name = rf.json_schema?.name
      if (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
        reply(
          400,
          errorBody(
            "Invalid 'response_format.json_schema.name': must match ^[a-zA-Z0-9_-]{1,64}$.",
            'invalid_request_error',
            'invalid_value',
            'response_format.json_schema.name',
          ),
        )
        return
      }
      if (rf.json_schema?.strict === true) {
        const problems = strictSchemaProblems(schema)
        if (problems.length) {
          rec.problems.push(...problems)
          reply(
            400,
            errorBody(
              `Invalid schema for response_format '${name}': In ${problems[0]}`,
              'invalid_request_error',
              'invalid_json_schema',
              'response_format',
            ),
          )
          return
        }
      } else rec.problems.push('response_format.json_schema.strict is not true')
    }

    let answer: any
    const props = schema?.properties ?? {}
    const promptChars = messages.reduce((n, m) => n + messageText(m).length, 0)
    // Without a schema in response_format (JSON mode, or none: the shape is in the prompt), what is asked is read from
    // the messages: a batch of submissions, or else a profile to summarize.
    const extraction = schema ? 'submissions' in props || !('summary' in props) : findBatch(messages).items.length > 0
    const wantsJson = !!schema || rf?.type === 'json_object' || messages.some((m) => /json/i.test(messageText(m)))
    if (extraction) {
      // An extraction request.
      const { items, profile, problems } = findBatch(messages)
      rec.problems.push(...problems)
      rec.batch = {
        submissionIds: items.map((i) => i.id),
        texts: items.map((i) => i.text),
        inputTypes: items.map((i) => i.inputType),
      }
      const extractions = items.map((i) => {
        const ex = extractItem(extractor, i)
        return api.revise ? api.revise(ex, i.text) : ex
      })
      const state = { ...emptyState(), content: profile }
      const merged = merge(state, extractions, new Date().toISOString())
      let entries: any[] = items.map((item, i) => toWire(item.id, extractions[i]!, personWords(item)))
      const custom = customFieldsFor(schema, messages, PROVIDER_MODES[api.mode].modelReadsSchema !== false)
      if (custom)
        entries = entries.map((e, i) => ({
          ...e,
          custom:
            fault && 'customOverride' in fault ? fault.customOverride : customWire(custom, personWords(items[i]!)),
        }))
      if (fault?.extraInterest) for (const e of entries) e.interests.push({ ...fault.extraInterest, confidence: 0.9 })
      if (fault?.extraRemoval) for (const e of entries) e.removals.push({ category: null, ...fault.extraRemoval })
      if (fault?.reverseOrder) entries = [...entries].reverse()
      if (fault?.injectForeignSubmission) {
        // A given id, else the id that would come next in the batch (ids like s1, s2 ...), else a fresh UUID.
        const short = items.length > 0 && items.every((i) => /^s\d+$/.test(i.id))
        const foreignId =
          typeof fault.injectForeignSubmission === 'string'
            ? fault.injectForeignSubmission
            : short
              ? `s${items.length + 1}`
              : randomUUID()
        const copy = entries[0] ? structuredClone(entries[0]) : toWire(foreignId, {}, '')
        copy.submission_id = foreignId
        copy.core_info.name = { value: 'Mallory', confidence: 0.99, evidence: 'Mallory' }
        entries.push(copy)
      }
      answer = { submissions: entries, summary: summarizeProfile(merged.state.content) }
    } else {
      // A summary request: the profile is JSON in the user message.
      const user = messages
        .filter((m) => m.role === 'user')
        .map(messageText)
        .join('\n')
      let profile: ProfileContent
      try {
        const parsed = JSON.parse(user)
        profile = parseProfile(parsed.profile ?? parsed)
      } catch {
        profile = parseCompactProfile(user)
        if (user.trim() !== '(empty)' && summarizeProfile(profile) === summarizeProfile(emptyContent())) {
          rec.problems.push('summary request: the fake model could not read the compact profile (format changed?)')
        }
      }
      answer = { summary: summarizeProfile(profile) }
    }
    if (schema && !fault?.schemaInvalid && !fault?.injectForeignSubmission) {
      const errors = validateInstance(schema, answer)
      if (errors.length)
        rec.problems.push(...errors.slice(0, 10).map((e) => `fake model answer outside the schema: ${e}`))
    }

    let content: string | null = wantsJson ? JSON.stringify(answer) : String(answer.summary)
    let finish = 'stop'
    let refusal: string | null = null
    if (fault?.schemaInvalid) {
      if (fault.schemaInvalid === 'confidence-string') {
        const bad = structuredClone(answer)
        for (const s of bad.submissions ?? []) {
          s.core_info.name = { value: 'Nobody', confidence: 'very high', evidence: 'Nobody' }
          for (const i of s.interests) i.confidence = String(i.confidence)
        }
        content = JSON.stringify(bad)
      } else {
        const { submissions, ...rest } = answer
        content = JSON.stringify({ ...rest, results: submissions ?? [] })
      }
    }
    if (fault?.malformedJson) content = `Here is the extraction you asked for: ${JSON.stringify(answer).slice(0, 40)}`
    if (fault?.truncated) {
      content = JSON.stringify(answer).slice(0, Math.max(10, Math.floor(JSON.stringify(answer).length / 2)))
      finish = 'length'
    }
    if (fault?.refusal) {
      refusal = "I'm sorry, I can't help with that."
      content = null
    }
    // The output cap: the request's own (max_completion_tokens, or the older max_tokens), or the model's limit in this
    // mode; an answer longer than that is cut, with finish_reason "length", as every provider does.
    const caps = [body.max_completion_tokens, body.max_tokens, PROVIDER_MODES[api.mode].outputCap?.(body)].filter(
      (n): n is number => typeof n === 'number' && n > 0,
    )
    const cap = caps.length ? Math.min(...caps) : undefined
    if (content !== null && cap !== undefined && tokens(content.length) > cap) {
      content = content.slice(0, cap * 4)
      finish = 'length'
    }
    const usage: WireUsage = {
      prompt_tokens: tokens(promptChars),
      completion_tokens: tokens((content ?? refusal ?? '').length),
      total_tokens: 0,
    }
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens
    rec.content = content
    const ok = reply(200, {
      id: `chatcmpl-fake${rec.seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: String(body.model),
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal, annotations: [] },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage: {
        ...usage,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
    })
    if (ok) rec.usage = usage
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  const sum = (rs: RecordedRequest[]): UsageTotals =>
    rs.reduce(
      (a, r) => ({
        promptTokens: a.promptTokens + (r.usage?.prompt_tokens ?? 0),
        completionTokens: a.completionTokens + (r.usage?.completion_tokens ?? 0),
        totalTokens: a.totalTokens + (r.usage?.total_tokens ?? 0),
      }),
      { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    )

  const api: OpenAIServer = {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.kind === 'chat'),
    embeddingRequests: () => requests.filter((r) => r.kind === 'embeddings'),
    usageTotals(filter = () => true) {
      const delivered = requests.filter((r) => r.delivered && r.status === 200 && r.usage && filter(r))
      return {
        chat: sum(delivered.filter((r) => r.kind === 'chat')),
        embeddings: sum(delivered.filter((r) => r.kind === 'embeddings')),
        all: sum(delivered),
      }
    },
    faults: {
      add(fault, times = 1) {
        for (let i = 0; i < times; i++) queue.push({ ...fault })
      },
      clear() {
        queue = []
      },
      get pending() {
        return [...queue]
      },
    },
    maxConcurrentChat: () => maxInFlightChat,
    mode: opts.mode ?? 'openai',
    resetStats() {
      maxInFlightChat = inFlightChat
    },
    async close() {
      queue = []
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
  return api
}

/** The provider, configured only by environment (docs/guides/ai-providers.md). */
export function openaiEnv(oa: OpenAIServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PROFILER_AI: 'openai',
    OPENAI_API_KEY: 'test-key',
    PROFILER_OPENAI_BASE_URL: oa.url,
    PROFILER_CHAT_MODEL: 'test-chat',
    PROFILER_EMBEDDING_MODEL: 'test-embed-small',
    PROFILER_EMBEDDING_DIMENSIONS: '64',
    PROFILER_LLM_TIMEOUT_MS: '3000',
    PROFILER_LLM_MAX_RETRIES: '3',
    PROFILER_LLM_OUTPUT_RETRIES: '2',
    PROFILER_LLM_CONCURRENCY: '2',
    PROFILER_RETRY_BASE_MS: '100',
    ...extra,
  }
}
