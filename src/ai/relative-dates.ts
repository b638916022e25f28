// Relative time in what a person said, resolved against when it was said (docs/guides/context.md): a passage
// said on 8 May 2023 that reads "I went to a support group yesterday" is quoted as "... yesterday (7 May 2023)", so a
// model (or a reader) can answer "when?" without date arithmetic. chrono-node parses; the granularity shown is what the
// expression fixes: a day, a week, a month or a year. Pure.
import * as chrono from 'chrono-node'
import { MONTHS, readableDate } from '../domain/passages.js'

/**
 * The words that make an expression relative to when it was said. Only such expressions are resolved: a bare month or
 * day ("in June", "on May 3") may lie before or after the day it was said, and chrono can only guess which.
 */
const RELATIVE = /\b(?:yesterday|tomorrow|tonight|ago|last|next|this|past|coming)\b/i

/** "last summer", "this spring" (not winter: it spans two years). */
const SEASON = /\b(last|this) (spring|summer|fall|autumn)\b/gi
/** The last month (0-based) of each season, northern hemisphere. */
const SEASON_LAST_MONTH: Record<string, number> = { spring: 4, summer: 7, fall: 10 }

/**
 * What an expression says, at the granularity it fixes ("7 May 2023", "week of 1 May 2023", "June 2023", "2022"), or
 * null.
 */
function resolved(result: chrono.ParsedResult, said: Date): string | null {
  // An expression that names its year is already absolute ("May 2019", "3 June 2021"): nothing to add.
  if (!RELATIVE.test(result.text) || /\b\d{4}\b/.test(result.text)) return null
  const start = result.start
  const date = start.date()
  if (Number.isNaN(date.getTime())) return null
  const day = start.isCertain('day') || start.isCertain('weekday')
  // The day it was said ("today", "this morning") is the passage's own date line.
  if (
    day &&
    date.getUTCFullYear() === said.getUTCFullYear() &&
    date.getUTCMonth() === said.getUTCMonth() &&
    date.getUTCDate() === said.getUTCDate()
  )
    return null
  if (/\bweeks?\b/i.test(result.text)) return `week of ${readableDate(date.toISOString())}`
  if (day) return readableDate(date.toISOString())
  if (start.isCertain('month')) return `${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`
  if (start.isCertain('year')) return String(date.getUTCFullYear())
  return null
}

/**
 * `text` with each relative date expression followed by the date it stands for, counted from `at` (ISO 8601, when the
 * text was said; its UTC calendar day): "yesterday" -> "yesterday (7 May 2023)", "last year" -> "last year (2022)",
 * "next month" -> "next month (June 2023)", "last Saturday" -> "last Saturday (6 May 2023)". Expressions that name
 * their year, or the day it was said itself, are left as they are. The text unchanged when nothing resolves or `at` is
 * not a time.
 */
export function withDates(text: string, at: string): string {
  if (!RELATIVE.test(text)) return text
  const said = new Date(at)
  if (Number.isNaN(said.getTime())) return text
  let results: chrono.ParsedResult[]
  try {
    results = chrono.parse(text, { instant: said, timezone: 0 })
  } catch {
    return text
  }
  const found: { end: number; date: string }[] = []
  for (const r of results) {
    const date = resolved(r, said)
    if (date) found.push({ end: r.index + r.text.length, date })
  }
  // chrono has no seasons: "last summer" said in May 2023 is summer 2022, "this spring" spring 2023.
  for (const m of text.matchAll(SEASON)) {
    const [, which, season] = m
    const seasonName = season!.toLowerCase() === 'autumn' ? 'fall' : season!.toLowerCase()
    const ended = said.getUTCMonth() > SEASON_LAST_MONTH[seasonName]!
    const year = which!.toLowerCase() === 'last' && !ended ? said.getUTCFullYear() - 1 : said.getUTCFullYear()
    found.push({ end: m.index + m[0].length, date: `${seasonName} ${year}` })
  }
  let out = text
  // From the end, so the indexes of the earlier ones still hold.
  for (const { end, date } of found.sort((a, b) => b.end - a.end)) {
    if (out.slice(end, end + 2) === ' (') continue // already annotated, or followed by a parenthesis of its own
    out = `${out.slice(0, end)} (${date})${out.slice(end)}`
  }
  return out
}
