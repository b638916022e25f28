import type { DataSource } from 'typeorm'
import type { Embedder } from '../ai/types.js'
import { ExportRepository, type PassageExportKey } from '../db/export.repository.js'
import { PassageRepository } from '../db/passage.repository.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import { DomainError, invalid } from '../domain/errors.js'
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  IMPORT_BOUNDS,
  recordParser,
  type ExportRecord,
  type HeaderRecord,
  type HistoryExport,
  type PassageExport,
  type ProfileExport,
  type SubmissionExport,
} from '../domain/export-format.js'
import type { ProfileLimits } from '../domain/profile-limits.js'
import type { InputType, ProfileContent } from '../domain/profile.js'
import { checkProfileId, checkStorableJson } from '../domain/validation.js'
import type { RateDecision } from './rate-limiter.js'
import type { RequestBudget } from './budget.js'
import type { RequestContext } from './context.js'
import { CpuPool } from './cpu/cpu.js'
import { lines, type LineLimits } from './ndjson.js'
import { inputProblem } from './submission.service.js'

export interface ExportOptions {
  /** One profile instead of the whole tenant. */
  profileId?: string
  /** Also the raw text of each submission (null where retention dropped it). */
  includeText?: boolean
}

export interface ImportResult {
  profiles: number
  history: number
  /** Submissions added; those the tenant had already are left as they are. */
  submissions: number
  /** Submission records the tenant had already. */
  submissionsKept: number
  /** Profiles re-embedded with the configured model. */
  embedded: number
  /** Evidence passages added (without vectors: `profiler reindex` embeds them). */
  passages: number
  /** Passage records the tenant had already (kept as they are, but hidden when the file has them hidden). */
  passagesKept: number
  /** Passage records not stored: their submission is not the tenant's under that profile, or has no text (README). */
  passagesSkipped: number
}

/** What an import did, as the API and the CLI report it (snake_case, the REST form). */
export const importSummary = (r: ImportResult) => ({
  profiles: r.profiles,
  history: r.history,
  submissions: r.submissions,
  submissions_kept: r.submissionsKept,
  embedded: r.embedded,
  passages: r.passages,
  passages_kept: r.passagesKept,
  passages_skipped: r.passagesSkipped,
})

export interface ImportOptions extends LineLimits {
  /** PROFILER_MAX_DATA_BYTES: a submission's text is held to it, as POST holds `data`. */
  maxDataBytes: number
  /** The profile limits (config.profiles): each profile record keeps them, and so does each profile's history. */
  profiles: ProfileLimits
  /** Called as profiles are written: how many so far, and the total the file's header announces. */
  onProgress?: (done: number, total: number) => void
  /**
   * Charges the import by its size to this key of the service's request budget: one operation per `unitBytes` read
   * (blank lines too) beyond the first, which the request paid; when the budget is spent the import waits for it rather
   * than fail half-way. Without it (the CLI, an administrator's) nothing is charged.
   */
  budget?: { key: string; unitBytes: number; onCharge?: (d: RateDecision) => void }
  /** Stops the import (its client went away), also while it waits for budget: it rejects with the signal's reason. */
  signal?: AbortSignal
}

/** Records of one page at a time, pulled in key order (see ExportRepository). */
class PageCursor<T, K = [string, number]> {
  private buf: T[] = []
  private i = 0
  private done = false
  private after: K | null = null

  constructor(
    private readonly fetch: (after: K | null) => Promise<T[]>,
    private readonly key: (r: T) => K,
    private readonly limit: number,
  ) {}

  async peek(): Promise<T | undefined> {
    if (this.i >= this.buf.length && !this.done) {
      this.buf = await this.fetch(this.after)
      this.i = 0
      this.done = this.buf.length < this.limit
      if (this.buf.length) this.after = this.key(this.buf[this.buf.length - 1]!)
    }
    return this.buf[this.i]
  }

  take(): void {
    this.i++
  }
}

/**
 * One byte cap shared by several exports built whole in memory (the exportProfile fields of one GraphQL operation):
 * they are built one after another, each counting its bytes against the same cap, so aliases cannot multiply it.
 */
export class ExportCap {
  private used = 0
  private tail: Promise<unknown> = Promise.resolve()

  constructor(readonly maxBytes: number) {}

  /** Runs `fn` once the exports queued before it have finished. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn)
    this.tail = next.catch(() => undefined)
    return next
  }

  /** Counts `bytes` more; false once the cap is exceeded (then for good). */
  take(bytes: number): boolean {
    this.used += bytes
    return this.used <= this.maxBytes
  }

  get exceeded(): boolean {
    return this.used > this.maxBytes
  }
}

/** Records written per transaction of an import, and their bytes at most. */
const IMPORT_BATCH = 500
const IMPORT_BATCH_BYTES = 8 * 1024 * 1024
/**
 * Passages written per transaction of an import: a passage at its size bounds costs 1-2 ms to index on the embedded
 * database (its words in two configurations, into a GIN index), where a transaction holds the engine until it commits,
 * so other tenants' statements wait for at most about 10-20 ms of it (25 a transaction: a p99 of 70-220 ms for another
 * tenant's GET during an import of 20,000 such passages; 10: 55-90 ms, the import taking 45 s instead of 25-35 s).
 */
const IMPORT_PASSAGE_BATCH = 10
/** Texts per embedding request of an import. */
const EMBED_BATCH = 32

/**
 * Export and import of a tenant's profiles as JSON Lines (src/domain/export-format.ts). An export streams: it reads a
 * page at a time and yields records as the consumer pulls them, so its memory does not grow with the tenant. An import
 * reads line by line and writes in batches by key (profile id, history seq, submission id): run twice, it leaves what
 * one run leaves. Embeddings are not in the file; imported profiles are embedded again with the configured model.
 */
export class ExportService {
  private readonly repo = new ExportRepository()
  private readonly passageRows = new PassageRepository()
  private readonly uow: UnitOfWork

  constructor(
    private readonly ds: DataSource,
    private readonly opts: {
      embedder?: Embedder
      profilesPerPage?: number
      rowsPerPage?: number
      budget?: RequestBudget
      cpu?: CpuPool
    } = {},
  ) {
    this.uow = new UnitOfWork(ds)
    this.cpu = opts.cpu ?? new CpuPool(0)
  }

  private readonly cpu: CpuPool

  /**
   * The export of the caller's tenant (or one profile: PROFILE_NOT_FOUND when it has none of that id): the header now,
   * the records as they are pulled. Not a snapshot: each page is read as it is at that moment.
   */
  async open(
    ctx: RequestContext,
    o: ExportOptions = {},
  ): Promise<{ header: HeaderRecord; records: AsyncGenerator<ExportRecord> }> {
    const profileId = o.profileId === undefined ? null : checkProfileId(o.profileId)
    const m = this.ds.manager
    const tenant = await this.repo.tenant(m, ctx.tenantId)
    if (!tenant) throw new DomainError('TENANT_NOT_FOUND', `No tenant '${ctx.tenantId}'`)
    const total = await this.repo.countProfiles(m, ctx.tenantId, profileId)
    if (profileId !== null && total === 0) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
    const header: HeaderRecord = {
      type: 'header',
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      tenant,
      exported_at: new Date().toISOString(),
      profile_id: profileId,
      include_text: !!o.includeText,
      profiles: total,
    }
    return { header, records: this.records(ctx.tenantId, header, ctx.signal) }
  }

  /** Pages are read only while `signal` holds: a caller that went away stops the export at its next page. */
  private async *records(tenantId: string, header: HeaderRecord, signal?: AbortSignal): AsyncGenerator<ExportRecord> {
    const m = this.ds.manager
    const pageSize = this.opts.profilesPerPage ?? 100
    const rows = this.opts.rowsPerPage ?? 500
    const counts = { profiles: 0, history: 0, submissions: 0, passages: 0 }
    yield header
    let after: string | null = null
    for (;;) {
      signal?.throwIfAborted()
      const page = await this.repo.profiles(m, tenantId, { after, profileId: header.profile_id, limit: pageSize })
      if (!page.length) break
      const ids = page.map((p) => p.profile_id)
      const key = (r: { profile_id: string; seq: number }): [string, number] => [r.profile_id, r.seq]
      const history = new PageCursor(
        (a) => (signal?.throwIfAborted(), this.repo.history(m, tenantId, ids, a, rows)),
        key,
        rows,
      )
      const subs = new PageCursor(
        (a) => (
          signal?.throwIfAborted(),
          this.repo.submissions(m, tenantId, ids, a, { limit: rows, text: header.include_text })
        ),
        key,
        rows,
      )
      // Passages are the person's words: they travel with the text, never without it.
      const passages = header.include_text
        ? new PageCursor<PassageExport & { key: PassageExportKey }, PassageExportKey>(
            (a) => (signal?.throwIfAborted(), this.repo.passages(m, tenantId, ids, a, rows)),
            (r) => r.key,
            rows,
          )
        : null
      for (const p of page) {
        yield p
        counts.profiles++
        for (let h = await history.peek(); h?.profile_id === p.profile_id; h = await history.peek()) {
          history.take()
          yield h
          counts.history++
        }
        for (let s = await subs.peek(); s?.profile_id === p.profile_id; s = await subs.peek()) {
          subs.take()
          yield s
          counts.submissions++
        }
        for (let x = await passages?.peek(); x?.profile_id === p.profile_id; x = await passages!.peek()) {
          passages!.take()
          const { key: _, ...record } = x
          yield record
          counts.passages++
        }
      }
      if (page.length < pageSize) break
      after = page[page.length - 1]!.profile_id
    }
    yield { type: 'end', ...counts }
  }

  /**
   * The export of one profile as JSON Lines text, for callers that take it whole (GraphQL), within `cap`: its bytes
   * and those of the other exports sharing the cap. Call it through `cap.run`, so that they are built one at a time.
   */
  async profileText(
    ctx: RequestContext,
    profileId: string,
    o: { includeText?: boolean; cap: ExportCap },
  ): Promise<string> {
    const tooLarge = () =>
      new DomainError(
        'PAYLOAD_TOO_LARGE',
        `The exports of this request are over ${o.cap.maxBytes} bytes in all (profile ${profileId}): use GET /v1/export?profile_id=…, which streams`,
      )
    if (o.cap.exceeded) throw tooLarge() // an export before it used the cap up: read nothing
    const { records } = await this.open(ctx, { profileId, includeText: o.includeText })
    const out: string[] = []
    for await (const r of records) {
      ctx.signal?.throwIfAborted()
      const line = JSON.stringify(r) + '\n'
      if (!o.cap.take(Buffer.byteLength(line))) {
        await records.return(undefined)
        throw tooLarge()
      }
      out.push(line)
    }
    return out.join('')
  }

  /**
   * Imports an export into the caller's tenant (whichever tenant it came from). A line that is not a valid record (every
   * field within the API's bounds: IMPORT_BOUNDS, the profile limits, submission text as POST takes it), a record out of
   * place, counts that do not match the end record or a file without one fail with VALIDATION_FAILED naming the line;
   * what came before it is imported (each batch commits), so a corrected file imported again completes it.
   */
  async import(
    ctx: RequestContext,
    source: AsyncIterable<Buffer | Uint8Array | string>,
    o: ImportOptions,
  ): Promise<ImportResult> {
    const parseRecord = recordParser({ profiles: o.profiles, latest: Date.now() + IMPORT_BOUNDS.aheadMs })
    const input = stoppable(
      o.budget && this.opts.budget ? this.charged(source, this.opts.budget, o.budget, o.signal) : source,
      o.signal,
    )
    const result: ImportResult = {
      profiles: 0,
      history: 0,
      submissions: 0,
      submissionsKept: 0,
      embedded: 0,
      passages: 0,
      passagesKept: 0,
      passagesSkipped: 0,
    }
    const seen = { profiles: 0, history: 0, submissions: 0, passages: 0 }
    let header: HeaderRecord | null = null
    let ended = false
    let current: string | null = null
    let historyOfCurrent = 0
    let passagesOfCurrent = 0
    // Passages turned off (PROFILER_PASSAGES_PER_SUBMISSION or _PER_PROFILE 0): their records are read and skipped.
    const keepPassages = o.profiles.passagesPerSubmission > 0 && o.profiles.passagesPerProfile > 0
    const empty = () => ({
      profiles: [] as ProfileExport[],
      history: [] as HistoryExport[],
      submissions: [] as SubmissionExport[],
      passages: [] as PassageExport[],
      bytes: 0,
      keys: new Set<string>(),
    })
    let batch = empty()
    // Profiles given passages, kept to their limit once their records are over (not after every batch: a profile with
    // thousands of passages would be sorted that many times).
    const toPrune = new Set<string>()
    const flush = async (final = false) => {
      const b = batch
      batch = empty()
      if (
        !b.profiles.length &&
        !b.history.length &&
        !b.submissions.length &&
        !b.passages.length &&
        !(final && toPrune.size)
      )
        return
      // What search reads of each profile (its words, its embedded text) grows with it: computed on a CPU thread, before
      // the transaction.
      const words = await this.cpu.words(
        { profiles: b.profiles.map((p) => ({ content: p as unknown as ProfileContent, summary: p.summary })) },
        { signal: ctx.signal },
      )
      const versions = await this.uow.run(ctx, async (tx) => {
        const v = await this.repo.upsertProfiles(
          tx.manager,
          ctx.tenantId,
          b.profiles,
          words.map((w) => w.lexemes),
        )
        await this.repo.upsertHistory(tx.manager, ctx.tenantId, b.history)
        const added = await this.repo.insertSubmissions(tx.manager, ctx.tenantId, b.submissions)
        result.submissions += added
        result.submissionsKept += b.submissions.length - added
        // After the submissions they belong to; then the profiles keep their newest passages within the limit.
        const p = await this.repo.insertPassages(tx.manager, ctx.tenantId, b.passages)
        result.passages += p.added
        result.passagesKept += p.matched - p.added
        result.passagesSkipped += b.passages.length - p.matched
        if (p.added) for (const x of b.passages) toPrune.add(x.profile_id)
        for (const id of toPrune) {
          if (!final && id === current) continue
          await this.passageRows.prune(tx.manager, [[ctx.tenantId, id]], o.profiles.passagesPerProfile)
          toPrune.delete(id)
        }
        return v
      })
      result.profiles += b.profiles.length
      result.history += b.history.length
      result.embedded += await this.embed(
        ctx.tenantId,
        b.profiles,
        words.map((w) => w.text),
        versions,
        ctx.signal,
      )
      o.onProgress?.(result.profiles, header?.profiles ?? result.profiles)
    }
    const fail = async (n: number, message: string): Promise<never> => {
      await flush(true) // what came before the bad line is good: keep it
      throw invalid(
        `Line ${n}: ${message}. ${result.profiles} profile${result.profiles === 1 ? '' : 's'} before it were imported; ` +
          'importing is idempotent: correct the file and import it again',
      )
    }
    let last = 0
    for await (const { n, text } of lines(input, o)) {
      last = n
      let r: ExportRecord
      try {
        r = parseRecord(text)
      } catch (e) {
        return fail(n, (e as Error).message)
      }
      if (ended) return fail(n, 'a record after the end record')
      if (!header) {
        if (r.type !== 'header')
          return fail(
            n,
            `the first record must be the header (type "header", format "${EXPORT_FORMAT}"), not ${r.type}`,
          )
        header = r
        o.onProgress?.(0, header.profiles)
        continue
      }
      switch (r.type) {
        case 'header':
          return fail(n, 'a second header')
        case 'profile':
          // One statement upserts a batch: a key it holds already (a file that repeats a profile) goes in the next.
          if (batch.keys.has(r.profile_id)) await flush()
          batch.keys.add(r.profile_id)
          current = r.profile_id
          historyOfCurrent = 0
          passagesOfCurrent = 0
          seen.profiles++
          batch.profiles.push(r)
          break
        case 'history':
        case 'submission':
        case 'passage':
          if (r.profile_id !== current) {
            return fail(
              n,
              `a ${r.type} record of profile ${r.profile_id} must follow that profile's record${current ? ` (it follows ${current}'s)` : ''}`,
            )
          }
          if (r.type === 'history') {
            if (++historyOfCurrent > o.profiles.historyEntries) {
              return fail(
                n,
                `profile ${r.profile_id} has more than ${o.profiles.historyEntries} history records (PROFILER_PROFILE_MAX_HISTORY)`,
              )
            }
            if (batch.keys.has(`${r.profile_id}\n${r.seq}`)) await flush()
            batch.keys.add(`${r.profile_id}\n${r.seq}`)
            seen.history++
            batch.history.push(r)
          } else if (r.type === 'passage') {
            seen.passages++
            if (!keepPassages) {
              result.passagesSkipped++
              break
            }
            if (r.position >= o.profiles.passagesPerSubmission) {
              return fail(
                n,
                `passage record: position: must be below ${o.profiles.passagesPerSubmission} (PROFILER_PASSAGES_PER_SUBMISSION passages a submission)`,
              )
            }
            if (++passagesOfCurrent > o.profiles.passagesPerProfile) {
              return fail(
                n,
                `profile ${r.profile_id} has more than ${o.profiles.passagesPerProfile} passage records (PROFILER_PASSAGES_PER_PROFILE)`,
              )
            }
            // One statement writes a batch's passages: a key it holds already goes in the next.
            const k = `${r.submission_id}\n${r.position}`
            if (batch.keys.has(k)) await flush()
            batch.keys.add(k)
            batch.passages.push(r)
          } else {
            const problem = typeof r.text === 'string' ? textProblem(r.text, r.input_type, o.maxDataBytes) : null
            if (problem) return fail(n, `submission record: ${problem}`)
            seen.submissions++
            batch.submissions.push(r)
          }
          break
        case 'end':
          for (const k of ['profiles', 'history', 'submissions', 'passages'] as const) {
            const counted = r[k] ?? 0 // an end record from before passages were exported counts none
            if (counted !== seen[k])
              return fail(n, `the end record counts ${counted} ${k} but the file has ${seen[k]}: records are missing`)
          }
          ended = true
          break
      }
      batch.bytes += text.length
      if (
        batch.profiles.length + batch.history.length + batch.submissions.length + batch.passages.length >=
          IMPORT_BATCH ||
        batch.bytes >= IMPORT_BATCH_BYTES ||
        batch.passages.length >= IMPORT_PASSAGE_BATCH
      ) {
        await flush()
      }
    }
    if (!header) throw invalid('The input is empty: expected an export (JSON Lines, a header record first)')
    if (!ended) return fail(last + 1, 'the file ends without its end record: it was cut short')
    await flush(true)
    return result
  }

  /**
   * The source, charged as it is read: before each chunk passes, the operations its bytes complete are charged (the
   * first `unitBytes` were the request's own operation), waiting for the budget when it is spent.
   */
  private async *charged(
    source: AsyncIterable<Buffer | Uint8Array | string>,
    budget: RequestBudget,
    o: NonNullable<ImportOptions['budget']>,
    signal?: AbortSignal,
  ): AsyncGenerator<Buffer | Uint8Array | string> {
    let read = 0
    let paid = 1
    for await (const chunk of source) {
      read += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength
      const due = Math.ceil(read / o.unitBytes)
      if (due > paid) {
        const d = await budget.chargeWaiting(o.key, due - paid, signal)
        paid = due
        if (d) o.onCharge?.(d)
      }
      yield chunk
    }
  }

  /** Embeds imported profiles with the configured model, unless changed since (a newer version embeds itself). */
  private async embed(
    tenantId: string,
    profiles: ProfileExport[],
    texts: string[],
    versions: Map<string, number>,
    signal?: AbortSignal,
  ): Promise<number> {
    const embedder = this.opts.embedder
    if (!embedder) return 0
    const todo = profiles
      .map((p, i) => ({ p, text: texts[i]! }))
      .filter((x) => x.text !== '' && versions.has(x.p.profile_id))
    let n = 0
    for (let i = 0; i < todo.length; i += EMBED_BATCH) {
      const part = todo.slice(i, i + EMBED_BATCH)
      const { vectors } = await embedder.embed(
        part.map((x) => x.text),
        signal,
      )
      for (const [j, x] of part.entries()) {
        n += await this.repo.storeEmbedding(
          this.ds.manager,
          tenantId,
          x.p.profile_id,
          versions.get(x.p.profile_id)!,
          vectors[j]!,
          embedder.model,
        )
      }
    }
    return n
  }
}

/** The source, ended by the signal: what it throws once the signal aborted (a connection reset) becomes the signal's reason. */
async function* stoppable<T>(source: AsyncIterable<T>, signal?: AbortSignal): AsyncGenerator<T> {
  try {
    for await (const chunk of source) {
      signal?.throwIfAborted()
      yield chunk
    }
  } catch (e) {
    throw signal?.aborted ? signal.reason : e
  }
}

/** Why a submission's text is not what POST would take as `data` for its input_type (a re-extraction replays it so), or null. */
function textProblem(text: string, inputType: InputType, maxBytes: number): string | null {
  if (!/\S/.test(text)) return 'text must not be empty'
  const bytes = Buffer.byteLength(text)
  if (bytes > maxBytes) return `text is ${bytes} bytes; at most ${maxBytes} (PROFILER_MAX_DATA_BYTES, as for POST)`
  if (inputType !== 'text') {
    try {
      checkStorableJson(text, `text (${inputType} JSON)`)
    } catch (e) {
      return (e as Error).message
    }
  }
  const problem = inputProblem(text, inputType)
  return problem && `text is not valid ${inputType} data: ${problem}`
}
