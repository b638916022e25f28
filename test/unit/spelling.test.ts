import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { queryTerms, termLiteral, termsQuery } from '../../src/domain/lexical.js'
import {
  mayBeMisspelt,
  oneEditAway,
  SPELLING_COMMON_WORDS,
  SPELLING_MAX_ALTERNATIVES,
  SPELLING_MAX_LENGTH,
  SPELLING_MAX_WORDS,
  spellingAlternatives,
  spellingCorrections,
  uncommonTerms,
} from '../../src/domain/spelling.js'

// A small dictionary, ranked as a corpus would: common words first.
const dictionary = new Map(
  [
    'the',
    'star',
    'wars',
    'industry',
    'modeling',
    'yodeling',
    'nurse',
    'reading',
    'shawarma',
    'shawarmas',
    'harpsichord',
    'starwars',
    'nato',
    'natty',
  ].map((w, i): [string, number] => [
    w,
    ['shawarma', 'shawarmas', 'harpsichord', 'starwars'].includes(w) ? SPELLING_COMMON_WORDS + i : i,
  ]),
)
const alternativesOf = (query: string) => spellingAlternatives(query, queryTerms(query), dictionary)

describe('typo tolerance: what a misspelt query word may have meant', () => {
  it('one edit away: a letter dropped, swapped with the next, replaced or added', () => {
    const v = new Set(oneEditAway('schawarma'))
    expect(v.has('shawarma')).toBe(true) // dropped
    expect(v.has('schawamra')).toBe(true) // swapped
    expect(v.has('schawarmo')).toBe(true) // replaced
    expect(v.has('schawarmas')).toBe(true) // added
    expect(v.has('schawarma')).toBe(false)
    expect(new Set(oneEditAway('cafe')).has('café')).toBe(false) // a-z and the word's own letters only
    expect(new Set(oneEditAway('café')).has('cafe')).toBe(true)
    // Bounded: at most (letters) x (length + 1) insertions and as many replacements, plus deletions and swaps.
    fc.assert(
      fc.property(fc.string({ maxLength: SPELLING_MAX_LENGTH }), (w) => {
        const letters = new Set([...'abcdefghijklmnopqrstuvwxyz', ...w]).size
        expect(oneEditAway(w).length).toBeLessThanOrEqual(2 * letters * ([...w].length + 1) + 2 * [...w].length)
      }),
    )
  })

  it('dictionary words one edit away and splits into two of its words, as stems, most frequent first', () => {
    // "shawarma" and "shawarmas" are one meaning (one stem).
    expect(alternativesOf('likes schawarma')).toEqual(new Map([['schawarma', [['shawarma']]]]))
    expect(alternativesOf('is from the industryy')).toEqual(new Map([['industryi', [['industri']]]]))
    // "starwars" is a dictionary word, but a rare one: its split into two common ones is tried.
    expect(alternativesOf('likes watching starwars')).toEqual(new Map([['starwar', [['star', 'war']]]]))
    expect(alternativesOf('likes harpsicord')).toEqual(new Map([['harpsicord', [['harpsichord']]]]))
    // A common word is spelt as meant ("yodeling" is not a misspelt "modeling"); short words, words with digits,
    // filler and frame words (not terms) are not looked at; nor a word with no variant in the dictionary.
    expect(alternativesOf('likes yodeling')).toEqual(new Map())
    expect(alternativesOf('likes nato')).toEqual(new Map())
    expect(alternativesOf('the nurse206')).toEqual(new Map())
    expect(alternativesOf('likes zqxwvuts')).toEqual(new Map())
    expect(mayBeMisspelt('likes zqxwvuts', queryTerms('likes zqxwvuts'))).toBe(true)
  })

  it('words looked at: uncommon ones, one per term, at most SPELLING_MAX_WORDS (none for common words)', () => {
    const terms = (q: string) => queryTerms(q)
    expect(uncommonTerms('likes reading and modeling', terms('likes reading and modeling'), dictionary)).toEqual([])
    expect(uncommonTerms('likes schawarma schawarma', terms('likes schawarma schawarma'), dictionary)).toEqual([
      'schawarma',
    ])
    const q = 'zzzzz zzzzy zzzzx zzzzw'
    expect(uncommonTerms(q, terms(q), dictionary)).toHaveLength(SPELLING_MAX_WORDS)
  })

  it('the corrections as written too (what a passage lookup asks for): one word, or the two of a split', () => {
    expect(spellingCorrections('likes watching starwars', ['starwar'], dictionary)).toEqual(
      new Map([['starwar', [{ words: ['star', 'wars'], stems: ['star', 'war'] }]]]),
    )
    // "shawarma" and "shawarmas" are one stem: the more frequent word is kept.
    expect(spellingCorrections('schawarma', ['schawarma'], dictionary)).toEqual(
      new Map([['schawarma', [{ words: ['shawarma'], stems: ['shawarma'] }]]]),
    )
    // Only the terms asked about: a word whose stem is not among them is not looked at.
    expect(spellingCorrections('schawarma industryy', ['industryi'], dictionary)).toEqual(
      new Map([['industryi', [{ words: ['industry'], stems: ['industri'] }]]]),
    )
    expect(mayBeMisspelt('likes cat', queryTerms('likes cat'))).toBe(false)
    // At most SPELLING_MAX_WORDS words looked at, none longer than SPELLING_MAX_LENGTH.
    const many = Array.from({ length: 6 }, () => 'industryy')
      .map((w, i) => `${w}${'abcdef'[i]}`)
      .join(' ')
    expect(
      spellingAlternatives('industryy shawarmma harpsicord', queryTerms('industryy shawarmma harpsicord'), dictionary)
        .size,
    ).toBe(SPELLING_MAX_WORDS)
    expect(
      spellingAlternatives(
        `zzzzz zzzzy zzzzx ${many} harpsicord`,
        queryTerms(`zzzzz zzzzy zzzzx ${many} harpsicord`),
        dictionary,
      ),
    ).toEqual(new Map())
    expect(alternativesOf(`${'x'.repeat(SPELLING_MAX_LENGTH)}d harpsicord`).size).toBe(1)
    // At most SPELLING_MAX_ALTERNATIVES per word.
    const big = new Map(oneEditAway('abcdefg').map((w, i): [string, number] => [w, i]))
    expect(spellingAlternatives('abcdefg', ['abcdefg'], big).get('abcdefg')).toHaveLength(SPELLING_MAX_ALTERNATIVES)
  })

  it('a term with alternatives is matched by itself or by any of them, in the tsquery; quotes stay quoted', () => {
    expect(termsQuery(['starwar', 'fan'], new Map([['starwar', [['star', 'war'], ['starwars']]]]))).toBe(
      "('starwar' | ('star' & 'war') | 'starwars') & 'fan'",
    )
    expect(termLiteral("o'brien", [["o'brian"]])).toBe("('o''brien' | 'o''brian')")
    expect(termLiteral('plain')).toBe("'plain'")
  })
})

describe('the dictionary: the local embedder corpus words, by frequency', () => {
  it('reads the words array at the start of the vector file, each with its rank', async () => {
    const { dictionaryWords } = await import('../../src/ai/local/local-embedder.js')
    const d = await dictionaryWords()
    expect(d.size).toBe(341_479)
    expect(d.get('the')).toBe(0)
    expect(d.get('industry')).toBeLessThan(SPELLING_COMMON_WORDS)
    expect(d.get('shawarma')).toBeGreaterThan(SPELLING_COMMON_WORDS)
    expect(d.get('schawarma')).toBeUndefined()
    expect(await dictionaryWords()).toBe(d) // read once
  })
})
