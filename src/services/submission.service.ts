import crypto from 'node:crypto'
import type { DataSource, EntityManager } from 'typeorm'
import { checkConversation } from '../ai/conversation.js'
import { DomainError, invalid } from '../domain/errors.js'
import type { InputType } from '../domain/profile.js'
import type { SubmissionStatus } from '../domain/submission.js'
import { validateStructured, type StructuredBounds } from '../domain/structured.js'
import { parseRequest, submitBodySchema } from '../domain/requests.js'
import {
  checkDataSize,
  checkIdempotencyKey,
  checkProfileId,
  checkStorable,
  checkStorableJson,
} from '../domain/validation.js'
import type { EventBus } from '../events/event-bus.js'
import type { DueTenants } from '../jobs/due-tenants.js'
import { jobInsertSql, type JobQueue } from '../jobs/queue.js'
import type { Statement, Statements } from '../db/statements.js'
import { SubmissionRepository, submissionView, type SubmissionRow } from '../db/submission.repository.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import type { Usage } from '../ai/types.js'
import type { RequestContext } from './context.js'
import { currentTraceparent, inSpan, tracingOn } from '../tracing/tracing.js'

export interface SubmitInput {
  data: unknown
  input_type?: unknown
  /**
   * When the text was said or written (docs/guides/submitting-data.md); absent: its conversation's latest timestamp,
   * else the acceptance time.
   */
  occurred_at?: unknown
  idempotencyKey?: string
}

export interface SubmissionAck {
  id: string
  profileId: string
  /** True when an Idempotency-Key replay returned the original submission. */
  replayed: boolean
}

export interface Submission {
  id: string
  profile_id: string
  /** Acceptance order within the tenant (a paging cursor). */
  seq: number
  input_type: InputType
  status: SubmissionStatus
  attempts: number
  error: string | null
  created_at: string
  /** When the text was said or written: as given, or the acceptance time (created_at) when none was. */
  occurred_at: string
  started_at: string | null
  finished_at: string | null
  /** Tokens the AI provider reported for this submission (its share of each batch request), null for none. */
  usage: Usage | null
  prompt_version: string | null
  /** Whether its text is still stored (false once retention or a deletion of its evidence dropped it). */
  has_text: boolean
}

const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000

/**
 * What POST refuses in `data` of an allowed size and characters, or null: structured data that is not a partial
 * profile, a conversation without the profiled person's turns. An import holds submission text to the same rule.
 */
export function inputProblem(data: string, inputType: InputType, bounds?: StructuredBounds): string | null {
  return inputCheck(data, inputType, bounds, Date.now()).problem
}

/** inputProblem, and for a JSON conversation whose messages carry timestamps, the latest of them (UTC ISO 8601). */
export function inputCheck(
  data: string,
  inputType: InputType,
  bounds: StructuredBounds | undefined,
  now: number,
): { problem: string | null; latest?: string } {
  if (inputType === 'structured') return { problem: validateStructured(data, bounds) }
  return inputType === 'conversation' ? checkConversation(data, now) : { problem: null }
}

/**
 * A POST as one statement, so it costs one round trip: the profile is created, or turned `processing` (its row locked
 * either way, which serializes with the worker's claim and apply), the submission stored, and, when the profile was not
 * processing already, its job enqueued and the status event's order taken; all committed together. The event itself is
 * published after the commit (see EventBus.publish). A profile that is processing has a job or a worker on it already:
 * the worker re-counts open submissions under the same row lock before it lets a profile go, so it takes this one too.
 * Parameters: tenant, profile id, submission id, input type, data, idempotency key, request hash, app (recorded for the
 * app's retention policy), traceparent (null when tracing is off), occurred_at (null: the acceptance time), and with
 * the job, its data and priority.
 */
export const SUBMIT_SQL = submitSql({ withJob: true })

/**
 * The POST on a sharded database (Citus): SUBMIT_SQL without the job, so that it writes the tenant's shard and no table
 * of the coordinator. A worker enqueues the job from the status event (LeadEnqueuer); the tenant is marked due before
 * the transaction (DueTenants), so the reconciler finds a job that no one enqueued.
 */
export const SHARDED_SUBMIT_SQL = submitSql({ withJob: false })

function submitSql(opts: { withJob: boolean }): string {
  const job = `, j AS (
      ${jobInsertSql('$11', '$12', 'EXISTS (SELECT 1 FROM p)')}
    )`
  // A profile that starts processing without a job would wait for the reconciler: fail the statement instead.
  const guard = `,
           CASE WHEN seq IS NOT NULL AND jobs = 0 THEN ('no job was enqueued for queue ' || jobs)::int END AS guard`
  return `WITH p AS (
      INSERT INTO profiles (tenant_id, profile_id, status) VALUES ($1, $2, 'processing')
      ON CONFLICT (tenant_id, profile_id) DO UPDATE SET status = 'processing' WHERE profiles.status <> 'processing'
      RETURNING 1
    ), s AS (
      INSERT INTO submissions (tenant_id, id, profile_id, input_type, data, idempotency_key, request_hash, app_id,
                               traceparent, occurred_at)
      VALUES ($1, $3, $2, $4, $5, $6, $7, $8, $9, $10::timestamptz)
    )${opts.withJob ? job : ''}
    SELECT seq${opts.withJob ? guard : ''}
      -- The event order is taken here, once p holds the profile's row lock, and not in p's RETURNING: a sharded
      -- database (Citus) runs p on the tenant's node, where the sequence is not (functions in a RETURNING of a
      -- distributed table must be immutable).
      FROM (SELECT CASE WHEN EXISTS (SELECT 1 FROM p) THEN nextval('profile_status_seq') END AS seq
                   ${opts.withJob ? ', (SELECT count(*) FROM j) AS jobs' : ''}) x`
}

/** Accepting submissions: validated, committed in one statement (with their job, on one server), then acknowledged. */
export class SubmissionService {
  /** Its row: the status event's order (a bigint, as text) when the profile started processing, else null. */
  private readonly submitStatement: Statement<{ seq: string | null }>
  private readonly repo = new SubmissionRepository()

  constructor(
    private readonly ds: DataSource,
    statements: Statements,
    private readonly queue: JobQueue,
    private readonly bus: EventBus,
    private readonly limits: { maxDataBytes: number; maxValueChars: number },
    /** On a sharded database: the due tenants, marked before each POST's transaction. */
    private readonly due?: DueTenants,
  ) {
    this.submitStatement = due
      ? statements.define<{ seq: string | null }>('profiler_submit_sharded', SHARDED_SUBMIT_SQL)
      : statements.define<{ seq: string | null }>('profiler_submit', SUBMIT_SQL)
    this.uow = new UnitOfWork(ds)
  }
  private readonly uow: UnitOfWork

  async submit(ctx: RequestContext, profileId: string, input: SubmitInput): Promise<SubmissionAck> {
    if (!tracingOn()) return this.accept(ctx, profileId, input)
    // The span's traceparent is stored with the submission: the worker's spans for it continue this trace.
    const attributes = {
      'profiler.tenant_id': ctx.tenantId,
      'profiler.profile_id': String(profileId).slice(0, 256),
      'profiler.request_id': ctx.requestId,
    }
    return inSpan('submission.accept', { attributes }, async (span) => {
      const ack = await this.accept(ctx, profileId, input)
      span?.setAttributes({ 'profiler.submission_id': ack.id, 'profiler.replayed': ack.replayed })
      return ack
    })
  }

  private async accept(ctx: RequestContext, profileId: string, input: SubmitInput): Promise<SubmissionAck> {
    checkProfileId(profileId)
    const body = parseRequest(submitBodySchema, {
      data: input.data,
      input_type: input.input_type,
      occurred_at: input.occurred_at,
    })
    const data = checkDataSize(body.data, this.limits.maxDataBytes)
    const inputType: InputType = body.input_type ?? 'text'
    checkStorable(data, 'field data')
    if (inputType !== 'text') checkStorableJson(data, `field data (${inputType} JSON)`)
    const key = checkIdempotencyKey(input.idempotencyKey)
    const check = inputCheck(data, inputType, { maxValueChars: this.limits.maxValueChars }, Date.now())
    if (check.problem) throw invalid(`Invalid data for input_type ${inputType}: ${check.problem}`)
    // Given, or the time of the conversation's latest message; null stands for the acceptance time.
    const occurredAt = body.occurred_at ?? check.latest ?? null
    // The event time is part of the request (a date and its midnight UTC are the same one); none adds nothing, so keys
    // used before event times existed replay as they did.
    const hash = crypto
      .createHash('sha256')
      .update(`${profileId}\0${inputType}\0${data}${body.occurred_at ? `\0${body.occurred_at}` : ''}`)
      .digest('hex')
    const row = { data, inputType, key, hash, occurredAt }
    try {
      return await this.insert(ctx, profileId, row)
    } catch (err: any) {
      // Two requests racing with the same new key: the loser replays the winner.
      if (key && (err?.code === '23505' || err?.driverError?.code === '23505')) return this.insert(ctx, profileId, row)
      throw err
    }
  }

  private async insert(
    ctx: RequestContext,
    profileId: string,
    request: { data: string; inputType: InputType; key: string | undefined; hash: string; occurredAt: string | null },
  ) {
    const { data, inputType, key, hash } = request
    const id = crypto.randomUUID()
    const params = [
      ctx.tenantId,
      profileId,
      id,
      inputType,
      data,
      key ?? null,
      hash,
      ctx.appId,
      currentTraceparent(),
      request.occurredAt,
      ...(this.due ? [] : [JSON.stringify({ tenantId: ctx.tenantId, profileId }), this.queue.priority(ctx.tenantId)]),
    ]
    // Before the transaction: a POST that commits is always under a mark, whatever happens after.
    await this.due?.mark(ctx.tenantId)
    let seq: number | null = null
    const run = async (manager?: EntityManager): Promise<SubmissionAck> => {
      const [row] = await this.submitStatement.rows(params, manager)
      seq = row!.seq === null ? null : Number(row!.seq)
      return { id, profileId, replayed: false }
    }
    const ack = key
      ? await this.uow.run(ctx, ({ manager }) => this.replayOr(manager, ctx, key, hash, () => run(manager)))
      : await run()
    // Not raised in the transaction (a NOTIFY in it would serialize every committing POST of the cluster, see
    // PostgresEventBus): published after the commit, ordered by its seq.
    if (seq !== null)
      this.bus.publish('profileStatusChanged', {
        tenantId: ctx.tenantId,
        profileId,
        status: 'processing',
        at: new Date().toISOString(),
        seq,
      })
    return ack
  }

  /** With an Idempotency-Key: the original answer when the key was used within the window, else `fresh()`. */
  private async replayOr(
    manager: EntityManager,
    ctx: RequestContext,
    key: string,
    hash: string,
    fresh: () => Promise<SubmissionAck>,
  ): Promise<SubmissionAck> {
    const previous = await this.repo.byIdempotencyKey(manager, ctx.tenantId, key)
    if (previous) {
      if (Date.now() - new Date(previous.created_at).getTime() < IDEMPOTENCY_WINDOW_MS) {
        if (previous.request_hash !== hash) {
          throw new DomainError(
            'IDEMPOTENCY_CONFLICT',
            'Idempotency-Key was already used with a different request body',
          )
        }
        return { id: previous.id, profileId: previous.profile_id, replayed: true }
      }
      await this.repo.releaseIdempotencyKey(manager, ctx.tenantId, previous.id)
    }
    return fresh()
  }

  async get(ctx: RequestContext, id: string): Promise<Submission> {
    const submission = await this.find(ctx, id)
    if (!submission) throw new DomainError('SUBMISSION_NOT_FOUND', `Submission ${id} not found`)
    return submission
  }

  async find(ctx: RequestContext, id: string): Promise<Submission | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null
    const row = await this.repo.find(this.ds.manager, ctx.tenantId, id)
    return row ? toSubmission(row) : null
  }

  /** Tokens used by the caller's tenant, over all its submissions (deleted profiles' submissions go with them). */
  async usageTotals(ctx: RequestContext): Promise<Usage & { submissions: number }> {
    return this.repo.usageTotals(this.ds.manager, ctx.tenantId)
  }

  async listForProfile(
    ctx: RequestContext,
    profileId: string,
    opts: { afterSeq?: number; limit: number; status?: string },
  ): Promise<Submission[]> {
    return (await this.repo.listForProfile(this.ds.manager, ctx.tenantId, profileId, opts)).map(toSubmission)
  }
}

const toSubmission = (row: SubmissionRow): Submission => ({ ...submissionView(row), has_text: row.has_text !== false })
