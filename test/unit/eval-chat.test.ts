import { describe, expect, it } from 'vitest'
import {
  CHAT_FIELDS,
  chatFigures,
  chatGold,
  chatHalf,
  chatProblem,
  chatSpeakers,
  chatSubmissions,
  chatTable,
  fieldValues,
  fragmentReason,
  MESSAGE_GAP_MS,
  memoryTexts,
  otherOnlyFacts,
  ownTurnsScore,
  runChat,
  scoreChatProfile,
  type ChatBackend,
  type ChatProfile,
} from '../../eval/chat.js'
import { personaFacts, type MscRecord } from '../../eval/memory.js'

const reference = new Date('2024-03-01T12:00:00Z')

/** A conversation of three sessions: speaker 1 keeps bees and sails, speaker 2 teaches and sails too. */
function record(id = 'valid_1'): MscRecord {
  return {
    previous_dialogs: [
      {
        dialog: [
          { text: 'Hi! I keep bees in my garden.' },
          { text: 'Cool. I teach chemistry at a high school.' },
          { text: 'I also love sailing on the lake.' },
          { text: 'Me too, I sail every summer.' },
        ],
        time_num: 6,
        time_unit: 'days',
        personas: [['I keep bees. I love sailing.'], ['I teach chemistry.', 'I love sailing.']],
      },
      {
        dialog: [{ text: 'The bees made honey this week.' }, { text: 'My students have an exam on Friday.' }],
        time_num: 3,
        time_unit: 'hours',
        personas: [['My bees made honey.', 'I keep bees.'], ['My students have an exam.']],
      },
    ],
    dialog: [
      { text: 'How did the exam go?', id: 'Speaker 1' },
      { text: 'Great, thanks!', id: 'Speaker 2' },
    ],
    // the whole conversation's summary, session 3 included: not the gold of sessions 1 and 2
    personas: [['I keep bees.', 'I drive a truck.'], ['I teach chemistry.']],
    metadata: { initial_data_id: id },
  }
}

describe('eval chat: gold', () => {
  it("takes a speaker's facts from the summaries of sessions 1 and 2, one a sentence, duplicates out", () => {
    expect(chatGold(record(), 0).map((f) => f.text)).toEqual(['I keep bees.', 'I love sailing.', 'My bees made honey.'])
    expect(chatGold(record(), 1).map((f) => f.text)).toEqual([
      'I teach chemistry.',
      'I love sailing.',
      'My students have an exam.',
    ])
  })

  it('takes the shared topics out of the other speaker facts: covered by the own facts words', () => {
    const own = chatGold(record(), 0)
    const other = chatGold(record(), 1)
    expect(otherOnlyFacts(other, own).map((f) => f.text)).toEqual(['I teach chemistry.', 'My students have an exam.'])
    // a fact half of whose words are the speaker's own counts as shared ("sailing" of "love sailing")
    expect(otherOnlyFacts(personaFacts(['I sail boats.']), personaFacts(['I love sailing.']))).toEqual([])
    expect(otherOnlyFacts(other, [])).toEqual(other)
    expect(otherOnlyFacts([], own)).toEqual([])
  })
})

describe('eval chat: bad records', () => {
  const without = (change: (r: Record<string, unknown>) => void) => {
    const r = record() as unknown as Record<string, unknown>
    change(r)
    return r
  }
  const session = (r: Record<string, unknown>, i: number) =>
    (r.previous_dialogs as Record<string, unknown>[])[i] as Record<string, unknown>

  it('accepts a whole record, and a persona list that is empty', () => {
    expect(chatProblem(record())).toBeNull()
    expect(chatProblem(without((r) => (session(r, 1).personas = [[], []])))).toBeNull()
  })

  it('says why a record cannot be used', () => {
    expect(chatProblem(null)).toBe('not an object')
    expect(chatProblem('valid_1')).toBe('not an object')
    expect(chatProblem(without((r) => delete r.metadata))).toBe('no metadata.initial_data_id')
    expect(chatProblem(without((r) => (r.metadata = { initial_data_id: '' })))).toBe('no metadata.initial_data_id')
    expect(chatProblem(without((r) => delete r.dialog))).toBe('no current session (dialog)')
    expect(chatProblem(without((r) => delete r.previous_dialogs))).toMatch(/fewer than 2 earlier sessions/)
    expect(chatProblem(without((r) => (r.previous_dialogs = [session(r, 0)])))).toMatch(/fewer than 2/)
    expect(chatProblem(without((r) => delete session(r, 1).personas))).toBe('session 2 has no pair of persona lists')
    expect(chatProblem(without((r) => (session(r, 0).personas = [])))).toBe('session 1 has no pair of persona lists')
    expect(chatProblem(without((r) => (session(r, 0).personas = [['a'], [3]])))).toMatch(/no pair of persona lists/)
    expect(chatProblem(without((r) => (session(r, 0).dialog = [{ txt: 'hi' }])))).toBe('session 1 has no dialog')
    expect(chatProblem(without((r) => (session(r, 1).time_unit = 'fortnights')))).toMatch(/session 2 has no valid time/)
  })

  it('skips refused records and speakers with no fact, and measures the rest', () => {
    const noFacts = without((r) => {
      session(r, 0).personas = [['I keep bees.'], []]
      session(r, 1).personas = [['My bees made honey.'], []]
    })
    const { speakers, skipped } = chatSpeakers(
      [record('a'), null, without((r) => delete r.previous_dialogs), noFacts],
      reference,
    )
    expect(speakers.map((s) => `${s.conversationId}:${s.speaker + 1}`)).toEqual(['a:1', 'a:2', 'valid_1:1'])
    expect(skipped).toEqual([
      { id: 'record 1', reason: 'not an object' },
      { id: 'valid_1', reason: 'fewer than 2 earlier sessions (previous_dialogs)' },
      { id: 'valid_1:2', reason: 'no persona fact in sessions 1 and 2' },
    ])
    // the speaker whose partner has no fact has nothing to be wrongly given
    expect(speakers[2]!.otherOnly).toEqual([])
    expect(speakers[2]!.otherFacts).toBe(0)
  })
})

describe('eval chat: what is posted', () => {
  const [speaker1] = chatSpeakers([record()], reference).speakers

  it('posts only sessions 1 and 2, with their times', () => {
    expect(speaker1!.sessions.map((s) => s.at)).toEqual(['2024-02-24T09:00:00.000Z', '2024-03-01T09:00:00.000Z'])
    expect(speaker1!.otherFacts).toBe(3)
  })

  it("messages: each of the speaker's own turns as a text, in order, half a minute a turn into its session", () => {
    const posted = chatSubmissions(speaker1!.sessions, 0, 'messages')
    expect(posted.map((p) => p.data)).toEqual([
      'Hi! I keep bees in my garden.',
      'I also love sailing on the lake.',
      'The bees made honey this week.',
    ])
    expect(posted.every((p) => p.inputType === 'text')).toBe(true)
    const start = Date.parse('2024-02-24T09:00:00.000Z')
    expect(posted.map((p) => Date.parse(p.at))).toEqual([start, start + 2 * MESSAGE_GAP_MS, Date.parse(posted[2]!.at)])
    expect(posted[2]!.at).toBe('2024-03-01T09:00:00.000Z')
  })

  it('conversation: each session as one conversation, the speaker as user', () => {
    const posted = chatSubmissions(speaker1!.sessions, 1, 'conversation')
    expect(posted.map((p) => [p.inputType, p.at])).toEqual([
      ['conversation', '2024-02-24T09:00:00.000Z'],
      ['conversation', '2024-03-01T09:00:00.000Z'],
    ])
    expect(JSON.parse(posted[1]!.data)).toEqual([
      { role: 'assistant', content: 'The bees made honey this week.' },
      { role: 'user', content: 'My students have an exam on Friday.' },
    ])
  })
})

describe('eval chat: reading a profile', () => {
  const profile: ChatProfile = {
    core_info: { name: { value: 'Sam' }, age: { value: 41 }, location: { value: '  ' }, occupation: undefined },
    interests: { hobbies: [{ value: 'beekeeping' }, { value: '' }], sports: [{ value: 'sailing' }] },
    personality: { traits: [{ value: 'patient' }], mood_trends: { recent: { value: 'happy' } } },
    preferences: { conversation_style: { value: 'casual' }, topics_to_avoid: [{ value: 'politics' }] },
    memories: [{ event: 'harvested honey' }, { event: ' ' }, {}],
  }

  it('reads every field value, empty ones out, and the memories apart', () => {
    expect(fieldValues(profile)).toEqual([
      { field: 'core_info.name', value: 'Sam' },
      { field: 'core_info.age', value: '41' },
      { field: 'interests', value: 'beekeeping' },
      { field: 'interests', value: 'sailing' },
      { field: 'personality.traits', value: 'patient' },
      { field: 'personality.mood_trends', value: 'happy' },
      { field: 'preferences.conversation_style', value: 'casual' },
      { field: 'preferences.topics_to_avoid', value: 'politics' },
    ])
    expect(memoryTexts(profile)).toEqual(['harvested honey'])
    expect(fieldValues({})).toEqual([])
    expect(memoryTexts({})).toEqual([])
  })
})

describe('eval chat: scoring a profile', () => {
  const [speaker1] = chatSpeakers([record()], reference).speakers
  // own: keep bees, love sailing, bees made honey; the other's, shared topics out: teach chemistry, students exam

  it('counts recall over fields and memories, and over the fields alone', () => {
    const score = scoreChatProfile(speaker1!, {
      interests: { hobbies: [{ value: 'bees' }] },
      memories: [{ event: 'went sailing on the lake' }],
    })
    // "bees" is half of {keep, bee} but a third of {bee, made, honei}; "sailing" is half of {love, sail}
    expect([score.facts, score.held, score.heldByFields]).toEqual([3, 2, 1])
    expect(score.missed).toEqual(['My bees made honey.'])
  })

  it("counts the other speaker's facts in the fields as false attributions, in the memories only apart", () => {
    const score = scoreChatProfile(speaker1!, {
      core_info: { occupation: { value: 'chemistry teacher' } },
      memories: [{ event: 'asked about the students exam' }],
    })
    expect([score.otherOnly, score.otherByFields, score.otherByAll]).toEqual([2, 1, 2])
    expect(score.attributed).toEqual(['I teach chemistry.'])
  })

  it('scores a missing or failed profile as an empty one, and counts it failed', () => {
    const missing = scoreChatProfile(speaker1!, undefined)
    expect([missing.held, missing.otherByAll, missing.memories, missing.failed, missing.named]).toEqual([
      0,
      0,
      0,
      true,
      false,
    ])
    expect(scoreChatProfile(speaker1!, { status: 'failed' }).failed).toBe(true)
    expect(scoreChatProfile(speaker1!, { status: 'ready' }).failed).toBe(false)
  })

  it('counts names, values by field, fragments and the words of the profile', () => {
    const score = scoreChatProfile(speaker1!, {
      core_info: { name: { value: 'Sam' } },
      interests: { hobbies: [{ value: 'bees' }, { value: 'at the lake' }] },
      memories: [{ event: 'went to a' }, { event: 'moved to Ohio' }],
    })
    expect(score.named).toBe(true)
    expect(score.values).toMatchObject({ 'core_info.name': 1, interests: 2, memories: 2, 'core_info.age': 0 })
    expect([score.memories, score.memoryFragments, score.interests, score.interestFragments]).toEqual([2, 1, 2, 1])
    expect(score.fragments.map((f) => f.text)).toEqual(['went to a', 'at the lake'])
    // sam, bee, lake, went, move, ohio
    expect(score.words).toBe(6)
  })

  it("the reference: the speaker's own turns as a profile", () => {
    expect(ownTurnsScore(speaker1!)).toEqual({ facts: 3, held: 3, otherOnly: 2, other: 0 })
  })
})

describe('eval chat: fragments', () => {
  it.each([
    ['went to a', 'ends in "a"'],
    ['rock music the', 'ends in "the"'],
    ['because I', 'no content word'],
    ['my favorite band and', 'ends in "and"'],
    ['did it', 'no content word'],
    ['chose them', 'ends in "them" with nothing to point back to'],
    ['made some', 'ends in "some" with nothing to point back to'],
    ['used to be', 'ends in "be" with nothing to point back to'],
    ['moved', 'a single word'],
    ['so fun', 'one content word and no verb'],
    ['the', 'no content word'],
  ])('memory %j is a fragment: %s', (text, reason) => {
    expect(fragmentReason(text, 'memory')).toBe(reason)
  })

  it.each([
    'moved to Ohio',
    'got a new job',
    "I'm a teacher",
    'I swim',
    'broke up',
    'moved in with my girlfriend',
    'I tried the violin and did not like it',
    'a friend I can talk to about books with',
    'I work in IT',
    'I am from Portland, OR',
    'adopted a dog from the shelter.',
  ])('memory %j is a phrase', (text) => {
    expect(fragmentReason(text, 'memory')).toBeNull()
  })

  it.each([
    ['at the beach', 'starts with "at"'],
    ['for cars', 'starts with "for"'],
    ['whilst', 'starts with "whilst"'],
    ['salmon the', 'ends in "the"'],
    ['it', 'no content word'],
    ['the who', 'no content word'],
    ['It', 'no content word'],
    ['', 'no content word'],
  ])('interest %j is a fragment: %s', (text, reason) => {
    expect(fragmentReason(text, 'interest')).toBe(reason)
  })

  it.each(['hiking', 'jazz', 'horror movies', 'Of Mice and Men', 'playing in a band', 'dogs', 'The Who'])(
    'interest %j is a phrase',
    (text) => {
      expect(fragmentReason(text, 'interest')).toBeNull()
    },
  )
})

describe('eval chat: halves', () => {
  it('splits by a hash of the conversation id: stable, about even, not by position', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `valid_${i}`)
    const halves = ids.map((id) => chatHalf({ metadata: { initial_data_id: id } }))
    expect(ids.map((id) => chatHalf({ metadata: { initial_data_id: id } }))).toEqual(halves)
    const tuning = halves.filter((h) => h === 'tuning').length
    expect(tuning).toBeGreaterThan(450)
    expect(tuning).toBeLessThan(550)
    // neighbours land in both halves
    expect(new Set(halves.slice(0, 10)).size).toBe(2)
  })

  it('refuses a record without an id', () => {
    expect(() => chatHalf({} as never)).toThrow(/initial_data_id/)
    expect(() => chatHalf({ metadata: { initial_data_id: '' } })).toThrow(/initial_data_id/)
  })
})

describe('eval chat: totals and the run', () => {
  it('sums profiles into shares, null where there is nothing to divide', () => {
    const empty = chatFigures([])
    expect(empty.recall).toEqual({ count: 0, of: 0, share: null })
    expect(empty.meanWords).toBeNull()
    const [speaker1] = chatSpeakers([record()], reference).speakers
    const figures = chatFigures([
      scoreChatProfile(speaker1!, { core_info: { occupation: { value: 'teacher of chemistry' } } }),
      scoreChatProfile(speaker1!, { interests: { hobbies: [{ value: 'bees' }] } }),
    ])
    expect(figures.falseAttributionFields).toEqual({ count: 1, of: 4, share: 0.25 })
    expect(figures.fields['core_info.occupation']).toEqual({ profiles: 1, values: 1 })
    expect(Object.keys(figures.fields)).toEqual([...CHAT_FIELDS])
    expect(chatTable('T', { messages: figures }, { recall: figures.recall, falseAttribution: figures.recall })).toMatch(
      /other speaker, in fields\s+25\.0% \(1\/4\)/,
    )
  })

  it('posts both forms as their own profiles and scores what the backend returns', async () => {
    const posted = new Map<string, string[]>()
    // keeps each submission's data as a memory: a profile made of what was posted
    const backend: ChatBackend = {
      async buildInOrder(items) {
        const out = new Map<string, ChatProfile>()
        for (const item of items) {
          posted.set(
            item.profileId,
            item.submissions.map((s) => s.inputType),
          )
          out.set(item.profileId, { status: 'ready', memories: item.submissions.map((s) => ({ event: s.data })) })
        }
        return out
      },
    }
    let printed = ''
    const report = await runChat(
      backend,
      [record()],
      { reference, sendTimes: true, title: 'test' },
      () => {},
      (t) => {
        printed += t
      },
    )
    expect([...posted.keys()]).toEqual([
      'chat:messages:valid_1:1',
      'chat:messages:valid_1:2',
      'chat:conversation:valid_1:1',
      'chat:conversation:valid_1:2',
    ])
    expect(posted.get('chat:messages:valid_1:1')).toEqual(['text', 'text', 'text'])
    expect(posted.get('chat:conversation:valid_1:2')).toEqual(['conversation', 'conversation'])
    expect(report.forms.messages!.recall.share).toBe(1)
    expect(report.forms.messages!.falseAttributionFields.count).toBe(0)
    // a whole conversation holds the partner's words too: memories that quote it take in the partner's facts
    expect(report.forms.conversation!.falseAttributionAll.count).toBeGreaterThan(0)
    expect(printed).toMatch(/^\nCHAT \(test: 2 speakers/)
  })
})
