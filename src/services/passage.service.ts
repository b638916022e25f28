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

/** Reading a profile's evidence passages (docs/guides/evidence.md), for REST and GraphQL alike. */
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
    const parsed = parseRequest(this.schema, {
      limit: params.limit,
      cursor: params.cursor || undefined,
      submission_id: params.submissionId ?? undefined,
      include_hidden: params.includeHidden ?? false,
    })
    const after = parsed.cursor ? decodePassageCursor(parsed.cursor) : null
    const manager = this.ds.manager
    if (!(await this.profiles.exists(manager, ctx.tenantId, profileId)))
      throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
    const rows = await this.repo.page(manager, ctx.tenantId, profileId, {
      after,
      limit: parsed.limit + 1,
      submissionId: parsed.submission_id,
      includeHidden: parsed.include_hidden,
    })
    const page = rows.slice(0, parsed.limit)
    return {
      passages: page.map(({ key: _, ...passage }) => passage),
      nextCursor: rows.length > parsed.limit ? encodePassageCursor(page[page.length - 1]!.key) : null,
    }
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** A timestamptz as PostgreSQL writes it (ISO DateStyle): "2023-05-08 10:00:00.123+00". */
const PG_TIME_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](?:0\d|1[0-5])(?::[0-5]\d){0,2}$/

/** Whether `s` is such a time of a real day (a cursor made up with 2023-02-30 would fail in SQL, not here). */
function pgTime(text: string): boolean {
  const match = PG_TIME_RE.exec(text)
  if (!match) return false
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const time = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
  return (
    time.getUTCFullYear() === year &&
    time.getUTCMonth() === month - 1 &&
    time.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  )
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
