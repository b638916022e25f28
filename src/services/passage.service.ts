import type { DataSource } from 'typeorm'
import { PassageRepository, type PassageKey, type PassageView } from '../db/passage.repository.js'
import type { ProfileRepository } from '../db/profile.repository.js'
import { DomainError, invalid } from '../domain/errors.js'
import { parseRequest, passageParamsSchema } from '../domain/requests.js'
import { checkProfileId } from '../domain/validation.js'
import type { RequestContext } from './context.js'

export interface PassageListParams {
  /** Passages per page: 1 to PROFILER_MAX_PAGE_SIZE, default 20. */
  limit?: number
  /** The previous page's nextCursor. */
  cursor?: string | null
  submissionId?: string | null
  /** Also hidden passages (a forgotten value's evidence), with when and why they were hidden. */
  includeHidden?: boolean
}

export interface PassagePage {
  passages: PassageView[]
  /** The cursor of the next page; null on the last. */
  nextCursor: string | null
}

/** Reading a profile's evidence passages (README "Evidence passages"), for REST and GraphQL alike. */
export class PassageService {
  private readonly repo = new PassageRepository()
  private readonly schema: ReturnType<typeof passageParamsSchema>

  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileRepository,
    maxPageSize: number,
  ) {
    this.schema = passageParamsSchema(maxPageSize)
  }

  /** A page of the profile's passages, newest said first; PROFILE_NOT_FOUND when the tenant has no such profile. */
  async list(ctx: RequestContext, profileId: string, params: PassageListParams = {}): Promise<PassagePage> {
    checkProfileId(profileId)
    const p = parseRequest(this.schema, {
      limit: params.limit,
      cursor: params.cursor || undefined,
      submission_id: params.submissionId ?? undefined,
      include_hidden: params.includeHidden ?? false,
    })
    const after = p.cursor ? decodePassageCursor(p.cursor) : null
    const m = this.ds.manager
    if (!(await this.profiles.exists(m, ctx.tenantId, profileId)))
      throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
    const rows = await this.repo.page(m, ctx.tenantId, profileId, {
      after,
      limit: p.limit + 1,
      submissionId: p.submission_id,
      includeHidden: p.include_hidden,
    })
    const page = rows.slice(0, p.limit)
    return {
      passages: page.map(({ key: _, ...r }) => r),
      nextCursor: rows.length > p.limit ? encodePassageCursor(page[page.length - 1]!.key) : null,
    }
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** A timestamptz as PostgreSQL writes it (ISO DateStyle): "2023-05-08 10:00:00.123+00". */
const PG_TIME_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](?:0\d|1[0-5])(?::[0-5]\d){0,2}$/

/** Whether `s` is such a time of a real day (a cursor made up with 2023-02-30 would fail in SQL, not here). */
function pgTime(s: string): boolean {
  const m = PG_TIME_RE.exec(s)
  if (!m) return false
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, sec))
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60 && sec < 60
}

/** Opaque to clients: the last passage's key, base64url JSON. */
export function encodePassageCursor(key: PassageKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

export function decodePassageCursor(cursor: string): PassageKey {
  const bad = () =>
    invalid('Invalid query parameter cursor: not a cursor of this list (pass next_cursor as it was given)')
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString())
  } catch {
    throw bad()
  }
  if (!Array.isArray(key) || key.length !== 3) throw bad()
  const [at, submission, position] = key
  if (typeof at !== 'string' || !pgTime(at) || typeof submission !== 'string' || !UUID_RE.test(submission)) throw bad()
  if (!Number.isInteger(position) || position < 0 || position > 2 ** 31 - 1) throw bad()
  return [at, submission, position]
}
