import type { DataSource } from 'typeorm'
import { CONTEXT_ENCODING } from '../ai/profile-context.js'
import type { Embedder } from '../ai/types.js'
import type { ProfileRepository } from '../db/profile.repository.js'
import { DomainError } from '../domain/errors.js'
import { contextParamsSchema, parseRequest } from '../domain/requests.js'
import { checkProfileId, checkStorable } from '../domain/validation.js'
import { withOwnSignal, type RequestContext } from './context.js'
import type { CpuPool } from './cpu/cpu.js'

/** At most this many facts of one profile (the most confident) are embedded for a query; the rest rank lexically. */
export const MAX_EMBEDDED_FACTS = 256
/** Fact and query vectors kept across requests (least recently used dropped), so a profile is embedded once. */
const VECTOR_CACHE_ENTRIES = 4096

export interface ContextParams {
  maxTokens?: number
  query?: string
}

export interface ProfileContext {
  profileId: string
  status: 'processing' | 'ready'
  text: string
  tokens: number
  maxTokens: number
  encoding: string
  factsIncluded: number
  factsTotal: number
  summaryIncluded: boolean
  truncated: boolean
  /** confidence: no query; query: lexical + embedding relevance; query_lexical: the embedder failed, words only. */
  rankedBy: 'confidence' | 'query' | 'query_lexical'
}

/** A profile as compact text for an LLM prompt under a token budget (issue 14). */
export class ProfileContextService {
  private readonly schema = contextParamsSchema()
  private readonly vectors = new Map<string, Float32Array>()

  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileRepository,
    private readonly embedder: Embedder,
    private readonly cpu: CpuPool,
  ) {}

  async context(ctx: RequestContext, profileId: string, params: ContextParams): Promise<ProfileContext> {
    return withOwnSignal(ctx.signal, (signal) => this.build(ctx, profileId, params, signal))
  }

  private async build(ctx: RequestContext, profileId: string, params: ContextParams, signal: AbortSignal | undefined): Promise<ProfileContext> {
    checkProfileId(profileId)
    const p = parseRequest(this.schema, { max_tokens: params.maxTokens, query: params.query })
    checkStorable(p.query, 'query parameter query')
    const query = p.query?.replace(/\s+/g, ' ').trim() || undefined
    // The profile as JSON text: the facts, their ranking and the composition grow with it, so the CPU thread parses and
    // computes them (a profile at the limits costs a tenth of a second or more); the event loop passes text and numbers.
    const record = await this.profiles.findText(this.ds.manager, ctx.tenantId, profileId)
    if (!record) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
    const source = { content: record.content, timestamps: record.field_timestamps }
    let rankedBy: ProfileContext['rankedBy'] = 'confidence'
    let relevance: Float64Array | undefined
    if (query) {
      const ranking = await this.cpu.rankContext({ ...source, query, maxEmbedded: MAX_EMBEDDED_FACTS }, { signal })
      if (ranking.count) {
        const semantic = await this.semanticScores(query, ranking.count, ranking.embed, signal).catch(() => undefined)
        signal?.throwIfAborted()
        rankedBy = semantic ? 'query' : 'query_lexical'
        // Rounded, so float noise in a provider's vectors cannot reorder facts between two identical requests.
        relevance = ranking.lexical.map((l, i) => Math.round((semantic ? (l + semantic[i]!) / 2 : l) * 1000) / 1000)
      }
    }
    const c = await this.cpu.composeContext({ ...source, summary: record.summary, ...(relevance ? { relevance } : {}), maxTokens: p.max_tokens }, { signal })
    return {
      profileId: record.profile_id,
      status: record.status,
      text: c.text,
      tokens: c.tokens,
      maxTokens: p.max_tokens,
      encoding: CONTEXT_ENCODING,
      factsIncluded: c.factsIncluded,
      factsTotal: c.factsTotal,
      summaryIncluded: c.summaryIncluded,
      truncated: c.truncated,
      rankedBy,
    }
  }

  /**
   * Calibrated similarity (the embedder's own score curve, as search uses, / 100) of the query to each fact; the
   * MAX_EMBEDDED_FACTS most confident facts only, the others 0. One embed
   * call at most per request, for the texts not yet cached.
   */
  private async semanticScores(query: string, count: number, embed: { index: number; text: string }[], signal?: AbortSignal): Promise<number[]> {
    const model = this.embedder.model
    // The most confident facts (ties: the order facts come in: the ranking chose them), so which are embedded is deterministic.
    const wanted = [...new Set([query, ...embed.map((e) => e.text)])]
    const found = new Map<string, Float32Array>()
    for (const t of wanted) {
      const v = this.recall(`${model}\n${t}`)
      if (v) found.set(t, v)
    }
    const missing = wanted.filter((t) => !found.has(t))
    if (missing.length) {
      const { vectors } = await this.embedder.embed(missing, signal)
      missing.forEach((t, i) => {
        const v = Float32Array.from(vectors[i]!)
        found.set(t, v)
        this.remember(`${model}\n${t}`, v)
      })
    }
    const qv = found.get(query)!
    const cal = this.embedder.calibration
    const scores = new Array<number>(count).fill(0)
    for (const e of embed) {
      const v = found.get(e.text)!
      let dot = 0
      for (let k = 0; k < qv.length; k++) dot += qv[k]! * v[k]!
      scores[e.index] = cal.toScore(Math.max(-1, Math.min(1, dot))) / 100
    }
    return scores
  }

  private recall(key: string): Float32Array | undefined {
    const v = this.vectors.get(key)
    if (v) {
      this.vectors.delete(key)
      this.vectors.set(key, v)
    }
    return v
  }

  private remember(key: string, v: Float32Array): void {
    this.vectors.set(key, v)
    while (this.vectors.size > VECTOR_CACHE_ENTRIES) this.vectors.delete(this.vectors.keys().next().value!)
  }
}
