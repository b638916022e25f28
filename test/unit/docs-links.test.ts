import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// The documentation as a reader follows it: every relative link of README.md, CONTRIBUTING.md, CHANGELOG.md and
// docs/**/*.md leads to a file of the repository, and a link's #anchor to a heading of the page it names (as GitHub
// makes anchors of headings). Links to http(s) and other schemes are not followed.

const ROOT = path.resolve(import.meta.dirname, '../..')

function markdownUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? markdownUnder(p) : e.name.endsWith('.md') ? [p] : []
  })
}

const PAGES = [
  ...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((f) => path.join(ROOT, f)).filter((f) => fs.existsSync(f)),
  ...markdownUnder(path.join(ROOT, 'docs')),
].sort()

/** The page's lines outside fenced code blocks (a `# comment` in a bash block is no heading, a `[x](y)` no link). */
function proseLines(text: string): string[] {
  const out: string[] = []
  let fence: string | undefined
  for (const line of text.split('\n')) {
    const m = /^\s*(`{3,}|~{3,})/.exec(line)
    if (m) {
      if (!fence) fence = m[1]![0]!.repeat(m[1]!.length)
      else if (line.trim().startsWith(fence)) fence = undefined
      continue
    }
    if (!fence) out.push(line)
  }
  return out
}

/**
 * GitHub's anchor of a heading: its text as rendered, lower-cased, punctuation but '-' and '_' removed, spaces to '-'.
 */
function slug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image: its text
    .replace(/<[^>]+>/g, '') // HTML tags
    .replace(/[`*]/g, '') // code spans and emphasis
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors of a page: its headings' slugs (a repeated one gets -1, -2, ... as on GitHub) and explicit ids. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of proseLines(fs.readFileSync(file, 'utf8'))) {
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (h) {
      const base = slug(h[1]!)
      const n = seen.get(base) ?? 0
      seen.set(base, n + 1)
      anchors.add(n ? `${base}-${n}` : base)
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!)
  }
  return anchors
}

/** The link targets of a page's prose: inline links and images, reference definitions, and HTML href/src. */
function linksOf(file: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = []
  proseLines(fs.readFileSync(file, 'utf8')).forEach((raw, i) => {
    const line = raw.replace(/``[^\n]*?``|`[^`\n]*`/g, '') // code spans hold no links
    const found = [
      ...[...line.matchAll(/\]\(\s*<([^>]*)>[^)]*\)/g)].map((m) => m[1]!),
      ...[...line.matchAll(/\]\(\s*([^)<\s]+)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...line.matchAll(/^\s*\[[^\]]+\]:\s*<?([^\s>]+)>?/g)].map((m) => m[1]!),
      ...[...line.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!),
    ]
    for (const target of found) links.push({ target, line: i + 1 })
  })
  return links
}

/** What is wrong with a link of `file` to `target`, or undefined when it leads where it says. */
function problem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined // http(s), mailto: outside the repository
  const hash = target.indexOf('#')
  const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash))
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1))
  const resolved = pathPart ? path.resolve(path.dirname(file), pathPart) : file
  if (resolved !== ROOT && !resolved.startsWith(ROOT + path.sep)) return 'leads outside the repository'
  if (!fs.existsSync(resolved)) return `no such file: ${path.relative(ROOT, resolved)}`
  if (anchor === undefined || !resolved.endsWith('.md') || fs.statSync(resolved).isDirectory()) return undefined
  if (!anchorsOf(resolved).has(anchor)) return `no heading #${anchor} in ${path.relative(ROOT, resolved)}`
  return undefined
}

describe('documentation links', () => {
  it('finds the pages', () => {
    expect(PAGES.map((p) => path.relative(ROOT, p))).toContain('README.md')
  })

  it.each(PAGES.map((p) => [path.relative(ROOT, p), p]))('%s: every relative link resolves', (_name, file) => {
    const broken = linksOf(file).flatMap(({ target, line }) => {
      const why = problem(file, target)
      return why ? [`line ${line}: ${target} (${why})`] : []
    })
    expect(broken).toEqual([])
  })

  it('headings make the anchors GitHub makes', () => {
    expect(slug('Context for an LLM')).toBe('context-for-an-llm')
    expect(slug('Debugging extraction with `--explain`')).toBe('debugging-extraction-with---explain')
    expect(slug('Provenance: why the profile says it')).toBe('provenance-why-the-profile-says-it')
    expect(slug('The endpoint: `POST /mcp`')).toBe('the-endpoint-post-mcp')
    expect(slug('Claude Desktop (`claude_desktop_config.json`)')).toBe('claude-desktop-claude_desktop_configjson')
    expect(slug('[Unreleased]')).toBe('unreleased')
    expect(slug('0.1.0 - 2026-11-27')).toBe('010---2026-11-27')
  })
})

describe('README.md', () => {
  it('is a front door: about 250 lines at most', () => {
    const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length
    expect(lines).toBeLessThanOrEqual(260)
  })
})
