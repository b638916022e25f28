import type { DataSource } from 'typeorm'
import { passageMismatch, passageSource, visiblePassage, type PassageSource } from '../ai/passages.js'
import type { Embedder } from '../ai/types.js'
import { ExportRepository, type PassageExportKey } from '../db/export.repository.js'
import type { SubmissionEntity } from '../db/entities/submission.entity.js'
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
  /** Passage records not stored: their submission is not the tenant's under that profile, or has no text. */
  passagesSkipped: number
}

/** What an import did, as the API and the CLI report it (snake_case, the REST form). */
export const importSummary = (result: ImportResult) => ({
  profiles: result.profiles,
  history: result.history,
  submissions: result.submissions,
  submissions_kept: result.submissionsKept,
  embedded: result.embedded,
  passages: result.passages,
  passages_kept: result.passagesKept,
  passages_skipped: result.passagesSkipped,
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
  budget?: { key: string; unitBytes: number; onCharge?: (decision: RateDecision) => void }
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
    private readonly key: (record: T) => K,
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
 * Passages written per transaction of an import: a passage at its size bounds is slow to index on the embedded
 * database (its words in two configurations, into a GIN index), where a transaction holds the engine until it commits.
 * Small transactions keep other tenants' statements from waiting long behind an import, at the cost of a slower import.
 */
const IMPORT_PASSAGE_BATCH = 10
/** Texts per embedding request of an import. */
const EMBED_BATCH = 32

/**
 * What an import holds of submissions' texts at once to check their passages: a profile's passages interleave by when
 * they were said, so a few of its submissions are in use together.
 */
const PASSAGE_SOURCES = { count: 64, chars: 2_000_000 }
/** Submissions of one profile whose text the file carried that an import remembers (their first read is free). */
const CARRIED_MAX = 100_000

type PassageCheck = { skip: true } | { problem: string } | null
type SubmissionText = Pick<SubmissionEntity, 'profile_id' | 'input_type' | 'status' | 'data'>
type SourceEntry = { profileId: string; inputType: string; source: PassageSource | null; chars: number }

function sourceEntry(submission: SubmissionText | undefined): SourceEntry | null {
  // Only an applied submission with its text keeps passages (the insert checks the same).
  if (submission?.status !== 'done' || submission.data == null) return null
  const source = passageSource(submission.input_type, submission.data)
  const chars = source ? source.words.length + source.turns.length : 0
  return { profileId: submission.profile_id, inputType: submission.input_type, source, chars }
}

/**
 * The stored texts an import checks passages against (passageMismatch). A submission's text is read and parsed when a
 * passage first needs it and kept while in use (PASSAGE_SOURCES, the least recently used let go), so a passage costs at
 * most one read of its submission and one pass over its text. Reading a text the file did not carry in the profile's
 * records, or one read before and let go, is charged one operation (`charge`): a file naming many stored submissions
 * in turn pays for the reading it causes, as a file pays for its size.
 *
 * A passage whose submission the tenant lacks, holds under another profile, holds not applied or without text is
 * skipped (the insert would not store it: a passage never outlives its submission's text); one whose submission leaves
 * no passages (structured data), or whose words, prompt or speaker its text does not have, is refused.
 */
class PassageSources {
  private readonly kept = new Map<string, SourceEntry | null>()
  private chars = 0
  private readonly carried = new Set<string>()

  constructor(
    private readonly load: (id: string) => Promise<SubmissionText | undefined>,
    private readonly charge: () => Promise<void>,
  ) {}

  /** A profile's records begin: the submissions carried before are another profile's. */
  profile(): void {
    this.carried.clear()
  }

  /** A submission record: the tenant's submission of this id may change (read it again), and its text is paid for. */
  submission(id: string, withText: boolean): void {
    this.drop(id)
    if (withText && this.carried.size < CARRIED_MAX) this.carried.add(id)
  }

  async check(passage: PassageExport): Promise<PassageCheck> {
    let entry = this.kept.get(passage.submission_id)
    if (entry === undefined) {
      if (!this.carried.delete(passage.submission_id)) await this.charge()
      entry = sourceEntry(await this.load(passage.submission_id))
      this.keep(passage.submission_id, entry)
    } else {
      this.kept.delete(passage.submission_id) // kept again as the most recently used
      this.kept.set(passage.submission_id, entry)
    }
    if (!entry || entry.profileId !== passage.profile_id) return { skip: true }
    if (!entry.source) {
      return { problem: `submission_id: ${passage.submission_id} is ${entry.inputType} data, which leaves no passages` }
    }
    const problem = passageMismatch(entry.source, passage)
    return problem ? { problem } : null
  }

  private keep(id: string, entry: SourceEntry | null): void {
    this.kept.set(id, entry)
    this.chars += entry?.chars ?? 0
    while (this.kept.size > PASSAGE_SOURCES.count || (this.chars > PASSAGE_SOURCES.chars && this.kept.size > 1)) {
      this.drop(this.kept.keys().next().value!)
    }
  }

  private drop(id: string): void {
    this.chars -= this.kept.get(id)?.chars ?? 0
    this.kept.delete(id)
  }
}

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
    options: ExportOptions = {},
  ): Promise<{ header: HeaderRecord; records: AsyncGenerator<ExportRecord> }> {
    const profileId = options.profileId === undefined ? null : checkProfileId(options.profileId)
    const manager = this.ds.manager
    const tenant = await this.repo.tenant(manager, ctx.tenantId)
    if (!tenant) throw new DomainError('TENANT_NOT_FOUND', `No tenant '${ctx.tenantId}'`)
    const total = await this.repo.countProfiles(manager, ctx.tenantId, profileId)
    if (profileId !== null && total === 0) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
    const header: HeaderRecord = {
      type: 'header',
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      tenant,
      exported_at: new Date().toISOString(),
      profile_id: profileId,
      include_text: !!options.includeText,
      profiles: total,
    }
    return { header, records: this.records(ctx.tenantId, header, ctx.signal) }
  }

  /** Pages are read only while `signal` holds: a caller that went away stops the export at its next page. */
  private async *records(tenantId: string, header: HeaderRecord, signal?: AbortSignal): AsyncGenerator<ExportRecord> {
    const manager = this.ds.manager
    const pageSize = this.opts.profilesPerPage ?? 100
    const rows = this.opts.rowsPerPage ?? 500
    const counts = { profiles: 0, history: 0, submissions: 0, passages: 0 }
    yield header
    let after: string | null = null
    for (;;) {
      signal?.throwIfAborted()
      const page = await this.repo.profiles(manager, tenantId, { after, profileId: header.profile_id, limit: pageSize })
      if (!page.length) break
      const ids = page.map((p) => p.profile_id)
      const key = (row: { profile_id: string; seq: number }): [string, number] => [row.profile_id, row.seq]
      const history = new PageCursor(
        (after) => (signal?.throwIfAborted(), this.repo.history(manager, tenantId, ids, after, rows)),
        key,
        rows,
      )
      const subs = new PageCursor(
        (after) => (
          signal?.throwIfAborted(),
          this.repo.submissions(manager, tenantId, ids, after, { limit: rows, text: header.include_text })
        ),
        key,
        rows,
      )
      // Passages are the person's words: they travel with the text, never without it.
      const passages = header.include_text
        ? new PageCursor<PassageExport & { key: PassageExportKey }, PassageExportKey>(
            (after) => (signal?.throwIfAborted(), this.repo.passages(manager, tenantId, ids, after, rows)),
            (r) => r.key,
            rows,
          )
        : null
      for (const profile of page) {
        yield profile
        counts.profiles++
        for (let entry = await history.peek(); entry?.profile_id === profile.profile_id; entry = await history.peek()) {
          history.take()
          yield entry
          counts.history++
        }
        for (
          let submission = await subs.peek();
          submission?.profile_id === profile.profile_id;
          submission = await subs.peek()
        ) {
          subs.take()
          yield submission
          counts.submissions++
        }
        for (
          let passage = await passages?.peek();
          passage?.profile_id === profile.profile_id;
          passage = await passages!.peek()
        ) {
          passages!.take()
          const { key: _, ...record } = passage
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
    options: { includeText?: boolean; cap: ExportCap },
  ): Promise<string> {
    const tooLarge = () =>
      new DomainError(
        'PAYLOAD_TOO_LARGE',
        `The exports of this request are over ${options.cap.maxBytes} bytes in all (profile ${profileId}): ` +
          'use GET /v1/export?profile_id=…, which streams',
      )
    if (options.cap.exceeded) throw tooLarge() // an export before it used the cap up: read nothing
    const { records } = await this.open(ctx, { profileId, includeText: options.includeText })
    const out: string[] = []
    for await (const record of records) {
      ctx.signal?.throwIfAborted()
      const line = JSON.stringify(record) + '\n'
      if (!options.cap.take(Buffer.byteLength(line))) {
        await records.return(undefined)
        throw tooLarge()
      }
      out.push(line)
    }
    return out.join('')
  }

  /**
   * Imports an export into the caller's tenant (whichever tenant it came from). A line that is not a valid record
   * (every field within the API's bounds: IMPORT_BOUNDS, the profile limits, submission text as POST takes it), a
   * record out of place, counts that do not match the end record or a file without one fail with VALIDATION_FAILED
   * naming the line; what came before it is imported (each batch commits), so a corrected file imported again completes
   * it.
   */
  async import(
    ctx: RequestContext,
    source: AsyncIterable<Buffer | Uint8Array | string>,
    options: ImportOptions,
  ): Promise<ImportResult> {
    const parseRecord = recordParser({ profiles: options.profiles, latest: Date.now() + IMPORT_BOUNDS.aheadMs })
    const input = stoppable(
      options.budget && this.opts.budget
        ? this.charged(source, this.opts.budget, options.budget, options.signal)
        : source,
      options.signal,
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
    const keepPassages = options.profiles.passagesPerSubmission > 0 && options.profiles.passagesPerProfile > 0
    const empty = () => ({
      profiles: [] as ProfileExport[],
      history: [] as HistoryExport[],
      submissions: [] as SubmissionExport[],
      passages: [] as PassageExport[],
      bytes: 0,
      keys: new Set<string>(),
    })
    let batch = empty()
    const budget = options.budget && this.opts.budget ? { ...options.budget, of: this.opts.budget } : undefined
    const sources = new PassageSources(
      (id) => this.repo.passageSubmission(this.ds.manager, ctx.tenantId, id),
      async () => {
        const decision = budget && (await budget.of.chargeWaiting(budget.key, 1, options.signal))
        if (decision) budget.onCharge?.(decision)
      },
    )
    // Profiles given passages, kept to their limit once their records are over (not after every batch: a profile with
    // thousands of passages would be sorted that many times).
    const toPrune = new Set<string>()
    const flush = async (final = false) => {
      const full = batch
      batch = empty()
      if (
        !full.profiles.length &&
        !full.history.length &&
        !full.submissions.length &&
        !full.passages.length &&
        !(final && toPrune.size)
      )
        return
      // What search reads of each profile (its words, its embedded text) grows with it: computed on a CPU thread,
      // before the transaction.
      const words = await this.cpu.words(
        {
          profiles: full.profiles.map((profile) => ({
            content: profile as unknown as ProfileContent,
            summary: profile.summary,
          })),
        },
        { signal: ctx.signal },
      )
      const versions = await this.uow.run(ctx, async (tx) => {
        const stored = await this.repo.upsertProfiles(
          tx.manager,
          ctx.tenantId,
          full.profiles,
          words.map((w) => w.lexemes),
        )
        await this.repo.upsertHistory(tx.manager, ctx.tenantId, full.history)
        const added = await this.repo.insertSubmissions(tx.manager, ctx.tenantId, full.submissions)
        result.submissions += added
        result.submissionsKept += full.submissions.length - added
        // After the submissions they belong to; then the profiles keep their newest passages within the limit.
        const passageCounts = await this.repo.insertPassages(tx.manager, ctx.tenantId, full.passages)
        result.passages += passageCounts.added
        result.passagesKept += passageCounts.matched - passageCounts.added
        result.passagesSkipped += full.passages.length - passageCounts.matched
        if (passageCounts.added) for (const passage of full.passages) toPrune.add(passage.profile_id)
        for (const id of toPrune) {
          if (!final && id === current) continue
          await this.passageRows.prune(tx.manager, [[ctx.tenantId, id]], options.profiles.passagesPerProfile)
          toPrune.delete(id)
        }
        return stored
      })
      result.profiles += full.profiles.length
      result.history += full.history.length
      result.embedded += await this.embed(
        ctx.tenantId,
        full.profiles,
        words.map((w) => w.text),
        versions,
        ctx.signal,
      )
      options.onProgress?.(result.profiles, header?.profiles ?? result.profiles)
    }
    const fail = async (lineNumber: number, message: string): Promise<never> => {
      await flush(true) // what came before the bad line is good: keep it
      throw invalid(
        `Line ${lineNumber}: ${message}. ` +
          `${result.profiles} profile${result.profiles === 1 ? '' : 's'} before it were imported; ` +
          'importing is idempotent: correct the file and import it again',
      )
    }
    let last = 0
    for await (const { n: lineNumber, text } of lines(input, options)) {
      last = lineNumber
      let record: ExportRecord
      try {
        record = parseRecord(text)
      } catch (err) {
        return fail(lineNumber, (err as Error).message)
      }
      if (ended) return fail(lineNumber, 'a record after the end record')
      if (!header) {
        if (record.type !== 'header')
          return fail(
            lineNumber,
            `the first record must be the header (type "header", format "${EXPORT_FORMAT}"), not ${record.type}`,
          )
        header = record
        options.onProgress?.(0, header.profiles)
        continue
      }
      switch (record.type) {
        case 'header':
          return fail(lineNumber, 'a second header')
        case 'profile':
          // One statement upserts a batch: a key it holds already (a file that repeats a profile) goes in the next.
          if (batch.keys.has(record.profile_id)) await flush()
          batch.keys.add(record.profile_id)
          current = record.profile_id
          sources.profile()
          historyOfCurrent = 0
          passagesOfCurrent = 0
          seen.profiles++
          batch.profiles.push(record)
          break
        case 'history':
        case 'submission':
        case 'passage':
          if (record.profile_id !== current) {
            return fail(
              lineNumber,
              `a ${record.type} record of profile ${record.profile_id} must follow that profile's record` +
                (current ? ` (it follows ${current}'s)` : ''),
            )
          }
          if (record.type === 'history') {
            if (++historyOfCurrent > options.profiles.historyEntries) {
              return fail(
                lineNumber,
                `profile ${record.profile_id} has more than ${options.profiles.historyEntries} history records ` +
                  '(PROFILER_PROFILE_MAX_HISTORY)',
              )
            }
            if (batch.keys.has(`${record.profile_id}\n${record.seq}`)) await flush()
            batch.keys.add(`${record.profile_id}\n${record.seq}`)
            seen.history++
            batch.history.push(record)
          } else if (record.type === 'passage') {
            seen.passages++
            if (!keepPassages) {
              result.passagesSkipped++
              break
            }
            if (record.position >= options.profiles.passagesPerSubmission) {
              return fail(
                lineNumber,
                `passage record: position: must be below ${options.profiles.passagesPerSubmission} ` +
                  '(PROFILER_PASSAGES_PER_SUBMISSION passages a submission)',
              )
            }
            if (++passagesOfCurrent > options.profiles.passagesPerProfile) {
              return fail(
                lineNumber,
                `profile ${record.profile_id} has more than ${options.profiles.passagesPerProfile} passage records ` +
                  '(PROFILER_PASSAGES_PER_PROFILE)',
              )
            }
            const passage = visiblePassage(record)
            if (!/\S/.test(passage.text))
              return fail(lineNumber, 'passage record: text: must not be blank (nothing visible)')
            // Checked against its submission as stored: a submission record of this batch is written first.
            if (batch.submissions.some((x) => x.id === record.submission_id)) await flush()
            const check = await sources.check(passage)
            if (check && 'skip' in check) {
              result.passagesSkipped++
              break
            }
            if (check) return fail(lineNumber, `passage record: ${check.problem}`)
            // One statement writes a batch's passages: a key it holds already goes in the next.
            const key = `${record.submission_id}\n${record.position}`
            if (batch.keys.has(key)) await flush()
            batch.keys.add(key)
            batch.passages.push(passage)
          } else {
            const problem =
              typeof record.text === 'string' ? textProblem(record.text, record.input_type, options.maxDataBytes) : null
            if (problem) return fail(lineNumber, `submission record: ${problem}`)
            seen.submissions++
            sources.submission(record.id, typeof record.text === 'string')
            batch.submissions.push(record)
          }
          break
        case 'end':
          for (const kind of ['profiles', 'history', 'submissions', 'passages'] as const) {
            const counted = record[kind] ?? 0 // an end record from before passages were exported counts none
            if (counted !== seen[kind])
              return fail(
                lineNumber,
                `the end record counts ${counted} ${kind} but the file has ${seen[kind]}: records are missing`,
              )
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
    budgetOptions: NonNullable<ImportOptions['budget']>,
    signal?: AbortSignal,
  ): AsyncGenerator<Buffer | Uint8Array | string> {
    let read = 0
    let paid = 1
    for await (const chunk of source) {
      read += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength
      const due = Math.ceil(read / budgetOptions.unitBytes)
      if (due > paid) {
        const decision = await budget.chargeWaiting(budgetOptions.key, due - paid, signal)
        paid = due
        if (decision) budgetOptions.onCharge?.(decision)
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
      .map((profile, i) => ({ profile, text: texts[i]! }))
      .filter((x) => x.text !== '' && versions.has(x.profile.profile_id))
    let embedded = 0
    for (let i = 0; i < todo.length; i += EMBED_BATCH) {
      const part = todo.slice(i, i + EMBED_BATCH)
      const { vectors } = await embedder.embed(
        part.map((x) => x.text),
        signal,
      )
      for (const [j, item] of part.entries()) {
        embedded += await this.repo.storeEmbedding(
          this.ds.manager,
          tenantId,
          item.profile.profile_id,
          versions.get(item.profile.profile_id)!,
          vectors[j]!,
          embedder.model,
        )
      }
    }
    return embedded
  }
}

/**
 * The source, ended by the signal: what it throws once the signal aborted (a connection reset) becomes the signal's
 * reason.
 */
async function* stoppable<T>(source: AsyncIterable<T>, signal?: AbortSignal): AsyncGenerator<T> {
  try {
    for await (const chunk of source) {
      signal?.throwIfAborted()
      yield chunk
    }
  } catch (err) {
    throw signal?.aborted ? signal.reason : err
  }
}

/**
 * Why a submission's text is not what POST would take as `data` for its input_type (a re-extraction replays it so), or
 * null.
 */
function textProblem(text: string, inputType: InputType, maxBytes: number): string | null {
  if (!/\S/.test(text)) return 'text must not be empty'
  const bytes = Buffer.byteLength(text)
  if (bytes > maxBytes) return `text is ${bytes} bytes; at most ${maxBytes} (PROFILER_MAX_DATA_BYTES, as for POST)`
  if (inputType !== 'text') {
    try {
      checkStorableJson(text, `text (${inputType} JSON)`)
    } catch (err) {
      return (err as Error).message
    }
  }
  const problem = inputProblem(text, inputType)
  return problem && `text is not valid ${inputType} data: ${problem}`
}
