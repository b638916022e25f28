// Event time (docs/guides/submitting-data.md#event-time): when the text of a submission was said or written, as opposed
// to when the service accepted it. It dates relative expressions ("yesterday") and orders evidence in the merge. Given
// as `occurred_at` of a submission or `timestamp` of a JSON conversation message; checked here, the same way everywhere
// it enters (POST, GraphQL, import).

/** The earliest event time accepted. */
export const EVENT_TIME_MIN = '1900-01-01T00:00:00.000Z'
/** How far past the service's clock an event time may be (the sender's clock may run ahead). */
export const EVENT_TIME_SKEW_MS = 5 * 60_000
/** The longest event time string accepted ("2023-05-08T14:30:00.123456789+05:30" is 35). */
export const EVENT_TIME_MAX_CHARS = 40

const MIN_MS = Date.parse(EVENT_TIME_MIN)

// A date, or a date-time with seconds optional, fractions optional and an offset required (Z or ±HH:MM).
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

/** The pattern of an accepted event time, for the OpenAPI document. */
export const EVENT_TIME_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}([Tt]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2}))?$'

/** What an event time means, for messages and docs. */
export const EVENT_TIME_FORMS =
  'an ISO 8601 date-time with an offset (2023-05-08T14:30:00+01:00) or a date (2023-05-08)'

const validDay = (year: number, month: number, day: number) => {
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/**
 * The event time as UTC ISO 8601, or why it is not accepted (a sentence fragment to follow the field's name). A date
 * stands for its midnight UTC. `now` is the service's clock (ms since the epoch).
 */
export function parseEventTime(raw: unknown, now: number): { iso: string } | { error: string } {
  if (typeof raw !== 'string') return { error: `must be a string: ${EVENT_TIME_FORMS}` }
  if (raw.length > EVENT_TIME_MAX_CHARS)
    return { error: `must be at most ${EVENT_TIME_MAX_CHARS} characters: ${EVENT_TIME_FORMS}` }
  let ms: number
  const dateMatch = DATE.exec(raw)
  const dt = dateMatch ? null : DATE_TIME.exec(raw)
  if (dateMatch) {
    if (!validDay(+dateMatch[1]!, +dateMatch[2]!, +dateMatch[3]!))
      return { error: `is not a calendar date: ${EVENT_TIME_FORMS}` }
    ms = Date.UTC(+dateMatch[1]!, +dateMatch[2]! - 1, +dateMatch[3]!)
  } else if (dt) {
    const [, y, mo, da, h, mi, s, sign, oh, om] = dt
    if (
      !validDay(+y!, +mo!, +da!) ||
      +h! > 23 ||
      +mi! > 59 ||
      (s !== undefined && +s > 59) ||
      (sign && (+oh! > 14 || +om! > 59))
    ) {
      return { error: `is not a valid time: ${EVENT_TIME_FORMS}` }
    }
    ms = Date.parse(raw)
    if (Number.isNaN(ms)) return { error: `is not a valid time: ${EVENT_TIME_FORMS}` }
  } else return { error: `must be ${EVENT_TIME_FORMS}` }
  if (ms < MIN_MS) return { error: `must not be before ${EVENT_TIME_MIN.slice(0, 10)}` }
  if (ms > now + EVENT_TIME_SKEW_MS)
    return {
      error: `must not be in the future (more than ${EVENT_TIME_SKEW_MS / 60_000} minutes past the service's clock)`,
    }
  return { iso: new Date(ms).toISOString() }
}

/** The later of two ISO 8601 times (undefined counts as none). */
export function laterTime(first: string | undefined, second: string | undefined): string | undefined {
  if (first === undefined) return second
  if (second === undefined) return first
  return Date.parse(second) > Date.parse(first) ? second : first
}
