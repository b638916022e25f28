import type { DataSource } from 'typeorm'
import { CONTEXT_ENCODING, passageDatesFor, passageRankText, type ContextPassage } from '../ai/profile-context.js'
import { toSql } from 'pgvector'
import { NEAREST_SCAN, PassageRepository, type PassageKey, type PassageRow } from '../db/passage.repository.js'
import { anyWordsQuery, asksLikes, passageQuery, textSearchConfig } from '../domain/passages.js'
import { mayBeMisspelt, spellingCorrections, uncommonTerms, type SpellingAlternative } from '../domain/spelling.js'
import { tokens } from '../domain/normalise.js'
import { writtenWords } from '../domain/lexical.js'
import { TypoDictionary } from './typo-dictionary.js'
import { nameLabel } from '../ai/conversation.js'
import type { Embedder } from '../ai/types.js'
import type { ProfileRepository, ProfileText } from '../db/profile.repository.js'
import { DomainError } from '../domain/errors.js'
import { contextParamsSchema, parseRequest } from '../domain/requests.js'
import { checkProfileId, checkStorable } from '../domain/validation.js'
import { withOwnSignal, type RequestContext } from './context.js'
import { FairPacer, LargeMemo, remember } from './pacer.js'
import type { CpuPool } from './cpu/cpu.js'

/** At most this many facts of one profile (the most confident) are embedded for a query; the rest rank lexically. */
export const MAX_EMBEDDED_FACTS = 256
/** Fact and query vectors kept across requests (least recently used dropped), so a profile is embedded once. */
const VECTOR_CACHE_ENTRIES = 4096

/** What a context is made of: the facts and the evidence passages (default), or one of them. */
export type ContextInclude = 'all' | 'facts' | 'passages'

export interface ContextOptions {
  /**
   * Passages of a profile (the newest) a context reads at most for its query's words (PROFILER_CONTEXT_SCAN_PASSAGES),
   * in each of its two walks (as written, then with what misspelt words may mean): words no passage says would
   * otherwise have a context read every passage of the profile, twice.
   */
  scanPassages: number
}

export interface ContextParams {
  maxTokens?: number
  query?: string
  include?: ContextInclude
}

/** Passages matched by words (the query's BM25 candidates), and by meaning, considered at most per request. */
export const PASSAGE_CANDIDATES = 500
export const PASSAGE_NEAREST = 50
/**
 * A profile with more passages than this has them read one statement at a time in the process, the tenants taking
 * turns, and each tenant resting after a read as long again as it took (FairPacer): on the embedded database, 10
 * contexts at once of a profile at the 20,000 passage limit kept another tenant's request waiting 8-10 s. Smaller
 * profiles (most) are read at once.
 */
export const PACED_PASSAGES = 2000
/**
 * Passages one statement of a context's reads walks at most, by words (LEXICAL_WINDOW) and by meaning (NEAREST_WINDOW).
 * On the embedded database a statement holds the one session every request waits for: 500 passages at their size
 * bounds took 5-7 ms on a fresh table and 40-55 ms once every row had been updated (dead tuples, no autovacuum).
 */
export const LEXICAL_WINDOW = 250
export const NEAREST_WINDOW = 250
/**
 * A paced window of a query of more words than this holds fewer passages, in proportion (at least MIN_LEXICAL_WINDOW):
 * matching a passage costs about one check per word, and a paced read that takes longer keeps another tenant's read
 * waiting longer.
 */
const WORDS_PER_FULL_WINDOW = 8
const MIN_LEXICAL_WINDOW = 50
/** How long a profile's count of passages (pacing) is taken as known, and for how many profiles at most. */
const PACING_TTL_MS = 10_000
const PACING_MEMORY = 1000
/** How a context's passage reads run: paced (a large profile) or at once. */
type Paced = (<T>(fn: () => Promise<T>) => Promise<T>) & { readonly large: boolean }
/**
 * A passage's score: its BM25 score over the best one's (in [0, 1]), plus this weight times its similarity to the query
 * by meaning (1 - cosine distance) when it is among the nearest. The words decide, the meaning adds what they miss. On
 * the memory evaluation's long histories (40 persons, msc-dev), against reciprocal rank fusion (k 60, the meaning at
 * 0.3): topics asked as questions 68.3 -> 69.1 % of the answers at 500 tokens, 41.7 -> 44.0 % at 150; bare topics 71.2
 * -> 71.7 / 50.9 -> 52.4 %. A weight of 0.15 gave the same (69.2 / 44.1 %), 0.6 and 1 less (69.1 / 43.6, 68.7 / 43.3).
 */
const VECTOR_WEIGHT = 0.3

export interface ProfileContext {
  profileId: string
  status: 'processing' | 'ready'
  text: string
  tokens: number
  maxTokens: number
  encoding: string
  factsIncluded: number
  factsTotal: number
  /** Evidence passages quoted (docs/guides/evidence.md, "Evidence passages"). */
  passagesIncluded: number
  include: ContextInclude
  summaryIncluded: boolean
  truncated: boolean
  /** confidence: no query; query: lexical + embedding relevance; query_lexical: the embedder failed, words only. */
  rankedBy: 'confidence' | 'query' | 'query_lexical'
}

/** A profile as compact text for an LLM prompt under a token budget (docs/guides/context.md). */
export class ProfileContextService {
  private readonly schema = contextParamsSchema()
  private readonly vectors = new Map<string, Float32Array>()
  /** The reads of large profiles' passages, tenants served in turn. */
  private readonly pacer = new FairPacer()
  private readonly scanPassages: number
  /**
   * Whether a profile has more than PACED_PASSAGES visible passages, as last counted (pacing), by tenant and profile.
   */
  private readonly sizes = new LargeMemo(PACING_TTL_MS, PACING_MEMORY)

  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileRepository,
    private readonly embedder: Embedder,
    private readonly cpu: CpuPool,
    private readonly passages: PassageRepository = new PassageRepository(),
    /** What a misspelt query word is corrected into (docs/guides/search.md, "Typos"); shared with search. */
    private readonly typos: TypoDictionary = new TypoDictionary(),
    opts: ContextOptions,
  ) {
    this.scanPassages = Math.max(1, opts.scanPassages)
  }

  async context(ctx: RequestContext, profileId: string, params: ContextParams): Promise<ProfileContext> {
    return withOwnSignal(ctx.signal, (signal) => this.build(ctx, profileId, params, signal))
  }

  private async build(
    ctx: RequestContext,
    profileId: string,
    params: ContextParams,
    signal: AbortSignal | undefined,
  ): Promise<ProfileContext> {
    checkProfileId(profileId)
    const parsed = parseRequest(this.schema, {
      max_tokens: params.maxTokens,
      query: params.query,
      include: params.include,
    })
    checkStorable(parsed.query, 'query parameter query')
    const query = parsed.query?.replace(/\s+/g, ' ').trim() || undefined
    const include: ContextInclude = parsed.include
    // The profile as JSON text: the facts, their ranking and the composition grow with it, so the CPU thread parses and
    // computes them (a profile at the limits costs a tenth of a second or more); the event loop passes text and
    // numbers.
    const record = await this.profiles.findText(this.ds.manager, ctx.tenantId, profileId)
    if (!record) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
    const source = { content: record.content, timestamps: record.field_timestamps, said: record.said_at }
    let rankedBy: ProfileContext['rankedBy'] = 'confidence'
    let relevance: Float64Array | undefined
    let queryVector: Float32Array | undefined
    // Evidence passages: with a query, the most relevant ones (facts and passages); without one, only when asked for
    // (passages only: the newest). Without a query a context of both stays the facts it always was.
    const withPassages = include === 'passages' || (include === 'all' && !!query)
    // What the passages are looked up by (passageQuery), known first, so that its vector comes in the facts' embedding
    // request (one request, not two, for a new question).
    const lookup = withPassages && query ? await this.passageLookup(ctx.tenantId, record, query, signal) : undefined
    if (query && include !== 'passages') {
      const meant = await this.corrections(query)
      const likes = asksLikes(lookup ?? passageQuery(query, [record.name]))
      const ranking = await this.cpu.rankContext(
        {
          ...source,
          query,
          maxEmbedded: MAX_EMBEDDED_FACTS,
          ...(meant.length ? { meant } : {}),
          ...(likes ? { asksLikes: true } : {}),
        },
        { signal },
      )
      if (ranking.count) {
        const semantic = await this.semanticScores(query, ranking.count, ranking.embed, signal, lookup).catch(
          () => undefined,
        )
        signal?.throwIfAborted()
        rankedBy = semantic ? 'query' : 'query_lexical'
        queryVector = semantic ? this.recall(`${this.embedder.model}\n${query}`) : undefined
        // Rounded, so float noise in a provider's vectors cannot reorder facts between two identical requests.
        relevance = ranking.lexical.map((l, i) => Math.round((semantic ? (l + semantic[i]!) / 2 : l) * 1000) / 1000)
      }
    }
    let passages: ContextPassage[] | undefined
    let asked: string | undefined
    let label: string | undefined
    if (withPassages) {
      const ranked = await this.rankedPassages(ctx.tenantId, record, query, lookup, queryVector, signal)
      passages = ranked.passages
      asked = ranked.asked
      label = ranked.label
      if (query) rankedBy = ranked.semantic || rankedBy === 'query' ? 'query' : 'query_lexical'
    }
    const composed = await this.cpu.composeContext(
      {
        ...source,
        summary: include === 'passages' ? null : record.summary,
        ...(relevance ? { relevance } : {}),
        ...(passages ? { passages, passageDates: passageDatesFor(query), ...(asked ? { query: asked } : {}) } : {}),
        ...(include === 'passages' ? { factsOff: true } : {}),
        ...(label ? { label } : {}),
        maxTokens: parsed.max_tokens,
      },
      { signal },
    )
    return {
      profileId: record.profile_id,
      status: record.status,
      text: composed.text,
      tokens: composed.tokens,
      maxTokens: parsed.max_tokens,
      encoding: CONTEXT_ENCODING,
      factsIncluded: composed.factsIncluded,
      factsTotal: include === 'passages' ? 0 : composed.factsTotal,
      passagesIncluded: composed.passagesIncluded,
      include,
      summaryIncluded: composed.summaryIncluded,
      truncated: composed.truncated,
      rankedBy,
    }
  }

  /**
   * A profile's passages for a context: with a query, BM25 over the passages that share a word with it (matched by
   * PostgreSQL full text in the profile's language and exactly) and the passages nearest to `asked` by meaning, scored
   * together (VECTOR_WEIGHT); without one, the newest. Best first. `asked`: what they were looked up, ranked (and are
   * focused) by: the query without its words about speech and without the person's own names, their name in the
   * profile and the label of their turns (passageQuery), with what its misspelt words may have meant (meant).
   */
  private async rankedPassages(
    tenantId: string,
    profile: Pick<ProfileText, 'profile_id' | 'language' | 'name'>,
    fullQuery: string | undefined,
    lookup: string | undefined,
    queryVector: Float32Array | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ passages: ContextPassage[]; semantic: boolean; asked?: string; label?: string }> {
    const manager = this.ds.manager
    const { profile_id: profileId, language } = profile
    const asContext = (r: PassageRow): ContextPassage => ({ text: r.text, prompt: r.prompt, at: r.occurred_at })
    if (!fullQuery) {
      const newest = await this.passages.newest(manager, tenantId, profileId, PASSAGE_CANDIDATES)
      return { passages: newest.map(asContext), semantic: false, ...labelOf(newest) }
    }
    const paced = await this.pacing(tenantId, profileId, signal)
    const query = lookup ?? (await this.passageLookup(tenantId, profile, fullQuery, signal))
    // Words: windows of the newest passages until PASSAGE_CANDIDATES match, or scanPassages are read; BM25 measures
    // word rarity on what was read.
    const scan = async (terms: string): Promise<{ rows: PassageRow[]; scanned: number }> => {
      const rows: PassageRow[] = []
      let scanned = 0
      let after: PassageKey | null = null
      while (terms && scanned < this.scanPassages) {
        const from = after
        const window = Math.min(lexicalWindowFor(terms, paced.large), this.scanPassages - scanned)
        const page: Awaited<ReturnType<PassageRepository['lexicalWindow']>> = await paced(() =>
          this.passages.lexicalWindow(manager, tenantId, profileId, {
            terms,
            config: textSearchConfig(language),
            after: from,
            window,
          }),
        )
        scanned += page.scanned
        rows.push(...page.matches.slice(0, PASSAGE_CANDIDATES - rows.length))
        if (page.scanned < window || rows.length >= PASSAGE_CANDIDATES) break
        after = page.last
      }
      return { rows, scanned }
    }
    let { rows: lexical, scanned } = await scan(anyWordsQuery(query))
    // A word no passage read says, and no common word, may be misspelt (docs/guides/search.md, "Typos"): what it may
    // have meant is looked up and ranked too ("dughter": daughter), in one more walk of the windows. It reads no
    // further than the first: it matches every word the first did, so it has its matches as soon.
    const meant = await this.meant(query, lexical)
    const ranked = meant.length ? `${query} ${meant.join(' ')}` : query
    if (meant.length) ({ rows: lexical, scanned } = await scan(anyWordsQuery(ranked)))
    signal?.throwIfAborted()
    const key = (r: { submission_id: string; position: number }) => `${r.submission_id}:${r.position}`
    const fused = new Map<string, { row: PassageRow; score: number }>()
    if (lexical.length) {
      const bm25 = await this.cpu.rankPassages(
        { query: ranked, texts: lexical.map(passageRankText), said: lexical.map((r) => r.text), total: scanned },
        { signal },
      )
      const best = Math.max(0, ...bm25)
      lexical.forEach((row, index) => {
        if (bm25[index]! > 0) fused.set(key(row), { row, score: bm25[index]! / best })
      })
    }
    let semantic = false
    // By meaning, the passages are looked up with what they are looked up by in words: the query without the words
    // about speech and the person's names (the facts' vector, of the whole query, only when that is the same text).
    const vector =
      (query === fullQuery ? queryVector : undefined) ?? (await this.queryVector(query, signal).catch(() => undefined))
    if (vector) {
      semantic = true
      for (const { passage, distance } of await this.nearest(tenantId, profileId, vector, paced)) {
        const meaningScore = VECTOR_WEIGHT * Math.max(0, 1 - distance)
        const entry = fused.get(key(passage))
        if (entry) entry.score += meaningScore
        else fused.set(key(passage), { row: passage, score: meaningScore })
      }
    }
    // Rounded, so float noise in a provider's vectors cannot reorder passages between two identical requests.
    for (const f of fused.values()) f.score = Math.round(f.score * 1e6) / 1e6
    const ordered = [...fused.values()].sort(
      (a, b) => b.score - a.score || b.row.occurred_at.localeCompare(a.row.occurred_at),
    )
    return {
      passages: ordered.map((x) => asContext(x.row)),
      semantic,
      asked: ranked,
      ...labelOf(ordered.map((x) => x.row)),
    }
  }

  /**
   * The PASSAGE_NEAREST passages nearest to `vector` by meaning among the newest NEAREST_SCAN embedded with the
   * embedder's model, nearest first (then the newest, then by submission and position): measured a window per
   * statement, each giving its own nearest. An exact scan (no index is needed within one profile), bounded; older
   * passages are found by their words.
   */
  private async nearest(
    tenantId: string,
    profileId: string,
    vector: Float32Array,
    paced: Paced,
  ): Promise<{ passage: PassageRow; distance: number }[]> {
    const manager = this.ds.manager
    const sql = toSql(Array.from(vector))
    const found: { key: PassageKey; distance: number; passage: PassageRow }[] = []
    let after: PassageKey | null = null
    for (let measured = 0; measured < NEAREST_SCAN; ) {
      const from = after
      const page: Awaited<ReturnType<PassageRepository['nearestWindow']>> = await paced(() =>
        this.passages.nearestWindow(manager, tenantId, profileId, {
          vector: sql,
          model: this.embedder.model,
          after: from,
          window: NEAREST_WINDOW,
          top: PASSAGE_NEAREST,
        }),
      )
      for (const r of page.rows) if (r.passage) found.push({ ...r, passage: r.passage })
      measured += page.rows.length
      if (page.rows.length < NEAREST_WINDOW) break
      after = page.last
    }
    found.sort(
      (a, b) =>
        a.distance - b.distance ||
        b.key[0].localeCompare(a.key[0]) ||
        a.key[1].localeCompare(b.key[1]) ||
        a.key[2] - b.key[2],
    )
    return found.slice(0, PASSAGE_NEAREST)
  }

  /**
   * How a context reads a profile's passages: a profile with more than PACED_PASSAGES visible ones has its reads paced
   * (FairPacer, the tenants in turn), a smaller one (most) read at once. Which one a profile is, is known for
   * PACING_TTL_MS after one context asked (concurrent contexts of one profile ask once), so that a burst of contexts of
   * a large profile does not first queue a count each.
   */
  private async pacing(tenantId: string, profileId: string, signal: AbortSignal | undefined): Promise<Paced> {
    const large = await this.sizes.isLarge(`${tenantId}\n${profileId}`, () =>
      this.passages
        .visibleUpTo(this.ds.manager, tenantId, profileId, PACED_PASSAGES + 1)
        .then((n) => n > PACED_PASSAGES),
    )
    const run = <T>(fn: () => Promise<T>): Promise<T> =>
      large ? this.pacer.run(tenantId, () => (signal?.throwIfAborted(), fn())) : fn()
    return Object.assign(run, { large })
  }

  /**
   * What the query's misspelt words may have meant, as dictionary words (spellingCorrections): for each word of the
   * query that is no common word (uncommonTerms) and that none of the passages `read` says (its stem nowhere in their
   * text or prompt), the dictionary's words one edit away or the two words it joins. Nothing for a query of common
   * words (a few map lookups: no passage text is read), or when the passages say them.
   */
  private async meant(query: string, read: readonly PassageRow[]): Promise<string[]> {
    const fixes = await this.spellingFixes(query, (term) => {
      // Case-insensitively, in place (no copy of the passages' text).
      const re = new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu')
      return !read.some((r) => re.test(r.text) || (r.prompt !== null && re.test(r.prompt)))
    })
    return [...new Set([...fixes.values()].flatMap((alts) => alts.flatMap((a) => a.words)))]
  }

  /**
   * The dictionary's corrections (spellingCorrections) of the query's uncommon words (uncommonTerms) that `keep` keeps,
   * by term. Nothing, and no dictionary read, for a query of common words.
   */
  private async spellingFixes(
    query: string,
    keep: (term: string) => boolean = () => true,
  ): Promise<Map<string, SpellingAlternative[]>> {
    const terms = [...new Set(tokens(query))]
    if (!mayBeMisspelt(query, terms)) return new Map()
    const dictionary = await this.typos.get()
    const wanted = uncommonTerms(query, terms, dictionary).filter(keep)
    return wanted.length ? spellingCorrections(query, wanted, dictionary) : new Map()
  }

  /**
   * What the query's words that may be misspelt may have meant (spellingCorrections), per word as written, each
   * alternative as words: the facts are ranked with them for a word no fact says (factAlternatives, on the CPU thread).
   * Nothing, and no dictionary read, for a query of common words.
   */
  private async corrections(query: string): Promise<[string, string[][]][]> {
    const fixes = await this.spellingFixes(query)
    if (!fixes.size) return []
    const out: [string, string[][]][] = []
    for (const word of writtenWords(query)) {
      const alts = fixes.get(tokens(word)[0] ?? '')
      if (alts && !out.some(([w]) => w === word)) out.push([word, alts.map((a) => a.words)])
    }
    return out
  }

  /**
   * What a profile's passages are looked up by for `query` (passageQuery): without its words about speech and the
   * person's own names, their name in the profile and the label of their newest turns.
   */
  private async passageLookup(
    tenantId: string,
    profile: Pick<ProfileText, 'profile_id' | 'name'>,
    query: string,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const paced = await this.pacing(tenantId, profile.profile_id, signal)
    const label = await paced(() =>
      this.passages.newestSpeaker(this.ds.manager, tenantId, profile.profile_id, LEXICAL_WINDOW),
    )
    return passageQuery(query, [profile.name, label])
  }

  /** The query's vector (cached as the facts' are). */
  private async queryVector(query: string, signal?: AbortSignal): Promise<Float32Array> {
    const key = `${this.embedder.model}\n${query}`
    const hit = this.recall(key)
    if (hit) return hit
    const { vectors } = await this.embedder.embed([query], signal)
    const vector = Float32Array.from(vectors[0]!)
    this.remember(key, vector)
    return vector
  }

  /**
   * Calibrated similarity (the embedder's own score curve, as search uses, / 100) of the query to each fact; the
   * MAX_EMBEDDED_FACTS most confident facts only, the others 0. One embed
   * call at most per request, for the texts not yet cached; `also` (what the passages are looked up by) is embedded in
   * it and cached too.
   */
  private async semanticScores(
    query: string,
    count: number,
    embed: { index: number; text: string }[],
    signal?: AbortSignal,
    also?: string,
  ): Promise<number[]> {
    const model = this.embedder.model
    // The most confident facts (ties: the order facts come in: the ranking chose them), so which are embedded is
    // deterministic.
    const wanted = [...new Set([query, ...(also ? [also] : []), ...embed.map((e) => e.text)])]
    const found = new Map<string, Float32Array>()
    for (const t of wanted) {
      const vector = this.recall(`${model}\n${t}`)
      if (vector) found.set(t, vector)
    }
    const missing = wanted.filter((t) => !found.has(t))
    if (missing.length) {
      const { vectors } = await this.embedder.embed(missing, signal)
      missing.forEach((text, index) => {
        const vector = Float32Array.from(vectors[index]!)
        found.set(text, vector)
        this.remember(`${model}\n${text}`, vector)
      })
    }
    const qv = found.get(query)!
    const cal = this.embedder.calibration
    const scores = new Array<number>(count).fill(0)
    for (const e of embed) {
      const vector = found.get(e.text)!
      let dot = 0
      for (let k = 0; k < qv.length; k++) dot += qv[k]! * vector[k]!
      scores[e.index] = cal.toScore(Math.max(-1, Math.min(1, dot))) / 100
    }
    return scores
  }

  /**
   * Runs this thread's part of a context on a sample query (spelling, passage lookup, dates, the speaker's label) and
   * the reads of a context with passages, so that the first request after start-up does not pay for loading and
   * compiling them. Twice: V8 runs a regular expression interpreted at first and compiles it to machine code on a later
   * run, and the first run of each statement loads what the database needs to plan it.
   */
  async warmUp(): Promise<void> {
    const query = 'what musik did Ana play with her sister last summer'
    for (let run = 0; run < 2; run++) {
      const terms = [...new Set(tokens(query))]
      const dictionary = await this.typos.get()
      if (mayBeMisspelt(query, terms)) spellingCorrections(query, uncommonTerms(query, terms, dictionary), dictionary)
      writtenWords(query)
      passageDatesFor(query)
      asksLikes(passageQuery(query, ['Ana']))
      labelOf([{ speaker: 'Ana' }, { speaker: 'User' }])
      await this.warmUpReads(query)
    }
  }

  /**
   * A context's reads on a profile no tenant has (WARM_UP_ID): each statement runs and finds nothing. The vector is
   * given, so that no remote embedder is called at start-up.
   */
  private async warmUpReads(query: string): Promise<void> {
    const profile = { profile_id: WARM_UP_ID, language: 'en', name: 'Ana' }
    await this.profiles.findText(this.ds.manager, WARM_UP_ID, WARM_UP_ID)
    const lookup = await this.passageLookup(WARM_UP_ID, profile, query, undefined)
    const vector = new Float32Array(this.embedder.dimension)
    await this.rankedPassages(WARM_UP_ID, profile, lookup, lookup, vector, undefined)
  }

  private recall(key: string): Float32Array | undefined {
    const vector = this.vectors.get(key)
    if (vector) remember(this.vectors, key, vector, VECTOR_CACHE_ENTRIES)
    return vector
  }

  private remember(key: string, vector: Float32Array): void {
    remember(this.vectors, key, vector, VECTOR_CACHE_ENTRIES)
  }
}

/** The tenant and profile id the start-up warm-up reads (warmUpReads): with a space, no call can create them. */
const WARM_UP_ID = 'warm up'

/**
 * Passages one window of the word walk reads for `terms` (anyWordsQuery): LEXICAL_WINDOW, or fewer for a paced read of
 * a query of many words (WORDS_PER_FULL_WINDOW).
 */
function lexicalWindowFor(terms: string, paced: boolean): number {
  const words = terms.split(' | ').length
  if (!paced || words <= WORDS_PER_FULL_WINDOW) return LEXICAL_WINDOW
  return Math.max(MIN_LEXICAL_WINDOW, Math.floor((LEXICAL_WINDOW * WORDS_PER_FULL_WINDOW) / words))
}

/**
 * The label the passages' turns carry most often (the first of them on a tie), among those that read as a name
 * (nameLabel: not "User", "Me", "Customer", an assistant's); none when no passage has one.
 */
function labelOf(rows: readonly Pick<PassageRow, 'speaker'>[]): { label?: string } {
  const counts = new Map<string, number>()
  let best: string | undefined
  for (const r of rows) {
    const label = nameLabel(r.speaker)
    if (!label) continue
    const count = (counts.get(label) ?? 0) + 1
    counts.set(label, count)
    if (best === undefined || count > counts.get(best)!) best = label
  }
  return best ? { label: best } : {}
}
