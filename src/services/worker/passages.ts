import type { DataSource } from 'typeorm'
import { PassageRepository, type PassageWrite } from '../../db/passage.repository.js'
import type { ProfileJob, Tombstone } from '../../domain/profile.js'
import { ProvenanceRepository } from '../../db/provenance.repository.js'
import { hideSupport } from '../provenance.service.js'

/** How much one statement of passages holds at most: characters (text and vector text) and passages. */
export interface PassageStatementSize {
  chars: number
  passages: number
}

/**
 * On the embedded database: it parses a statement on the main thread (about 25 ms for this much), and another tenant's
 * request waits for the statement in progress, not for all of them.
 */
export const EMBEDDED_PASSAGE_STATEMENT: PassageStatementSize = { chars: 24_000, passages: 25 }
/**
 * On a server, where other connections' statements run beside it: a round's passages in one statement or a few (each
 * statement is a commit). With the embedded size, a drain of 3,000 one-message submissions took 1,125 statements.
 */
export const SERVER_PASSAGE_STATEMENT: PassageStatementSize = { chars: 1_000_000, passages: 1000 }

/** A batch of one profile and the passages it leaves. */
export interface BatchPassages {
  job: ProfileJob
  passages: PassageWrite[]
}

/**
 * Stores a round's evidence passages (docs/guides/evidence.md, "Evidence passages") ahead of its apply: the passages of
 * all its batches (one profile each) together, a few per statement, each statement its own transaction; hundreds of
 * passages (a conversation at the limits) written in the apply's one transaction held the embedded database for over
 * half a second. Then each profile keeps its `keep` newest passages (one statement for the round). Keyed by
 * (submission, position), so a batch redone after a lost lease or a requeue stores nothing twice; a submission that
 * fails in the end has its passages deleted with its failure (SubmissionLifecycle.fail), and one of a deleted profile
 * goes with it (foreign key): a statement refused for a profile deleted meanwhile is written again profile by profile,
 * and the others' passages are kept. Returns the profiles that were gone ("tenant\nprofile").
 *
 * Two statements per round, not two per profile (bench/worker.ts on the server database: PostgreSQL CPU per submission
 * about 2.2 ms against 2.6 written profile by profile; the drain's change was within the machine's noise).
 */
export async function storePassages(
  ds: DataSource,
  repo: PassageRepository,
  batches: readonly BatchPassages[],
  keep: number,
  per: PassageStatementSize = EMBEDDED_PASSAGE_STATEMENT,
): Promise<Set<string>> {
  const gone = new Set<string>()
  const key = (j: ProfileJob) => `${j.tenantId}\n${j.profileId}`
  type Row = PassageWrite & { tenantId: string; profileId: string }
  const write = async (rows: Row[]) => {
    try {
      await repo.insert(ds.manager, rows)
    } catch (err) {
      if ((err as { code?: string })?.code !== '23503') throw err
      // A profile (or a submission) was deleted meanwhile: nothing to keep of it; the others are written again alone.
      const byProfile = new Map<string, Row[]>()
      for (const r of rows)
        byProfile.set(`${r.tenantId}\n${r.profileId}`, [...(byProfile.get(`${r.tenantId}\n${r.profileId}`) ?? []), r])
      if (byProfile.size === 1) {
        gone.add(byProfile.keys().next().value!)
        return
      }
      for (const one of byProfile.values()) await write(one)
    }
  }
  let chunk: Row[] = []
  let size = 0
  const flush = async () => {
    if (chunk.length) await write(chunk)
    chunk = []
    size = 0
  }
  for (const b of batches) {
    for (const p of b.passages) {
      // A vector's text is about 4 characters a dimension (most of a local one's are 0), 9 for a dense one.
      const chars = p.text.length + (p.prompt?.length ?? 0) + (p.embedding?.length ?? 0) * 6
      if (chunk.length && (size + chars > per.chars || chunk.length >= per.passages)) await flush()
      chunk.push({ ...p, tenantId: b.job.tenantId, profileId: b.job.profileId })
      size += chars
    }
  }
  await flush()
  const written = batches
    .filter((b) => b.passages.length && !gone.has(key(b.job)))
    .map((b) => [b.job.tenantId, b.job.profileId] as const)
  await repo.prune(ds.manager, written, keep)
  return gone
}

/**
 * A batch's submissions accepted before a value was forgotten (a forget while they waited, or while they were being
 * extracted: the batch then goes back to the queue and comes here again) say what the forget took away: the passages
 * that state a forgotten value are hidden as the forget hid the others (docs/guides/evidence.md, "Why the profile says
 * it"), `hidden_by` "forget:<when it was forgotten>". Nothing to do, and nothing read, when no tombstone is newer than
 * the batch.
 */
export async function hideForgotten(
  ds: DataSource,
  repo: ProvenanceRepository,
  job: ProfileJob,
  options: {
    forgotten: readonly Tombstone[] | undefined
    acceptedAt: (string | undefined)[]
    language: string | null | undefined
  },
): Promise<number> {
  const oldest = options.acceptedAt.reduce<string | undefined>((a, t) => (t && (!a || t < a) ? t : a), undefined)
  if (!oldest || !options.forgotten?.length) return 0
  let hidden = 0
  for (const t of options.forgotten) {
    if (!(t.at > oldest)) continue
    const target = { section: t.section, value: t.key, ...(t.category ? { category: t.category } : {}) }
    // Passages of submissions accepted after the forget may say the value again: they keep their evidence.
    const hiding = { by: `forget:${t.at}`, acceptedBy: t.at }
    hidden += await hideSupport(ds, repo, job.tenantId, job.profileId, options.language, target, hiding)
  }
  return hidden
}
