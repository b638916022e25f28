import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EMPTY_SUMMARY, LocalSummarizer, summarizeProfile } from '../../src/ai/local/local-summarizer.js'
import { profileText } from '../../src/ai/profile-text.js'
import { emptyContent, type ProfileContent, type Scored } from '../../src/domain/profile.js'

const c = (value: string, confidence = 0.8): Scored<string> => ({ value, confidence })
const make = (p: Partial<ProfileContent>): ProfileContent => ({ ...emptyContent(), ...p })

/** Sentences of a summary (values in these tests have no inner periods). */
const sentences = (s: string): string[] => s.split(/(?<=[.!?])\s+/).filter(Boolean)

// Words the templates may add; everything else in a summary must come from the profile.
const TEMPLATE = new Set(
  `a an and are about avoid conversation enjoy enjoys event feel feels has have in is key lately life like likes listen
  listens lives name old or person person's preferred read reads style talking the their they this to visit watch
  watches who year years woman man girl boy s`.split(/\s+/),
)
const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []

function profileWords(p: ProfileContent): Set<string> {
  const all: string[] = []
  const core = p.core_info
  for (const v of [core.name, core.gender, core.location, core.occupation]) if (v) all.push(v.value)
  if (core.age) all.push(String(core.age.value))
  for (const items of Object.values(p.interests)) all.push(...items.map((i) => i.value))
  all.push(...p.personality.traits.map((t) => t.value))
  if (p.personality.mood_trends.recent) all.push(p.personality.mood_trends.recent.value)
  if (p.preferences.conversation_style) all.push(p.preferences.conversation_style.value)
  all.push(...p.preferences.topics_to_avoid.map((t) => t.value))
  for (const m of p.memories) all.push(m.event, m.date ?? '')
  return new Set(all.flatMap(words).flatMap((w) => [w, w.replace(/'s$/, '')]))
}

/** A word and what it may be the third person of: an occupation "run a bakery" is written "runs a bakery". */
const thirdPersonOf = (w: string) => [w, w.replace(/s$/, ''), w.replace(/es$/, ''), w.replace(/ies$/, 'y')]

function invented(summary: string, p: ProfileContent): string[] {
  const known = profileWords(p)
  return words(summary)
    .map((w) => w.replace(/'s$/, ''))
    .filter((w) => !TEMPLATE.has(w) && !thirdPersonOf(w).some((b) => known.has(b)) && !/^\d+-year-old$/.test(w))
}

const FIRST_PERSON = /\b(i|i'm|me|my|mine|we|our|us|you|your)\b/i

const full = make({
  core_info: {
    name: c('Maria'),
    age: { value: 34, confidence: 0.9 },
    gender: c('female'),
    location: c('Lisbon'),
    occupation: c('nurse'),
  },
  interests: {
    hobbies: [c('hiking', 0.9), c('knitting', 0.3)],
    music: [c('jazz', 0.8)],
    pets: [c('dog', 0.7)],
    food: [c('sushi', 0.6)],
    travel: [c('Japan', 0.5)],
    books: [c('poetry', 0.2)],
  },
  personality: {
    traits: [c('kind', 0.9), c('curious', 0.7), c('stubborn', 0.4), c('shy', 0.1)],
    mood_trends: { recent: c('stressed') },
  },
  preferences: { conversation_style: c('casual'), topics_to_avoid: [c('politics'), c('religion', 0.5)] },
  memories: [{ event: 'ran a marathon', date: '2023-04-01', importance: 'high', confidence: 0.9 }],
})

describe('LocalSummarizer', () => {
  it('says so when nothing is known yet', async () => {
    expect((await new LocalSummarizer().summarize(emptyContent())).summary).toBe(EMPTY_SUMMARY)
    expect(EMPTY_SUMMARY).toBe('No profile information has been extracted yet.')
  })

  it('opens with who the person is, by name', () => {
    expect(summarizeProfile(full)).toMatch(/^Maria is a 34-year-old nurse who lives in Lisbon\. /)
    const core = (core_info: ProfileContent['core_info']) => summarizeProfile(make({ core_info }))
    expect(core({ name: c('Ana'), occupation: c('engineer') })).toBe('Ana is an engineer.')
    expect(core({ name: c('Ana'), age: { value: 18, confidence: 1 }, occupation: c('student') })).toBe(
      'Ana is an 18-year-old student.',
    )
    expect(core({ name: c('Ana'), occupation: c('retired'), location: c('Porto') })).toBe(
      'Ana is retired and lives in Porto.',
    )
    expect(core({ occupation: c('works at a bank') })).toBe('This person works at a bank.')
    expect(core({ gender: c('male'), age: { value: 60, confidence: 1 } })).toBe('This person is a 60-year-old man.')
    expect(core({ name: c('Zed') })).toBe("This person's name is Zed.")
    expect(core({ name: c('Zed'), age: { value: 8, confidence: 1 }, occupation: c('A pupil') })).toBe(
      'Zed is an 8-year-old pupil.',
    )
  })

  it('says "This person" when the name is unknown, then "They"', () => {
    const s = summarizeProfile(
      make({ interests: { hobbies: [c('chess')] }, personality: { traits: [c('calm')], mood_trends: {} } }),
    )
    expect(s).toBe('This person enjoys chess. They are calm.')
  })

  it('groups top interests naturally', () => {
    const s = summarizeProfile(
      make({ interests: { hobbies: [c('hiking', 0.9)], music: [c('jazz', 0.8)], pets: [c('dog', 0.7)] } }),
    )
    expect(s).toBe('This person enjoys hiking, listens to jazz, and has a dog.')
    const t = summarizeProfile(
      make({
        core_info: { name: c('Li') },
        interests: { hobbies: [c('hiking', 0.9), c('chess', 0.8)], pets: [c('cat', 0.5)] },
      }),
    )
    expect(t).toBe("This person's name is Li. They enjoy hiking and chess, and have a cat.")
  })

  it('orders interests by confidence and keeps only the top ones', () => {
    const s = summarizeProfile(full)
    const order = ['hiking', 'jazz', 'dog', 'sushi', 'Japan'].map((w) => s.indexOf(w))
    expect(order.every((i) => i >= 0)).toBe(true)
    expect(summarizeProfile(make({ interests: { hobbies: [c('chess', 0.2), c('golf', 0.9), c('darts', 0.5)] } }))).toBe(
      'This person enjoys golf, darts and chess.',
    )
    // The two least confident (knitting 0.3, poetry 0.2) fall outside the top five.
    expect(s).not.toContain('knitting')
    expect(s).not.toContain('poetry')
    expect(s).toContain('They are kind, curious and stubborn') // top three traits
    expect(s).not.toContain('shy')
  })

  it('mentions traits, recent mood, conversation style and topics to avoid', () => {
    const s = summarizeProfile(
      make({
        personality: { traits: [c('kind'), c('animal activist', 0.5)], mood_trends: { recent: c('tired') } },
        preferences: { conversation_style: c('brief'), topics_to_avoid: [c('politics')] },
      }),
    )
    expect(s).toBe(
      'This person is kind and an animal activist, and lately feels tired. ' +
        'Their preferred conversation style is brief; avoid talking about politics.',
    )
    expect(summarizeProfile(make({ preferences: { topics_to_avoid: [c('politics'), c('money', 0.5)] } }))).toBe(
      'Avoid talking about politics or money.',
    )
  })

  it('adds the most important memory when there is room', () => {
    const s = summarizeProfile(
      make({
        core_info: { name: c('Ana') },
        memories: [
          { event: 'bought a bike', importance: 'low' },
          { event: 'moved to Porto', date: '2022-03-01', importance: 'high' },
        ],
      }),
    )
    expect(s).toBe("This person's name is Ana. A key event in their life: moved to Porto (2022-03-01).")
  })

  it('writes 1-4 sentences, third person, present tense, from the profile only', () => {
    const s = summarizeProfile(full)
    const parts = sentences(s)
    expect(parts.length).toBeGreaterThanOrEqual(1)
    expect(parts.length).toBeLessThanOrEqual(4)
    expect(s).not.toMatch(FIRST_PERSON)
    expect(s).not.toMatch(/\b(was|were|had|did|will)\b/)
    expect(invented(s, full)).toEqual([])
  })

  it('holds for any profile: 1-4 sentences, no first person, nothing invented', () => {
    const word = fc
      .stringMatching(/^[a-z]{3,10}$/)
      .filter((w) => !FIRST_PERSON.test(w) && !/^(was|were|had|did|will)$/.test(w))
    const value = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' '))
    const scored = fc.record({ value, confidence: fc.double({ min: 0, max: 1, noNaN: true }) })
    const profile = fc.record({
      core_info: fc.record(
        {
          name: scored,
          age: fc.record({ value: fc.integer({ min: 1, max: 110 }), confidence: fc.constant(0.9) }),
          gender: scored,
          location: scored,
          occupation: scored,
        },
        { requiredKeys: [] },
      ),
      interests: fc.dictionary(
        fc.constantFrom('hobbies', 'music', 'food', 'books', 'pets', 'travel', 'sports', 'other'),
        fc.array(scored, { maxLength: 6 }),
      ),
      personality: fc.record({
        traits: fc.array(scored, { maxLength: 5 }),
        mood_trends: fc.record({ recent: scored }, { requiredKeys: [] }),
      }),
      memories: fc.array(
        fc.record({
          event: value,
          importance: fc.constantFrom('low', 'medium', 'high') as fc.Arbitrary<'low' | 'medium' | 'high'>,
        }),
        { maxLength: 3 },
      ),
      preferences: fc.record(
        { conversation_style: scored, topics_to_avoid: fc.array(scored, { maxLength: 4 }) },
        { requiredKeys: ['topics_to_avoid'] },
      ),
    })
    fc.assert(
      fc.property(profile, (p) => {
        const s = summarizeProfile(p as ProfileContent)
        const n = sentences(s).length
        return n >= 1 && n <= 4 && !FIRST_PERSON.test(s) && invented(s, p as ProfileContent).length === 0
      }),
      { numRuns: 300 },
    )
  })

  it('is deterministic and ignores storage order', () => {
    const shuffled = make({
      ...full,
      interests: Object.fromEntries(
        Object.entries(full.interests)
          .reverse()
          .map(([k, v]) => [k, [...v].reverse()]),
      ),
      personality: { ...full.personality, traits: [...full.personality.traits].reverse() },
    })
    expect(summarizeProfile(shuffled)).toBe(summarizeProfile(full))
    expect(profileText(shuffled, 'x')).toBe(profileText(full, 'x'))
  })
})

describe('profileText', () => {
  it('is the summary plus labelled key fields', () => {
    const text = profileText(full, summarizeProfile(full))
    const lines = text.split('\n')
    expect(lines[0]).toBe(summarizeProfile(full))
    expect(lines).toContain('Name: Maria. Age: 34. Gender: female. Location: Lisbon. Occupation: nurse.')
    expect(lines).toContain(
      'Interests: books: poetry; food: sushi; hobbies: hiking, knitting; music: jazz; pets: dog; travel: Japan.',
    )
    expect(lines).toContain('Traits: kind, curious, stubborn, shy.')
    expect(lines).toContain('Topics to avoid: politics, religion.')
  })

  it('is empty for a profile without content, whatever the summary', () => {
    expect(profileText(emptyContent(), EMPTY_SUMMARY)).toBe('')
    expect(profileText(emptyContent())).toBe('')
  })
})

describe('local summary: activities', () => {
  it('enjoys an activity whatever its category ("reads reading" and "listens to singing" read wrong)', () => {
    const s = summarizeProfile(
      make({ interests: { books: [c('reading', 0.9)], music: [c('singing', 0.8), c('jazz', 0.7)] } }),
    )
    expect(s).toMatch(/enjoys reading and singing/)
    expect(s).toMatch(/listens to jazz/)
    expect(s).not.toMatch(/reads reading|listens to singing/)
    expect(summarizeProfile(make({ interests: { music: [c('The King', 0.9)] } }))).toMatch(/listens to The King/)
  })
})
