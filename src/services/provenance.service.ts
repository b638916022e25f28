import type { DataSource, EntityManager } from 'typeorm'
import type { PassageRow } from '../db/passage.repository.js'
import { ProvenanceRepository, type EvidencePassageRow } from '../db/provenance.repository.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import { DomainError } from '../domain/errors.js'
import type { ForgetTarget } from '../domain/forget.js'
import { textSearchConfig } from '../domain/passages.js'
import {
  EVIDENCE_CANDIDATES,
  EVIDENCE_MAX_SUBMISSIONS,
  parseEvidenceParams,
  proposalOf,
  supportingPassages,
  textWords,
  wordGroups,
  type EvidenceMatch,
  type Supported,
} from '../domain/provenance.js'
import { checkProfileId } from '../domain/validation.js'
import type { EventBus } from '../events/event-bus.js'
import type { RequestContext } from './context.js'

/** A submission whose stored extraction proposed the value. */
export interface EvidenceSource {
  submissionId: string
  /** When its text was said or written. */
  occurredAt: string
  /** The words the model quoted for the value (openai); null when it kept none (the local extractor keeps none). */
  quote: string | null
}

/** Why a profile says a value (README "Provenance"). */
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

/**
 * The passages that support a value of a profile, best first, with the submissions that proposed it
 * (src/domain/provenance.ts says how). Read on `m`: in a forget's transaction, the passages it hides are the ones it read.
 */
export async function findSupport(
  m: EntityManager,
  repo: ProvenanceRepository,
  tenantId: string,
  profileId: string,
  language: string | null | undefined,
  target: ForgetTarget,
): Promise<{ supported: Supported<EvidencePassageRow>[]; sources: EvidenceSource[]; extractionsRead: number }> {
  const stored = await repo.extractions(m, tenantId, profileId, EVIDENCE_MAX_SUBMISSIONS)
  const proposed = new Map<string, { quote?: string }>()
  const sources: EvidenceSource[] = []
  for (const s of stored) {
    const p = proposalOf(s.extraction, target)
    if (!p.proposed) continue
    proposed.set(s.id, p.quote ? { quote: p.quote } : {})
    sources.push({ submissionId: s.id, occurredAt: s.occurred_at, quote: p.quote ?? null })
  }
  const words = textWords(target.value)
  const valueGroups = wordGroups(words, await repo.stems(m, textSearchConfig(language), words))
  // A quote is the person's own words: matched exactly (the passages' `simple` index).
  const quoteGroups = new Map<string, string[][]>()
  for (const [id, p] of proposed)
    if (p.quote)
      quoteGroups.set(
        id,
        textWords(p.quote).map((w) => [w]),
      )
  const ids = [...proposed.keys()]
  const ofProposed = ids.length
    ? await repo.candidates(m, tenantId, profileId, {
        groups: [...valueGroups, ...[...quoteGroups.values()].flat()],
        all: false,
        submissions: { in: ids },
        limit: EVIDENCE_CANDIDATES,
      })
    : []
  const others = await repo.candidates(m, tenantId, profileId, {
    groups: valueGroups,
    all: true,
    submissions: { notIn: ids },
    limit: EVIDENCE_CANDIDATES,
  })
  const supported = supportingPassages({
    proposed,
    known: new Set(stored.map((s) => s.id)),
    valueGroups,
    quoteGroups,
    ofProposed,
    others,
  })
  return { supported, sources, extractionsRead: stored.length }
}

/**
 * Provenance (README "Provenance"): why a profile says a value (the passages that support it), and deleting one
 * submission's evidence. Forgetting a value hides its passages through the same matching (ProfileEditService.forget).
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
    const p = parseEvidenceParams(params)
    const m = this.ds.manager
    const profile = await this.repo.profileLanguage(m, ctx.tenantId, profileId)
    if (!profile) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
    const { limit, ...target } = p
    const r = await findSupport(m, this.repo, ctx.tenantId, profileId, profile.language, target)
    return {
      profileId,
      field: target.section,
      value: target.value,
      category: target.category ?? null,
      passages: r.supported.slice(0, limit).map(({ passage: x, match }) => ({
        submission_id: x.submission_id,
        position: x.position,
        speaker: x.speaker,
        prompt: x.prompt,
        text: x.text,
        occurred_at: x.occurred_at,
        match,
      })),
      sources: r.sources,
      extractionsRead: r.extractionsRead,
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
      const m = tx.manager
      if (!(await this.repo.profileLanguage(m, ctx.tenantId, profileId)))
        throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
      const notFound = () =>
        new DomainError(
          'SUBMISSION_NOT_FOUND',
          `Profile ${profileId} has no submission ${String(submissionId).slice(0, 60)}`,
        )
      if (!UUID_RE.test(submissionId)) throw notFound()
      const s = await this.repo.lockSubmission(m, ctx.tenantId, profileId, submissionId)
      if (!s) throw notFound()
      if (s.status === 'pending' || s.status === 'processing') {
        throw new DomainError(
          'CONFLICT',
          `Submission ${submissionId} is ${s.status}: its evidence can be deleted once it has been processed`,
        )
      }
      const gone = await this.repo.deleteEvidence(m, ctx.tenantId, submissionId)
      return {
        profileId,
        submissionId: submissionId.toLowerCase(),
        passagesDeleted: gone.passages,
        textDeleted: gone.text,
      }
    })
  }
}
