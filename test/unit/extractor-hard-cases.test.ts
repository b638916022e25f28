// Hard cases of the local extractor: wishes next to facts, aspirations, fears and dislikes, abilities, work vs
// pastime, contentless values. Sentences written for these tests (not taken from any evaluation data).
import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import type { Extraction } from '../../src/domain/profile.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const x = (data: string): Extraction => extractor.extractOne({ inputType: 'text', data })
const conv = (turns: [string, string][]): Extraction =>
  extractor.extractOne({
    inputType: 'conversation',
    data: JSON.stringify(turns.map(([role, content]) => ({ role, content }))),
  })
const all = (e: Extraction) =>
  Object.values(e.interests ?? {})
    .flat()
    .map((s) => s.value.toLowerCase())
const avoid = (e: Extraction) => (e.preferences?.topics_to_avoid ?? []).map((s) => s.value.toLowerCase())

describe('occupation: aspirations and job searches', () => {
  it('keeps the firm half of a clause whose second half is a wish', () => {
    expect(x('I am a carpenter and hope to open my own shop one day.').core_info?.occupation?.value).toBe('carpenter')
    expect(x('I am a baker but want to become a pilot.').core_info?.occupation?.value).toBe('baker')
  })

  it('reads a wish to become something as a weak aspiration, never over a real job', () => {
    expect(x('I want to become a veterinarian.').core_info?.occupation).toEqual({
      value: 'aspiring veterinarian',
      confidence: 0.45,
    })
    expect(x('My dream is to be a pilot.').core_info?.occupation?.value).toBe('aspiring pilot')
    expect(x('I want to become a veterinarian. I work as a cashier.').core_info?.occupation?.value).toBe('cashier')
    expect(x('I might become a lawyer.').core_info?.occupation).toBeUndefined()
  })

  it('reads studying towards a job as a student', () => {
    expect(x('I am studying to become an architect.').core_info?.occupation?.value).toBe('student (aspiring architect)')
  })

  it('does not call someone looking for a new job unemployed', () => {
    expect(x('I am looking for a better job.').core_info?.occupation?.value).toBe('job seeker')
    expect(x('I am out of work.').core_info?.occupation?.value).toBe('unemployed')
  })

  it('reads a new job at a place', () => {
    expect(x('I recently got a job at a bakery.').core_info?.occupation?.value).toBe('works at bakery')
    expect(x('I got a new job as a plumber.').core_info?.occupation?.value).toBe('plumber')
  })

  it('does not turn work done for a living into a hobby', () => {
    const e = x('I clean houses for a living.')
    expect(all(e)).toEqual([])
  })
})

describe('topics to avoid: fears and dislikes', () => {
  it('turns a fear into a topic to avoid, cut before its cause', () => {
    expect(avoid(x('I am really scared of spiders because of a bad bite.'))).toEqual(['spiders'])
    expect(avoid(x('I am petrified of deep water due to an accident.'))).toEqual(['deep water'])
    expect(avoid(x('I am afraid of it.'))).toEqual([])
  })

  it('keeps general dislikes that are no interest as topics to avoid', () => {
    expect(avoid(x('I hate my boss.'))).toEqual(['boss'])
    expect(avoid(x('I really dislike school.'))).toEqual(['school'])
    expect(avoid(x('I hate it.'))).toEqual([])
  })

  it('reads what upsets the person as a topic to avoid', () => {
    expect(avoid(x('Hospitals make me anxious.'))).toEqual(['hospitals'])
    expect(avoid(x('It makes me sad.'))).toEqual([])
  })
})

describe('interests: abilities and ongoing activities', () => {
  it('reads what the person can do', () => {
    expect(all(x('I can knit scarves.'))).toContain('knitting')
    expect(all(x('I know how to sail.'))).toContain('sailing')
    expect(all(x('I can not swim.'))).toEqual([])
  })

  it('reads a long-running activity but not a one-off', () => {
    expect(all(x('I have been painting for years.'))).toContain('painting')
    expect(all(x('I am running late today.'))).toEqual([])
  })

  it('reads growing plants as gardening', () => {
    expect(all(x('I grow tomatoes on my balcony.'))).toContain('gardening')
  })

  it('drops values made only of grammar words but keeps titles like "The Who"', () => {
    expect(all(x('I love cats they are so cute.'))).toEqual(['cat'])
    expect(all(x('I like mine with extra cheese.'))).toEqual([])
    expect(all(x('My favorite band is the who.'))).toEqual(['the who'])
  })
})

describe('more shapes', () => {
  it('reads "i see" as an interjection only when it stands alone', () => {
    expect(all(x('I see the Killers in concert every summer.'))).toContain('the killers')
    expect(all(x('I see. I love owls.'))).toEqual(['owl'])
  })

  it('reads reactions to a sight as a topic to avoid', () => {
    expect(avoid(x('I get queasy at the sight of needles.'))).toEqual(['needles'])
  })

  it('keeps where one volunteers and whom one spends time with', () => {
    expect(all(x('I help out at the animal shelter on weekends.'))).toEqual(['volunteering at animal shelter'])
    expect(all(x('I love spending time with my grandkids.'))).toEqual(['spending time with grandkids'])
  })

  it('keeps a dish with its topping, and splits a list after an activity verb', () => {
    expect(all(x('My favorite food is pasta with pesto.'))).toEqual(['pasta with pesto'])
    expect(all(x('I mostly cook thai, and fried rice.'))).toEqual(expect.arrayContaining(['cooking', 'fried rice']))
  })

  it('reads what a coach teaches as an interest', () => {
    const e = x('I am a tennis coach.')
    expect(e.core_info?.occupation?.value).toBe('tennis coach')
    expect(all(e)).toEqual(['tennis'])
  })

  it('does not take a trailing adverb for a workplace', () => {
    expect(x('I work in retail also.').core_info?.occupation?.value).toBe('works in retail')
    expect(x('It is the shelter i work at though.').core_info?.occupation).toBeUndefined()
  })

  it('reads causes and sociability as traits, and not their negation', () => {
    const traits = (s: string) => (x(s).personality?.traits ?? []).map((t) => t.value)
    expect(traits('I am a passionate wildlife activist.')).toEqual(['wildlife activist'])
    expect(traits('I am not an activist.')).toEqual([])
    expect(traits('I enjoy meeting new people.')).toEqual(['social'])
    expect(traits('I do not enjoy meeting new people.')).toEqual([])
    expect(traits('I have very few friends.')).toEqual(['lonely'])
  })
})

describe('chat phrasing', () => {
  it('reads coaching an activity as a job and an interest', () => {
    const e = x('I coach volleyball at the high school.')
    expect(e.core_info?.occupation?.value).toBe('volleyball coach')
    expect(all(e)).toEqual(['volleyball'])
    expect(x('I coach my kids.').core_info?.occupation).toBeUndefined()
  })

  it('reads "professionally" and "the best X around" as a job', () => {
    expect(x('I am a golf player professionally.').core_info?.occupation?.value).toBe('professional golf player')
    expect(x('I am the best dentist in town.').core_info?.occupation?.value).toBe('dentist')
    expect(x('I am the head nurse.').core_info?.occupation?.value).toBe('head nurse')
    expect(x('I am the only one here.').core_info?.occupation).toBeUndefined()
  })

  it('reads shift work and race training', () => {
    expect(x('I work the graveyard shift at a warehouse.').core_info?.occupation?.value).toBe('works at a warehouse')
    expect(all(x('I am training for a half marathon.'))).toEqual(['running'])
    expect(all(x('I am training for a new role.'))).toEqual([])
  })

  it('reads how the person relaxes', () => {
    expect(all(x('I relax by painting.'))).toEqual(['painting'])
  })

  it('cuts a season off a place', () => {
    expect(x('I live in Maine during the summer.').core_info?.location?.value).toBe('Maine')
  })
})

describe('conversation: only the person speaks for themselves', () => {
  it("keeps the partner's fears and jobs out", () => {
    const e = conv([
      ['user', 'hi there , how are you ?'],
      ['assistant', 'i am a nurse and i am terrified of snakes .'],
      ['user', 'oh wow . i am a mechanic and want to be a pilot .'],
    ])
    expect(e.core_info?.occupation?.value).toBe('mechanic')
    expect(avoid(e)).toEqual([])
  })
})

describe('chat phrasing: ages, places and jobs said in passing', () => {
  const age = (s: string) => x(s).core_info?.age?.value
  const place = (s: string) => x(s).core_info?.location?.value
  it('reads an age said in passing, never a measure or someone else’s age', () => {
    expect(age('i am 37 and my knees know it')).toBe(37)
    expect(age('well i am only 9 , so no')).toBe(9)
    expect(age('i am 52 now , time flies')).toBe(52)
    expect(age('hello , tomas here , age 71')).toBe(71)
    expect(age('i am a retired 68 year old sailor')).toBe(68)
    expect(age('my 80 year old hands still knit')).toBe(80)
    expect(age('at 30 i finally learned to swim')).toBe(30)
    expect(age('we had cake for my 21st birthday')).toBe(21)
    expect(age('i love lego , being 11 and all')).toBe(11)
    expect(age('i am 5 feet tall')).toBeUndefined()
    expect(age('i am 3 miles from the beach')).toBeUndefined()
    expect(age('my 7 year old daughter draws horses')).toBeUndefined()
    expect(age('at 6 , the shop closes')).toBeUndefined()
  })

  it('reads where someone is, greeting from a place, or never left one; not states of being', () => {
    expect(place('i am in portugal right now and it is sunny')).toBe('Portugal')
    expect(place('cold here in norway today')).toBe('Norway')
    expect(place('greetings from kentucky !')).toBe('Kentucky')
    expect(place('we are from quebec originally')).toBe('Quebec')
    expect(place('i have never left idaho myself')).toBe('Idaho')
    expect(place('come see oregon where i live')).toBe('Oregon')
    expect(place('i walk my dog here in denver near the park')).toBe('Denver')
    for (const s of [
      'i am in love',
      'i am in trouble',
      'i am in a choir',
      'i am in the garage',
      'i am in middle school',
    ])
      expect(place(s), s).toBeUndefined()
  })

  it('cuts a job place before a time or a second place', () => {
    expect(x('i work at a diner at night').core_info?.occupation?.value).toBe('works at a diner')
    expect(x('i work part time in a library').core_info?.occupation?.value).toBe('works in a library')
  })
})

describe('interests: no values made of amounts, comparisons, pronouns or participles', () => {
  it('drops quantifier heads and keeps what they qualify', () => {
    const spicy = all(x('i like anything spicy and everything chocolate'))
    expect(spicy).toContain('chocolate')
    expect(spicy.filter((v) => /^(?:anything|everything)\b/.test(v))).toEqual([])
    expect(all(x('i love all things purple'))).toEqual(['purple'])
    expect(all(x('i eat too much'))).toEqual([])
    expect(all(x('i read 2 every month'))).toEqual(['reading'])
  })

  it('makes no value of a function word or a clause ("that I love either", "almost everything", "I have")', () => {
    expect(all(x('Golf is not a sport that I love either.'))).toEqual([])
    expect(all(x('I like almost everything on the menu.'))).toEqual([])
    expect(all(x('I like nearly anything with cheese.'))).not.toContain('nearly anything')
    expect(all(x('I have always liked chess and cycling is my favorite.'))).not.toContain('i have')
    expect(all(x('I love both.'))).toEqual([])
    // The thing a run-on clause names is kept, without the clause's own "i love" or a trailing "though".
    expect(all(x('I love them like I love pancakes.'))).toContain('pancakes')
    expect(all(x('I do not care for golf. I like jazz though, Coltrane is my favorite.'))).not.toContain('jazz though')
  })

  it('ends a place at a new clause ("I live in Utah I work at a bank")', () => {
    expect(x('i live in utah i work at a bank').core_info?.location?.value).toBe('Utah')
    expect(x('i am from new mexico i like going to rodeos').core_info?.location?.value).toBe('New Mexico')
  })

  it('makes no activity of a participle, a comparison or a verb about oneself', () => {
    expect(all(x('i love my cats like family'))).not.toContain('like family')
    expect(all(x('i love swimming , relaxes me'))).toEqual(['swimming'])
    expect(all(x('i like shrek the movie'))).not.toContain('shreking movie')
    expect(all(x('i also love bungee jumping'))).not.toContain('bungeeing jumping')
  })
})
