// The person's name as the other speakers of a conversation greet them (name.addressed): read by the local extractor
// from the others' turns, weaker than any name the person gives, and never from a greeting of someone else.
import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const nameOf = (data: string, inputType: 'conversation' | 'text' = 'conversation') =>
  extractor.extractOne({ inputType, data }).core_info?.name

describe('the name the other speakers greet the person by', () => {
  it('is read from a greeting or a closing vocative, weakly', () => {
    const lines =
      'Caroline: I went to a support group yesterday.\nMelanie: Hey Caroline! How did it go?\nCaroline: Well.'
    expect(nameOf(lines)).toEqual({ value: 'Caroline', confidence: 0.5 })
    const json = JSON.stringify([
      { role: 'assistant', content: 'Good morning, Ana! How was the trip?' },
      { role: 'user', content: 'Great, we saw the whole coast.' },
    ])
    expect(nameOf(json)?.value).toBe('Ana')
    expect(nameOf('A: I finally finished the marathon.\nB: That is amazing, Tess!\nA: Thanks!')?.value).toBe('Tess')
  })

  it('gives way to a name the person gives', () => {
    expect(nameOf('Caroline: Hi, my name is Carol.\nMelanie: Hey Caroline! Nice to meet you.')?.value).toBe('Carol')
  })

  it('is not taken from the person’s own words, another speaker’s label, a word that is no name, or two names', () => {
    // The person greeting someone else.
    expect(nameOf('Caroline: Hey Melanie! I went hiking.\nMelanie: Nice.')).toBeUndefined()
    // The other speaker greets by their own label's name (a quoted greeting), or with a word that is no name.
    expect(nameOf('Caroline: I went hiking.\nMelanie: Melanie here, hi!\nMelanie: Thanks, Melanie.')).toBeUndefined()
    expect(nameOf('Caroline: I went hiking.\nMelanie: Thanks, Dude!')).toBeUndefined()
    // The other speaker's own name, said as they introduce themselves, and used again.
    expect(
      nameOf('A: I went hiking.\nB: Hi, tracy here, 24 and looks like taylor swift. You?\nA: Nice.'),
    ).toBeUndefined()
    expect(nameOf('A: I went hiking.\nB: My name is Kim.\nB: Thanks, Kim.\nA: Sure.')).toBeUndefined()
    // Two names as often: a group, or someone else greeted.
    expect(nameOf('A: I went hiking.\nB: Hey Mel. Tell Jon I said hi, Jon.\nA: Sure.')).toBeUndefined()
    // A text has no other speaker.
    expect(nameOf('Hey Caroline! I went hiking.', 'text')).toBeUndefined()
  })
})
