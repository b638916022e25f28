import { describe, expect, it } from 'vitest'
import { buildPassages } from '../../src/ai/passages.js'
import { withoutInvisible } from '../../src/domain/invisible.js'

const AT = '2024-01-01T00:00:00.000Z'
const BIDI = [
  ...['\u202A', '\u202B', '\u202C', '\u202D', '\u202E'],
  ...['\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'],
]

describe('withoutInvisible', () => {
  it('leaves out every bidi control and the other invisible format characters', () => {
    for (const c of BIDI) {
      expect(withoutInvisible(`I love${c} chess`), `U+${c.codePointAt(0)!.toString(16)}`).toBe('I love chess')
    }
    // zero-width space, word joiner, soft hyphen, byte order mark, interlinear annotation, tag characters
    const hidden = 'ch\u200Be\u2060s\u00ADs\uFEFF \uFFF9x\uFFFA \u{E0049}\u{E0067}\u{E006E}ok'
    expect(withoutInvisible(hidden)).toBe('chess x ok')
  })

  it('turns other control characters into spaces and keeps white space as it is', () => {
    expect(withoutInvisible('a\u001b[1mb\u0007c\u0085d')).toBe('a [1mb c d')
    expect(withoutInvisible('tab\tline\ncr\r\nff\f')).toBe('tab\tline\ncr\r\nff\f')
  })

  it('keeps what scripts and emoji need: ZWNJ, ZWJ, and the tags of a subdivision flag', () => {
    const persian = 'می\u200Cخواهم'
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'
    const england = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'
    expect(withoutInvisible(`${persian} ${family} ${england}`)).toBe(`${persian} ${family} ${england}`)
    // Tags that do not make a flag are hidden text.
    expect(withoutInvisible(`\u{1F3F4}x\u{E0067}\u{E007F}`)).toBe('\u{1F3F4}x')
  })

  it('returns a text without any as it is, and takes linear time on one full of them', () => {
    const plain = 'I love chess. '.repeat(1000)
    expect(withoutInvisible(plain)).toBe(plain)
    const hostile = 'ab\u202E'.repeat(100_000)
    const t0 = performance.now()
    expect(withoutInvisible(hostile)).toBe('ab'.repeat(100_000))
    expect(performance.now() - t0).toBeLessThan(2000)
  })
})

describe('buildPassages: what a passage keeps is visible', () => {
  it("a conversation's turns, the turns they answer and the speaker's label hold no invisible character", () => {
    const data = [
      'Caro\u202Eline: Hi!',
      'Mel\u202E: Do you \u2066like\u2069 jazz?',
      'Caro\u200Bline: Yes, a \u202Elot\u202C.',
      'Mel: And chess?',
      'Caroline: I love\u200F chess.',
    ].join('\n')
    const { passages } = buildPassages({ input_type: 'conversation', data, occurredAt: AT }, { perSubmission: 200 })
    expect(passages.map((p) => [p.speaker, p.prompt, p.text])).toEqual([
      ['Caroline', null, 'Hi!'],
      ['Caroline', 'Do you like jazz?', 'Yes, a lot.'],
      ['Caroline', 'And chess?', 'I love chess.'],
    ])
  })

  it("a text's sentence windows hold none", () => {
    const data = 'I live in \u202EOslo\u202C. I love\u00AD chess.'
    const { passages } = buildPassages({ input_type: 'text', data, occurredAt: AT }, { perSubmission: 200 })
    expect(passages.map((p) => p.text)).toEqual(['I live in Oslo. I love chess.'])
  })
})
