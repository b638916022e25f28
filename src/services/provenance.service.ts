import type { DataSource, EntityManager } from 'typeorm'
import type { PassageKey, PassageRow } from '../db/passage.repository.js'
import { ProvenanceRepository, type CandidateScope, type EvidencePassageRow } from '../db/provenance.repository.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import { DomainError } from '../domain/errors.js'
import type { ForgetTarget } from '../domain/forget.js'
import { textSearchConfig } from '../domain/passages.js'
import {
  EVIDENCE_CANDIDATES,
  EVIDENCE_MAX_SUBMISSIONS,
  keepBest,
  parseEvidenceParams,
  proposalOf,
  siftSupport,
  textWords,
  wordGroups,
  type CandidatePassage,
  type EvidenceMatch,
  type Supported,
  type SupportRules,
} from '../domain/provenance.js'
import { checkProfileId } from '../domain/validation.js'
import type { EventBus } from '../events/event-bus.js'
import type { RequestContext } from './context.js'
import { Pacer, remember } from './pacer.js'

/** A submission whose stored extraction proposed the value. */
export interface EvidenceSource {
  submissionId: string
  /** When its text was said or written. */
  occurredAt: string
  /** The words the model quoted for the value (openai); null when it kept none (the local extractor keeps none). */
  quote: string | null
}

/** Why a profile says a value (docs/guides/evidence.md, "Why the profile says it"). */
export interface Evidence {
  profileId: string
  field: string
  value: string
  category: string | null
  /** The passages that support it, best first. */
  passages: (PassageRow & { match: EvidenceMatch })[]
  /** The submissions whose stored extraction proposed it, newest first. */
  sources: EvidenceSource[]
  /** How many submissions' stored extractions were read (at most EVIDENCE_MAX_SUBMISSIONS, the newest). */
  extractionsRead: number
}

export interface SubmissionEvidenceDeletion {
  profileId: string
  submissionId: string
  passagesDeleted: number
  textDeleted: boolean
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Passages a lookup reads per statement once its words are in more passages than EVIDENCE_CANDIDATES. */
const CANDIDATE_WINDOW = 250
/** Passages a forget hides per statement, each batch in its own short transaction. */
const HIDE_BATCH = 250

/** What a lookup of one value knows before it reads passages (prepareLookup). */
interface Lookup {
  rules: SupportRules
  /** Every word looked for: the value's and the quotes'. */
  anyGroups: string[][]
  sources: EvidenceSource[]
  extractionsRead: number
}

/** Reads the stored extractions (which submissions proposed the value, and their quotes) and the value's stems. */
async function prepareLookup(
  manager: EntityManager,
  repo: ProvenanceRepository,
  tenantId: string,
  profileId: string,
  language: string | null | undefined,
  target: ForgetTarget,
): Promise<Lookup> {
  const stored = await repo.extractions(manager, tenantId, profileId, EVIDENCE_MAX_SUBMISSIONS)
  const proposed = new Map<string, { quote?: string }>()
  const sources: EvidenceSource[] = []
  for (const s of stored) {
    const proposal = proposalOf(s.extraction, target)
    if (!proposal.proposed) continue
    proposed.set(s.id, proposal.quote ? { quote: proposal.quote } : {})
    sources.push({ submissionId: s.id, occurredAt: s.occurred_at, quote: proposal.quote ?? null })
  }
  const words = textWords(target.value)
  const valueGroups = wordGroups(words, await repo.stems(manager, textSearchConfig(language), words))
  // A quote is the person's own words: matched exactly (the passages' `simple` index).
  const quoteGroups = new Map<string, string[][]>()
  for (const [id, p] of proposed)
    if (p.quote)
      quoteGroups.set(
        id,
        textWords(p.quote).map((w) => [w]),
      )
  return {
    rules: { proposed, known: new Set(stored.map((s) => s.id)), valueGroups, quoteGroups },
    anyGroups: [...valueGroups, ...[...quoteGroups.values()].flat()],
    sources,
    extractionsRead: stored.length,
  }
}

/** Each tenant's walks of its passages in this process, a statement at a time (Pacer); at most 1,000 tenants kept. */
const walkPacers = new Map<string, Pacer>()
const walkPacer = (tenantId: string) => walkPacers.get(tenantId) ?? remember(walkPacers, tenantId, new Pacer(), 1000)

/** How a lookup reads its candidates (candidateReads). */
interface CandidateReads {
  /** The candidate passages, a page at a time. */
  pages(): AsyncGenerator<CandidatePassage[]>
  /** Runs a statement of the lookup: paced among the tenant's other walks once the lookup walks the profile. */
  paced<T>(statement: () => Promise<T>): Promise<T>
}

/**
 * The candidate passages of a lookup: the proposing submissions' and the others' in one page when each kind has fewer
 * than EVIDENCE_CANDIDATES; otherwise every passage of the profile that holds a word looked for,
 * read a window of CANDIDATE_WINDOW passages per statement, so a value said in any number of passages is found whole
 * and no statement reads more than a window. Such a walk is paced per tenant (walkPacers): on the embedded database a
 * statement holds the one session every request waits for. `ranked`: with each passage's rank (only an answer that
 * orders them needs it); within `scope`; a walk stops between two windows once `signal` is aborted.
 */
function candidateReads(
  manager: EntityManager,
  repo: ProvenanceRepository,
  tenantId: string,
  profileId: string,
  lookup: Lookup,
  options: { ranked: boolean; scope?: CandidateScope; signal?: AbortSignal | undefined },
): CandidateReads {
  let walking = false
  const paced = <T>(statement: () => Promise<T>): Promise<T> =>
    walking ? walkPacer(tenantId).run(() => (options.signal?.throwIfAborted(), statement())) : statement()
  const scope = options.scope ?? {}
  /** Every candidate in one page, when each kind has fewer than EVIDENCE_CANDIDATES; null otherwise. */
  const firstPage = async () => {
    const ids = [...lookup.rules.proposed.keys()]
    const limit = EVIDENCE_CANDIDATES
    const proposing = { groups: lookup.anyGroups, all: false, submissions: { in: ids }, limit, ...scope }
    const ofProposed = ids.length ? await repo.candidates(manager, tenantId, profileId, proposing) : []
    if (!ofProposed) return null
    const others = await repo.candidates(manager, tenantId, profileId, {
      groups: lookup.rules.valueGroups,
      all: true,
      submissions: { notIn: ids },
      limit,
      ...scope,
    })
    return others ? [...ofProposed, ...others] : null
  }
  async function* pages(): AsyncGenerator<CandidatePassage[]> {
    const all = await firstPage()
    if (all) {
      yield all
      return
    }
    walking = true
    const window = { groups: lookup.anyGroups, window: CANDIDATE_WINDOW, ranked: options.ranked, ...scope }
    const windowAfter = (after: PassageKey | null) =>
      paced(() => repo.candidateWindow(manager, tenantId, profileId, { ...window, after }))
    let after: PassageKey | null = null
    do {
      const read = await windowAfter(after)
      if (read.matches.length) yield read.matches
      after = read.last
    } while (after)
  }
  return { pages, paced }
}

/**
 * The `limit` passages that best support a value of a profile, with the submissions that proposed it
 * (src/domain/provenance.ts says how). Every candidate counts, however many there are: they are read page by page and
 * only the best `limit` kept.
 */
export async function findSupport(
  manager: EntityManager,
  repo: ProvenanceRepository,
  tenantId: string,
  profileId: string,
  language: string | null | undefined,
  target: ForgetTarget,
  options: { limit: number; signal?: AbortSignal | undefined },
): Promise<{ supported: Supported<EvidencePassageRow>[]; sources: EvidenceSource[]; extractionsRead: number }> {
  const { limit } = options
  const lookup = await prepareLookup(manager, repo, tenantId, profileId, language, target)
  let best: Supported<CandidatePassage>[] = []
  let fallback: Supported<CandidatePassage>[] = []
  const reads = candidateReads(manager, repo, tenantId, profileId, lookup, { ranked: true, signal: options.signal })
  for await (const page of reads.pages()) {
    const sifted = siftSupport(page, lookup.rules)
    best = keepBest(best, sifted.supported, limit)
    if (!best.length) fallback = keepBest(fallback, sifted.fallback, limit)
  }
  const chosen = best.length ? best : fallback
  // Their words, read last: a page holds where each passage is, not what it says.
  const place = (p: { submission_id: string; position: number }) => `${p.submission_id}:${p.position}`
  const read = await repo.passagesAt(
    manager,
    tenantId,
    profileId,
    chosen.map((c) => c.passage),
  )
  const rows = new Map(read.map((r) => [place(r), r]))
  const supported: Supported<EvidencePassageRow>[] = []
  for (const c of chosen) {
    const row = rows.get(place(c.passage))
    if (row) supported.push({ ...c, passage: { ...c.passage, ...row } })
  }
  return { supported, sources: lookup.sources, extractionsRead: lookup.extractionsRead }
}

/**
 * Hides every passage that supports a value of a profile, as the evidence lookup finds them (findSupport), however
 * many: page by page, in batches of HIDE_BATCH, each batch in its own short transaction (`hidden_by` = `by`), with
 * `onHidden` run in that transaction with how many it hid. Passages already hidden by `by` count as found, so a forget
 * cut short and taken up again hides what the first one would have. With `acceptedBy` (a forget's time), only
 * passages of submissions accepted by then: one sent after the forget says the value again, and keeps its evidence.
 * Returns how many it hid.
 */
export async function hideSupport(
  ds: DataSource,
  repo: ProvenanceRepository,
  tenantId: string,
  profileId: string,
  language: string | null | undefined,
  target: ForgetTarget,
  options: {
    by: string
    acceptedBy?: string
    onHidden?: ((manager: EntityManager, hidden: number) => Promise<void>) | undefined
  },
): Promise<number> {
  const manager = ds.manager
  const lookup = await prepareLookup(manager, repo, tenantId, profileId, language, target)
  const scope = { hiddenBy: options.by, acceptedBy: options.acceptedBy }
  const reads = candidateReads(manager, repo, tenantId, profileId, lookup, { ranked: false, scope })
  let hidden = 0
  const hide = async (list: Supported<CandidatePassage>[]) => {
    const visible = list.filter((s) => !s.passage.hidden).map((s) => s.passage)
    for (let i = 0; i < visible.length; i += HIDE_BATCH) {
      const batch = visible.slice(i, i + HIDE_BATCH)
      hidden += await reads.paced(() =>
        ds.transaction(async (tm) => {
          const hiddenNow = await repo.hide(tm, tenantId, profileId, batch, options.by)
          if (hiddenNow) await options.onHidden?.(tm, hiddenNow)
          return hiddenNow
        }),
      )
    }
  }
  let found = 0
  let fallback = 0
  for await (const page of reads.pages()) {
    const sifted = siftSupport(page, lookup.rules)
    found += sifted.supported.length
    fallback += sifted.fallback.length
    await hide(sifted.supported)
  }
  // Only when nothing else supports the value: the passages that hold all its words (read again, page by page).
  if (!found && fallback) for await (const page of reads.pages()) await hide(siftSupport(page, lookup.rules).fallback)
  return hidden
}

/**
 * Provenance (docs/guides/evidence.md, "Why the profile says it"): why a profile says a value (the passages that
 * support it), and deleting one submission's evidence. Forgetting a value hides its passages through the same matching
 * (ProfileEditService.forget).
 */
export class ProvenanceService {
  private readonly uow: UnitOfWork

  constructor(
    private readonly ds: DataSource,
    bus: EventBus,
    private readonly repo: ProvenanceRepository = new ProvenanceRepository(),
  ) {
    this.uow = new UnitOfWork(ds, bus)
  }

  /** The passages that support a value (params: field, value, category?, limit?), best first; none is not an error. */
  async evidence(ctx: RequestContext, profileId: string, params: unknown): Promise<Evidence> {
    checkProfileId(profileId)
    const parsed = parseEvidenceParams(params)
    const manager = this.ds.manager
    const profile = await this.repo.profileLanguage(manager, ctx.tenantId, profileId)
    if (!profile) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
    const { limit, ...target } = parsed
    const { signal } = ctx
    const found = await findSupport(manager, this.repo, ctx.tenantId, profileId, profile.language, target, {
      limit,
      signal,
    })
    return {
      profileId,
      field: target.section,
      value: target.value,
      category: target.category ?? null,
      passages: found.supported.map(({ passage: x, match }) => ({
        submission_id: x.submission_id,
        position: x.position,
        speaker: x.speaker,
        prompt: x.prompt,
        text: x.text,
        occurred_at: x.occurred_at,
        match,
      })),
      sources: found.sources,
      extractionsRead: found.extractionsRead,
    }
  }

  /**
   * Deletes one submission's evidence: its passages, its text and its stored extraction, as retention drops them. The
   * profile's values stay as they are (they were merged long ago); nothing of the text is recorded. A submission still
   * waiting or being processed cannot lose its text (409).
   */
  async deleteSubmissionEvidence(
    ctx: RequestContext,
    profileId: string,
    submissionId: string,
  ): Promise<SubmissionEvidenceDeletion> {
    checkProfileId(profileId)
    return this.uow.run(ctx, async (tx) => {
      const manager = tx.manager
      if (!(await this.repo.profileLanguage(manager, ctx.tenantId, profileId)))
        throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
      const notFound = () =>
        new DomainError(
          'SUBMISSION_NOT_FOUND',
          `Profile ${profileId} has no submission ${String(submissionId).slice(0, 60)}`,
        )
      if (!UUID_RE.test(submissionId)) throw notFound()
      const submission = await this.repo.lockSubmission(manager, ctx.tenantId, profileId, submissionId)
      if (!submission) throw notFound()
      if (submission.status === 'pending' || submission.status === 'processing') {
        throw new DomainError(
          'CONFLICT',
          `Submission ${submissionId} is ${submission.status}: its evidence can be deleted once it has been processed`,
        )
      }
      const gone = await this.repo.deleteEvidence(manager, ctx.tenantId, submissionId)
      return {
        profileId,
        submissionId: submissionId.toLowerCase(),
        passagesDeleted: gone.passages,
        textDeleted: gone.text,
      }
    })
  }
}
