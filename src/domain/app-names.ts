// App names (docs/reference/cli.md, "App names"): a free display name a person reads, and a slug, the handle scripts
// and the CLI use. Pure functions; the tenant service applies them.
import { invalid } from './errors.js'

export const DISPLAY_NAME_MAX = 100
export const SLUG_MAX = 63
/** A slug: what app names have always been (so an old name is still a valid slug). */
export const SLUG_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/

/**
 * Refused in a display name: control characters (C0, DEL, C1: NUL, tabs, newlines, escapes), line and paragraph
 * separators, lone surrogates, private-use and noncharacters, and invisible format characters, among them the
 * bidirectional controls (U+202A-202E, U+2066-2069, U+200E/F, U+061C) that make a name read differently from what it is
 * ("\u202Eppa" shows as "app" backwards). Allowed format characters: ZWNJ and ZWJ (Persian, Indic scripts, emoji
 * sequences) and the tag characters of subdivision flags.
 */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists code points, not a joined sequence
const REFUSED = /[\p{Cc}\p{Cs}\p{Co}\p{Zl}\p{Zp}\uFDD0-\uFDEF\uFFFE\uFFFF]|(?![\u200C\u200D\u{E0020}-\u{E007F}])\p{Cf}/u

/**
 * The display name as stored: NFC, trimmed, runs of spaces as one space; 1-100 characters (code points).
 * Throws VALIDATION_FAILED (HTTP 400, CLI exit 1) with what is wrong.
 */
export function checkDisplayName(raw: unknown): string {
  if (typeof raw !== 'string') throw invalid('App name must be a string')
  // a lone surrogate cannot be normalised faithfully: refuse before anything else
  if (/\p{Cs}/u.test(raw)) throw invalid('App name must not contain lone surrogates (invalid UTF-16)')
  const bad = REFUSED.exec(raw)
  if (bad) {
    const cp = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')
    throw invalid(`App name must not contain control, invisible or text-direction characters (found U+${cp})`)
  }
  // spaces (U+0020, no-break, ideographic, ...): trimmed, runs as one space; tabs and newlines were refused above
  const name = raw
    .normalize('NFC')
    .replace(/\p{Zs}+/gu, ' ')
    .trim()
  if (!name) throw invalid('App name must not be empty or only white space')
  const length = [...name].length
  if (length > DISPLAY_NAME_MAX)
    throw invalid(`App name must be at most ${DISPLAY_NAME_MAX} characters (got ${length})`)
  return name
}

/** What makes two display names the same name in a tenant: NFKC, lower case ("My App" = "my  app" = "ＭＹ ＡＰＰ"). */
export function displayKey(displayName: string): string {
  return displayName.normalize('NFKC').toLowerCase()
}

export function checkSlug(slug: string): string {
  if (typeof slug !== 'string' || !SLUG_RE.test(slug))
    throw invalid(
      `App slug must be 1-${SLUG_MAX} characters of letters, digits, '.', '_' or '-', starting with a letter or digit`,
    )
  return slug
}

/**
 * The slug a display name suggests: the name itself when it is already a valid slug (so `--name web-app` keeps
 * meaning what it always did), else lower case ASCII with accents dropped and every other run of characters as
 * '-' ("My Web App" -> "my-web-app", "Café Olé!" -> "cafe-ole"); "app" when nothing is left ("日本" , "🚀").
 * At most 56 characters, leaving room for a "-<n>" suffix.
 */
export function slugFrom(displayName: string): string {
  if (SLUG_RE.test(displayName) && displayName.length <= 56) return displayName
  const slug = displayName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 56)
    .replace(/^-+|-+$/g, '')
  return slug || 'app'
}
