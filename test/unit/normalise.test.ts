import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { categoryKey, normaliseValue, sameValue, STOP_WORDS, tokens } from '../../src/domain/normalise.js'

describe('normaliseValue', () => {
  it('gives "Hiking", "hiking " and "hikes" one key', () => {
    expect(normaliseValue('Hiking')).toBe('hike')
    expect(normaliseValue('hiking ')).toBe('hike')
    expect(normaliseValue('hikes')).toBe('hike')
  })

  it('stems plurals: "Dogs" == "dog"', () => {
    expect(normaliseValue('Dogs')).toBe(normaliseValue('dog'))
  })

  it('lower-cases, trims and collapses whitespace', () => {
    expect(normaliseValue('  Rock   Climbing\t\n')).toBe(normaliseValue('rock climbing'))
    expect(normaliseValue('  Rock   Climbing\t\n')).toBe('rock climb')
  })

  it('strips surrounding punctuation', () => {
    expect(normaliseValue('"Hiking!"')).toBe('hike')
    expect(normaliseValue('(hiking),')).toBe('hike')
    expect(normaliseValue('...jazz?!')).toBe('jazz')
    expect(normaliseValue("'cooking'")).toBe('cook')
  })

  it('returns an empty key when only punctuation or whitespace is given', () => {
    expect(normaliseValue('')).toBe('')
    expect(normaliseValue('   ')).toBe('')
    expect(normaliseValue('!!!')).toBe('')
  })

  it('drops one leading article', () => {
    expect(normaliseValue('The Beatles')).toBe(normaliseValue('beatles'))
    expect(normaliseValue('a dog')).toBe('dog')
    expect(normaliseValue('An apple')).toBe(normaliseValue('apple'))
    expect(normaliseValue('the the')).toBe('the')
  })

  it('keeps an article that is the whole value', () => {
    expect(normaliseValue('the')).toBe('the')
    expect(normaliseValue('A')).toBe('a')
  })

  it('does not drop articles in the middle', () => {
    expect(normaliseValue('catcher in the rye')).toBe('catcher in the rye')
  })

  it('stems every word', () => {
    expect(normaliseValue('Running Shoes')).toBe('run shoe')
    expect(normaliseValue('playing games')).toBe(normaliseValue('plays game'))
  })

  it('treats hyphens, underscores and slashes as word separators', () => {
    expect(normaliseValue('hip-hop')).toBe(normaliseValue('Hip Hop'))
    expect(normaliseValue('sci_fi')).toBe(normaliseValue('sci fi'))
  })

  it('reads a lone & as "and"', () => {
    expect(normaliseValue('Rock & Roll')).toBe(normaliseValue('rock and roll'))
  })

  it('removes Latin diacritics and straightens curly apostrophes', () => {
    expect(normaliseValue('Café')).toBe(normaliseValue('cafe'))
    expect(normaliseValue('Mozart’s')).toBe(normaliseValue("Mozart's"))
  })

  it("drops a possessive 's", () => {
    expect(normaliseValue("Mozart's")).toBe('mozart')
  })

  it('keeps "C#" distinct from "C"', () => {
    expect(normaliseValue('C#')).not.toBe(normaliseValue('C'))
  })

  it('leaves numbers and non-Latin words unstemmed', () => {
    expect(normaliseValue('1984')).toBe('1984')
    expect(normaliseValue('日本語')).toBe('日本語')
    expect(normaliseValue('Москва')).toBe('москва')
  })

  it('keeps distinct values distinct', () => {
    expect(normaliseValue('jazz')).not.toBe(normaliseValue('blues'))
    expect(normaliseValue('cats')).not.toBe(normaliseValue('dogs'))
  })

  it('never yields "__proto__" (safe as an object key)', () => {
    expect(normaliseValue('__proto__')).toBe('proto')
  })

  it('ignores surrounding whitespace and case, and never leaves double spaces (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(normaliseValue(` ${s.toUpperCase()} `)).toBe(normaliseValue(s.toUpperCase()))
        const k = normaliseValue(s)
        expect(k).toBe(k.trim())
        expect(k).not.toMatch(/\s\s/)
      }),
    )
  })
})

describe('sameValue', () => {
  it('compares by key', () => {
    expect(sameValue('Hiking', 'hikes')).toBe(true)
    expect(sameValue('Dogs', 'dog')).toBe(true)
    expect(sameValue('The Beatles', 'beatles')).toBe(true)
    expect(sameValue('jazz', 'rock')).toBe(false)
  })

  it('is symmetric and reflexive (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(sameValue(a, a)).toBe(true)
        expect(sameValue(a, b)).toBe(sameValue(b, a))
      }),
    )
  })
})

describe('tokens', () => {
  it('drops stop words and stems the rest, in order', () => {
    expect(tokens('I love hiking with my dogs')).toEqual(['love', 'hike', 'dog'])
  })

  it('keeps repeats', () => {
    expect(tokens('jazz and more jazz')).toEqual(['jazz', 'jazz'])
  })

  it('splits on punctuation and handles contractions and possessives', () => {
    expect(tokens("I don't like the Beatles' music, anymore!")).toEqual(['like', 'beatl', 'music', 'anymor'])
    expect(tokens("Mozart's symphonies")).toEqual(['mozart', 'symphoni'])
    expect(tokens('I’m here')).toEqual([])
  })

  it('returns [] for empty text or only stop words', () => {
    expect(tokens('')).toEqual([])
    expect(tokens('the and of it')).toEqual([])
  })

  it('folds case and diacritics', () => {
    expect(tokens('CAFÉ Culture')).toEqual(tokens('cafe culture'))
  })

  it('keeps numbers', () => {
    expect(tokens('born in 1984')).toEqual(['born', '1984'])
  })

  it('agrees with normaliseValue on single content words', () => {
    for (const w of ['Hiking', 'dogs', 'photography', 'Running']) expect(tokens(w)).toEqual([normaliseValue(w)])
  })

  it('never returns a stop word or an empty token (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const t of tokens(s)) {
          expect(t).not.toBe('')
          expect(t).not.toMatch(/\s/)
        }
      }),
    )
    expect(STOP_WORDS.has('the')).toBe(true)
  })
})

describe('categoryKey', () => {
  it('makes lower snake_case', () => {
    expect(categoryKey('Movies TV')).toBe('movies_tv')
    expect(categoryKey('Movies & TV')).toBe('movies_tv')
    expect(categoryKey('  Music ')).toBe('music')
    expect(categoryKey('Sci-Fi Books')).toBe('sci_fi_books')
    expect(categoryKey('movies_tv')).toBe('movies_tv')
  })

  it('maps an empty name to "other"', () => {
    expect(categoryKey('')).toBe('other')
    expect(categoryKey(' & ')).toBe('other')
  })

  it('never yields "__proto__"', () => {
    expect(categoryKey('__proto__')).toBe('proto')
  })

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(categoryKey(categoryKey(s))).toBe(categoryKey(s))
      }),
    )
  })
})
