import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PiecewiseLinearCalibration } from '../../src/ai/calibration.js'
import { LOCAL_CALIBRATION_POINTS } from '../../src/ai/local/calibration.js'
import {
  COVER_SCORE,
  everyWord,
  hybridScore,
  lexicalThresholds,
  LEXICAL_SCORE,
  lexicalVectorFloor,
  MAX_QUERY_TERMS,
  profileLexemes,
  queryTerms,
  rankHybrid,
  termsQuery,
} from '../../src/domain/lexical.js'
import { emptyContent } from '../../src/domain/profile.js'

describe('hybrid search: words and scores', () => {
  it('query terms: content words folded and stemmed; filler dropped; frame words only as a last resort', () => {
    expect(queryTerms('has a pet turtle')).toEqual(['turtl'])
    expect(queryTerms('lives in Texas')).toEqual(['texa'])
    expect(queryTerms('likes watching comedy')).toEqual(['comedi'])
    expect(queryTerms('enjoys reading')).toEqual(['read'])
    expect(queryTerms('Brzęczyszczykiewicz from Kraków')).toEqual(['brzeczyszczykiewicz', 'krakow'])
    expect(queryTerms('東京')).toEqual(['東京'])
    expect(queryTerms('the a of is')).toEqual([])
    expect(queryTerms(`!!! ??? &|!:* <-> () '' ""`)).toEqual([])
    expect(queryTerms('')).toEqual([])
    // A description longer than MAX_QUERY_TERMS words is left to the vector.
    expect(queryTerms(Array.from({ length: MAX_QUERY_TERMS + 1 }, (_, i) => `word${i}`).join(' '))).toEqual([])
    expect(queryTerms(Array.from({ length: MAX_QUERY_TERMS }, (_, i) => `word${i}`).join(' '))).toHaveLength(
      MAX_QUERY_TERMS,
    )
  })

  it('a tsquery literal of required terms, with quotes doubled; no operator of the client survives', () => {
    expect(termsQuery(['nurs', 'lisbon'])).toBe(`'nurs' & 'lisbon'`)
    expect(termsQuery(["rock'n'roll"])).toBe(`'rock''n''roll'`)
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (q) => {
        const literal = termsQuery(queryTerms(q))
        // Outside the quoted lexemes there is nothing but ' & '.
        expect(literal.replace(/'(?:[^']|'')*'/g, 'X')).toMatch(/^(X( & X)*)?$/)
      }),
    )
  })

  it("a profile's lexemes: its summary and every value, distinct, space-free", () => {
    const c = emptyContent()
    c.core_info.name = { value: 'Zoë Łukasiewicz', confidence: 1 }
    c.interests.music = [{ value: 'Harpsichord sonatas', confidence: 0.9 }]
    c.memories.push({ event: 'Moved to Reykjavík in 2019', confidence: 0.8 })
    const l = profileLexemes(c, 'Zoë plays the harpsichord.').split(' ')
    // NFD folds the combining accents (ë, í), not letters of their own (ł); queries go through the same folding.
    expect(l).toEqual(
      expect.arrayContaining(['zoe', 'łukasiewicz', 'harpsichord', 'sonata', 'music', 'reykjavik', '2019', 'plai']),
    )
    expect(new Set(l).size).toBe(l.length)
    expect(profileLexemes(emptyContent(), '')).toBe('')
    // An app's custom schema values too (lists and scalars; booleans carry no word).
    c.custom = {
      diet: { restrictions: [{ value: 'pescatarian', confidence: 0.6 }] },
      travel: { city: { value: 'Tromsø', confidence: 0.8 }, ok: { value: true, confidence: 1 } },
    }
    expect(profileLexemes(c, '').split(' ')).toEqual(expect.arrayContaining(['pescatarian', 'tromsø']))
  })

  it('hybrid score: a lexical match scores at least LEXICAL_SCORE and its vector score; monotone', () => {
    expect(hybridScore(0, true)).toBe(LEXICAL_SCORE)
    expect(hybridScore(100, true)).toBe(100)
    expect(hybridScore(42, false)).toBe(42)
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (a, b) => {
          expect(hybridScore(a, true)).toBeGreaterThanOrEqual(Math.max(a, LEXICAL_SCORE))
          if (a <= b) expect(hybridScore(a, true)).toBeLessThanOrEqual(hybridScore(b, true))
        },
      ),
    )
  })

  it('threshold: cosine >= toCosine(lexicalVectorFloor(s)) selects the lexical matches scoring >= s', () => {
    const cal = new PiecewiseLinearCalibration(LOCAL_CALIBRATION_POINTS)
    expect(lexicalVectorFloor(63)).toBe(0)
    expect(lexicalVectorFloor(LEXICAL_SCORE)).toBe(0)
    expect(lexicalVectorFloor(100)).toBe(100)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.double({ min: -1, max: 1, noNaN: true }), (s, cosine) => {
        const passes = cosine >= cal.toCosine(lexicalVectorFloor(s))
        const score = hybridScore(cal.toScore(cosine), true)
        // Exact away from rounding: a clear pass passes, a clear miss misses.
        if (score >= s + 1e-9) expect(passes).toBe(true)
        if (score < s - 1e-9) expect(passes).toBe(false)
      }),
    )
  })

  it('ranking: by hybrid score, then similarity, then id; each profile once; sliced to the page', () => {
    const cal = new PiecewiseLinearCalibration(LOCAL_CALIBRATION_POINTS)
    const ranked = rankHybrid(
      [
        { profileId: 'vector-only', similarity: 0.5, lexical: false },
        { profileId: 'words', similarity: 0.1, lexical: true },
        { profileId: 'both', similarity: 0.3, lexical: true },
        { profileId: 'both', similarity: 0.3, lexical: false },
        { profileId: 'b-tie', similarity: 0.2, lexical: false },
        { profileId: 'a-tie', similarity: 0.2, lexical: false },
      ],
      (c) => cal.toScore(c),
      0,
      10,
    )
    expect(ranked.map((r) => r.profileId)).toEqual(['both', 'words', 'vector-only', 'a-tie', 'b-tie'])
    expect(ranked[0]!.score).toBeCloseTo(hybridScore(cal.toScore(0.3), true), 10)
    expect(rankHybrid([{ profileId: 'x', similarity: 0.9, lexical: true }], (c) => cal.toScore(c), 1, 10)).toEqual([])
  })

  it('cover: the more of the query a passage says, the higher it scores; thresholds exact per cover', () => {
    expect(everyWord('has a pet fish')).toEqual(["'pet'", "'fish'"])
    // Stemmed and as written: "nurse" said as such covers more than "nursing" (both stem to nurs).
    expect(everyWord('is a Nurse')).toEqual(["'nurs'", "'nurse'"])
    // A word of liking (or of disliking) is one word of the cover, said by any word of its class.
    const liking = "('like' | 'love' | 'enjoi' | 'ador' | 'enjoy' | 'adore')"
    expect(everyWord("likes O'Brien's")).toEqual(expect.arrayContaining([liking, "'o''brien'"]))
    expect(everyWord("likes O'Brien's")).not.toContain("'likes'")
    expect(everyWord('loves cats')).toEqual([liking, "'cat'", "'cats'"])
    expect(everyWord('enjoys liking')).toEqual([liking])
    expect(everyWord('hates clowns')[0]).toBe(
      "('hate' | 'dislik' | 'detest' | 'despis' | 'loath' | 'dislike' | 'despise' | 'loathe')",
    )
    expect(everyWord('the a of')).toEqual([])
    expect(everyWord(Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ')).length).toBeLessThanOrEqual(2 * 12)
    for (const w of everyWord(`a'b \\ '' x`)) expect(w).toMatch(/^'([^']|'')*'$/)
    expect(hybridScore(0, true, 1)).toBe(LEXICAL_SCORE + COVER_SCORE)
    expect(hybridScore(50, false, 1)).toBe(50)
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (v, c1, c2) => {
          if (c1 <= c2) expect(hybridScore(v, true, c1)).toBeLessThanOrEqual(hybridScore(v, true, c2) + 1e-9)
          expect(hybridScore(v, true, c1)).toBeGreaterThanOrEqual(Math.max(v, LEXICAL_SCORE) - 1e-9)
        },
      ),
    )
    const cal = new PiecewiseLinearCalibration(LOCAL_CALIBRATION_POINTS)
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 24 }),
        fc.nat(),
        fc.double({ min: -1, max: 1, noNaN: true }),
        (s, words, kk, cosine) => {
          const k = kk % (words + 1)
          const limits = lexicalThresholds(s, words, (x) => cal.toCosine(x))
          expect(limits).toHaveLength(words + 1)
          const passes = 1 - cosine <= limits[k]!
          const score = hybridScore(cal.toScore(cosine), true, k / words)
          if (score >= s + 1e-9) expect(passes).toBe(true)
          if (score < s - 1e-9) expect(passes).toBe(false)
        },
      ),
    )
    // Ranking: a fuller cover first, then the vector.
    const ranked = rankHybrid(
      [
        { profileId: 'near-but-partial', similarity: 0.6, lexical: true, cover: 1 },
        { profileId: 'says-it-all', similarity: 0.2, lexical: true, cover: 2 },
        { profileId: 'holds-terms-only', similarity: 0.5, lexical: true, cover: 0 },
      ],
      (c) => cal.toScore(c),
      0,
      10,
      2,
      1,
    )
    expect(ranked.map((r) => r.profileId)).toEqual(['says-it-all', 'near-but-partial', 'holds-terms-only'])
  })
})
