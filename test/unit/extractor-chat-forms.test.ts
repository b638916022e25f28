// Forms chat gives facts in that the rules read: a favourite film or book named in lower case, the household's place
// ("we live in nebraska"), and vague words that are no interest ("different kinds"). Sentences written for these tests.
import { describe, expect, it } from 'vitest'
import { closedQuotes } from '../../src/ai/local/acc.js'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { emptyContent, type Extraction } from '../../src/domain/profile.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const x = (data: string): Extraction => extractor.extractOne({ inputType: 'text', data })
/** The events of the memories read from `data`, in order. */
const events = (data: string) => (x(data).memories ?? []).map((m) => m.event)
/** The value of a core field read from `data`. */
const core = (data: string, field: 'age' | 'gender' | 'location' | 'occupation') => x(data).core_info?.[field]?.value
/** The occupation read from `data`. */
const job = (data: string) => core(data, 'occupation')
/** The location read from `data`. */
const place = (data: string) => core(data, 'location')
/** Reads each text; all of them together must take under ten seconds of CPU, so no rule is super-linear. */
function expectLinear(...texts: string[]) {
  const started = process.cpuUsage()
  for (const text of texts) x(text)
  const used = process.cpuUsage(started)
  expect((used.user + used.system) / 1e6).toBeLessThan(10)
}
/** The interests of an extraction, as "category:value". */
const interestsIn = (e: Extraction) =>
  Object.entries(e.interests ?? {}).flatMap(([category, list]) => list.map((s) => `${category}:${s.value}`))
/** The interests read from `data`, as "category:value". */
const interests = (data: string) => interestsIn(x(data))
const values = (e: Extraction) =>
  Object.values(e.interests ?? {})
    .flat()
    .map((s) => s.value)

describe('a favourite title in lower case', () => {
  it('keeps a film or a book named with words of any kind', () => {
    expect(x('My favorite movie is clueless.').interests?.movies_tv).toEqual([{ value: 'clueless', confidence: 0.9 }])
    expect(values(x('my favorite book is old yeller'))).toEqual(['old yeller'])
    expect(values(x('My favorite book is a tale of two cities'))).toEqual(['tale of two cities'])
  })

  it('keeps nothing that says no title yet or points elsewhere', () => {
    for (const said of [
      'My favorite show is hard to say.',
      'My favorite movie is probably something with action.',
      'my favorite movie is it',
      'my favorite movie is the one with the dog',
      'my favorite film is the',
    ])
      expect(values(x(said)), said).toEqual([])
  })
})

describe('the household’s place', () => {
  it('reads "we live in" for a place the lexicon knows, weaker than "I live in"', () => {
    expect(x('We live in nebraska. So do you get to leave?').core_info?.location).toEqual({
      value: 'Nebraska',
      confidence: 0.75,
    })
    expect(x('my family and I live near Dallas').core_info?.location?.value).toBe('Dallas')
  })

  it('reads no place from a dwelling, a saying or the past', () => {
    for (const said of ['we live in a small house', 'We live in the moment', 'when I was little we lived in Ohio'])
      expect(x(said).core_info?.location, said).toBeUndefined()
  })
})

describe('vague words', () => {
  it('takes no interest or memory from "kinds" and "types"', () => {
    expect(x('I like a lot of different kinds.')).toEqual({ language: 'en' })
    expect(values(x('I like all kinds of music.'))).toEqual(['music'])
  })
})

describe('a job said in passing', () => {
  it('reads "X by trade" without "I am", and never a relative’s', () => {
    expect(x('electrician by trade').core_info?.occupation?.value).toBe('electrician')
    expect(x('my dad is a plumber by trade').core_info?.occupation).toBeUndefined()
  })

  it('reads what was and what is now as two clauses', () => {
    const e = x('I used to be a teacher, now I am a nurse.')
    expect(e.core_info?.occupation?.value).toBe('nurse')
    expect(e.memories?.map((m) => m.event)).toEqual(['used to be a teacher'])
  })
})

describe('a statement that runs on', () => {
  it('reads a fact before a condition, and nothing from the condition or a main clause with a modal', () => {
    expect(x('I work at a convenience store if you want gas station food.').core_info?.occupation?.value).toBe(
      'works at a convenience store',
    )
    expect(values(x('I like to swim if the weather is nice.'))).toEqual(['swimming'])
    expect(x('I would move to Paris if I could.').core_info?.location).toBeUndefined()
    expect(x('I will be a doctor if I pass.').core_info?.occupation).toBeUndefined()
  })

  it('reads each of two verb phrases on its own, and no fact that runs from one into the next', () => {
    expect(events('I drive a truck and live in the country.')).toEqual(['drives a truck'])
    expect(events('I am single and have no kids.')).toEqual(['is single', 'has no kids'])
    expect(events('I have two dogs and work from home.')).toEqual(['has two dogs', 'works from home'])
    // a noun compromise takes for a verb after "i" does not cut the list
    expect(values(x('I play violin and guitar.'))).toEqual(['violin', 'guitar'])
    expect(values(x('I watch crime dramas and war documentaries.'))).toEqual(['crime dramas', 'war documentaries'])
  })

  it('reads a statement said with a rising tone, and still no question', () => {
    expect(values(x('My favorite watch is the rolex?'))).toEqual(['rolex'])
    expect(values(x('I like jazz, do you?'))).toEqual(['jazz'])
    expect(x('I should get a dog?')).toEqual({ language: 'en' })
    expect(x('I wonder if I like jazz?')).toEqual({ language: 'en' })
  })

  it('reads long conditions, run-on phrases and workplaces in linear time', () => {
    expectLinear(
      `I work at a store ${'if you want if i can '.repeat(10_000)}?`,
      `I drive a truck ${'and live in the country '.repeat(10_000)}`,
      `my hobby is ${'the museum where i work '.repeat(10_000)}?`,
      `we are going to be ${'a big sister '.repeat(10_000)}`,
    )
  })

  it('reads "am a X" without a subject as the person’s own', () => {
    expect(x('Am a custodian to pay the bills.').core_info?.occupation?.value).toBe('custodian')
    expect(x('my brother is a nurse. am a teacher').core_info?.occupation?.value).toBe('teacher')
  })
})

describe('a workplace said in passing', () => {
  it('reads "the X where I work"', () => {
    expect(job('He keeps sending random guys to the gas station where I work.')).toBe('works at the gas station')
    expect(job('I meet many people at the museum where I work.')).toBe('works at the museum')
    expect(job("I'm a nurse at the hospital where I work.")).toBe('nurse')
  })

  it('reads no workplace from a workout, a vague place, a past job or someone else’s', () => {
    for (const said of [
      'I go to the gym where I work out.',
      "It's the place that I work at.",
      'I spend a bit at the bank where I worked.',
      'I do not like the bank where I work.',
      'my wife likes the bank where she works',
    ])
      expect(job(said), said).toBeUndefined()
  })
})

describe('a clause with a second thought', () => {
  it('reads the main statement when a "no" or a "maybe" belongs to what follows it', () => {
    expect(events('I raise my own food, no pool, and I do have a television.')).toEqual([
      'raises their own food',
      'has a television',
    ])
    expect(events('I raise chickens when I am not at work.')).toEqual(['raises chickens'])
    expect(events("I'm working on a robot, maybe I can make her one as well.")).toEqual(['is working on a robot'])
    expect(events('I just started at a diner, not sure my position yet')).toEqual(['started at a diner'])
    expect(values(x('I just started at a diner, not sure my position yet'))).toEqual([])
  })

  it('still reads a negation or a doubt of the main statement', () => {
    expect(events('I do not raise chickens, they are too loud.')).toEqual(['does not raise chickens'])
    expect(events('Maybe I am working on a robot, who knows.')).toEqual([])
    expect(values(x('I never go hiking when it rains.'))).toEqual([])
  })
})

describe('chat’s own shorthand', () => {
  it('reads "mine is" after the person’s own question as their answer', () => {
    expect(values(x('What is your favorite food? Mine is papaya.'))).toEqual(['papaya'])
    expect(events('What is your dream? Mine is to meet mickey mouse.')).toEqual(['their dream is to meet mickey mouse'])
    expect(x('What is yours? Mine is pizza.')).toEqual({ language: 'en' })
    expect(values(x('Mine is papaya.'))).toEqual([])
  })

  it('reads past a double dash and a stray stop after an interjection', () => {
    expect(x("I'm working as a baker--it just still hurts.").core_info?.occupation?.value).toBe('baker')
    expect(events('Yes .I was raised Catholic')).toEqual(['was raised Catholic'])
  })

  it('reads a stay placed by a time of life, undated', () => {
    expect(x('I was in Paris when I was younger, that was a bucket list destination.').memories).toEqual([
      { event: 'was in Paris when they were younger', importance: 'medium', confidence: 0.8 },
    ])
    expect(events('I was in a bad mood when I was younger.')).toEqual([])
  })
})

describe('messages to an assistant', () => {
  it('reads a year of study, a shift, a chat tail and a role said with "as a"', () => {
    expect(core('hey! quick q - im a second year med student in dublin', 'occupation')).toBe('med student')
    expect(core('I work night shifts as an ER nurse so my sleep is all over the place', 'occupation')).toBe('er nurse')
    expect(core('ugh my landlord is raising the rent again. I live in Brooklyn btw', 'location')).toBe('Brooklyn')
    expect(x('as a vegetarian, what should I eat for protein?').interests?.food?.[0]?.value).toBe('vegetarian')
    expect(core('As a nurse, I work a lot of nights.', 'occupation')).toBe('nurse')
  })

  it('reads "as a" only of the person, and no role of a time of life', () => {
    expect(x('As a life coach, what advice do you give your clients?')).toEqual({ language: 'en' })
    expect(x('As a kid, I loved camping.').core_info).toBeUndefined()
    expect(events('As a kid, I loved camping.').join(' ')).not.toMatch(/kid/)
  })

  it('reads fragments, appositions and a place after a comma', () => {
    expect(events('been learning japanese for about a year now, still terrible at kanji')).toEqual([
      'is learning Japanese',
    ])
    expect(events("I'm 34, recently divorced, and trying to get back into running")).toContain('is recently divorced')
    const moved = x("just moved to Berlin for work, don't speak german yet")
    expect(moved.core_info?.location?.value).toBe('Berlin')
    expect(moved.memories?.map((m) => m.event)).toContain('does not speak German')
    expect(moved.preferences).toBeUndefined()
    expect(core('grew up in Nairobi, now living in Toronto', 'location')).toBe('Toronto')
    expect(events("I'm retired, used to be a pilot for 30 years")).toContain('used to be a pilot for 30 years')
  })

  it('reads a favourite after a comma, a quit job, a pet’s name and a child’s step', () => {
    expect(values(x('I love sci-fi novels, Ursula Le Guin is my favorite author'))).toEqual([
      'sci-fi novels',
      'Ursula Le Guin',
    ])
    expect(x('I quit my job at the bank last month to start my own business').memories?.[0]).toMatchObject({
      event: 'quit their job at the bank to start their own business',
      date: '2024-05-01',
      importance: 'high',
    })
    expect(events('my cat Luna keeps waking me up at 5am, any tips?')).toContain('their cat is named Luna')
    expect(events('my cat always keeps waking me up')).not.toContain('their cat is named Always')
    expect(events("my daughter just started kindergarten and I'm a mess")).toContain(
      'their daughter started kindergarten',
    )
  })

  it('reads a third modifier, a diet kept since, pronouns asked for and pets after adverbs', () => {
    expect(core('used to work in finance, now I am a high school math teacher', 'occupation')).toBe(
      'high school math teacher',
    )
    expect(x("I've been vegan since 2015 and I'm allergic to peanuts").interests?.food?.[0]?.value).toBe('vegan')
    expect(events('she/her pronouns please')).toEqual(['uses she/her pronouns'])
    const pets = x('we have two golden retrievers and a very grumpy parrot').interests?.pets?.map((p) => p.value)
    expect(pets).toEqual(['golden retriever', 'parrot'])
  })

  it('reads events and what has gone on said without "i", each on its own', () => {
    expect(events('Just got back from a trip to Japan, Kyoto was amazing')).toEqual(['got back from a trip to Japan'])
    expect(events('honestly just tired, been working 60 hour weeks at the hospital')).toEqual([
      'has been working 60 hour weeks at the hospital',
    ])
    const piano = x("I'm learning to play the piano, started last month")
    expect(piano.memories).toBeUndefined()
    expect(piano.interests?.music?.map((i) => i.value)).toEqual(['piano'])
    expect(events("we're expecting our first baby in March!")).toEqual(['is expecting their first baby'])
    expect(events('My dad passed away last year and it has been really hard')).toEqual(['their dad passed away'])
    expect(events('went there yesterday')).toEqual([])
  })

  it('reads a name given to the pet or relative named just before, of the right gender', () => {
    expect(events('we got a puppy last week! her name is Mochi')).toContain('their puppy is named Mochi')
    expect(events('My daughter just started school. Her name is Ella.')).toContain('their daughter is named Ella')
    expect(events('I love my son. Her name is Ann.').join(' ')).not.toMatch(/Ann/)
    expect(events('I met a guy. His name is Tom.').join(' ')).not.toMatch(/Tom/)
    expect(events('Her name is Zoey.')).toEqual([])
  })

  it('reads a place after "now in", a job said with "working as", a past role and what cannot be done', () => {
    const moved = x('I moved away from Boston last year, now in Austin')
    expect(moved.core_info?.location?.value).toBe('Austin')
    expect(moved.memories?.map((m) => m.event)).toEqual(['moved away from Boston'])
    expect(core('Working as a barista while I finish my PhD in chemistry', 'occupation')).toBe('barista')
    expect(events('I was a teacher for 20 years before I retired')).toContain('was a teacher for 20 years')
    expect(events('I was sick for 2 weeks.')).toEqual([])
    expect(events('my ex was a chef, I cannot cook at all')).toEqual(['cannot cook'])
    expect(events('I have lived in Dublin for 12 years')).toEqual(['has lived in Dublin for 12 years'])
  })

  it('reads a degree under way, a parent said without "I", a home on a boat and two languages', () => {
    expect(core('currently doing my masters in data science at UCL', 'occupation')).toBe(
      'data science graduate student',
    )
    const dad = x("I'm a 45 year old accountant from Leeds, dad of two")
    expect(dad.core_info?.occupation?.value).toBe('accountant')
    expect(dad.core_info?.gender?.value).toBe('male')
    expect(core('We live on a boat in Amsterdam', 'location')).toBe('Amsterdam')
    expect(events("I'm bilingual, English and Tagalog")).toEqual(['speaks English and Tagalog'])
    expect(events("i'm pregnant with our second, due in May")).toEqual(['is expecting their second child'])
  })

  it('reads conditions in the person’s words, what they cannot have, and no pastime of how to reach them', () => {
    expect(events("I'm deaf so I prefer text over calls")).toEqual(['is deaf'])
    expect(values(x("I'm deaf so I prefer text over calls"))).toEqual([])
    expect(events("I'm colorblind lol so describe colors carefully")).toEqual(['is colorblind'])
    expect(events("I can't have caffeine, it makes my anxiety worse")).toEqual(['cannot have caffeine'])
    expect(events('I have to go.')).toEqual([])
  })

  it('reads an event up to what followed from it, and a step said after "and just"', () => {
    expect(events("I got laid off last month so money's tight")).toEqual(['got laid off'])
    expect(events('I went to so many concerts last year')).toEqual(['went to so many concerts'])
    expect(events("I'm 62 and just retired from teaching")).toContain('retired from teaching')
    expect(events('Been a nurse for 15 years, thinking about a career change')).toContain(
      'is thinking about a career change',
    )
    expect(core('Been a nurse for 15 years, thinking about a career change', 'occupation')).toBe('nurse')
    expect(events('my twins start college in the fall')).toContain('their twins start college in the fall')
  })

  it('reads a nationality, and pets named by breed from the WordNet vocabulary', () => {
    expect(events("I've lived in Madrid for 3 years but I'm Canadian")).toContain('is Canadian')
    expect(events('I am german')).toEqual(['is German'])
    const pets = (data: string) => x(data).interests?.pets?.map((p) => p.value)
    expect(pets('me and my husband just adopted a rescue greyhound')).toEqual(['greyhound'])
    expect(pets('I have a whippet and two tabby cats.')).toEqual(['whippet', 'tabby cat'])
    // a breed's name that is also another thing's is left out of the vocabulary
    expect(pets('I have a cardigan.')).toBeUndefined()
    expect(pets('I have a boxer.')).toBeUndefined()
  })

  it('reads a dev, a year of college, "more of a" and a name said in passing', () => {
    expect(core("I'm a software dev at Google, mostly backend stuff", 'occupation')).toBe('software developer')
    expect(core("I'm 19 and in my first year of college", 'occupation')).toBe('college student')
    expect(x("I'm not into sports at all, more of a bookworm").interests?.books?.map((i) => i.value)).toEqual([
      'reading',
    ])
    expect(x('I am more of a cat person.').interests?.pets?.map((i) => i.value)).toEqual(['cat'])
    expect(events('I love hiking with my dog Max on weekends')).toContain('their dog is named Max')
    expect(events('I went to see my mom Friday.').join(' ')).not.toMatch(/named/)
  })

  it('reads a role said as a label, a short title, or with "as a" and no comma', () => {
    expect(core('as a software engineer I sit all day, what stretches help?', 'occupation')).toBe('software engineer')
    expect(core('retired teacher here, 34 years in the classroom.', 'occupation')).toBe('retired teacher')
    expect(core('nurse here, quick question about sleep', 'occupation')).toBe('nurse')
    expect(core('freelance graphic designer, clients never pay on time', 'occupation')).toBe(
      'freelance graphic designer',
    )
    expect(core('barista by day, aspiring novelist by night. help me outline a chapter?', 'occupation')).toBe('barista')
    expect(core("I'm an RN on a cardiac ward", 'occupation')).toBe('registered nurse')
    expect(core('im an NP in a rural clinic', 'occupation')).toBe('nurse practitioner')
    // a word that is no job, or a role asked of the assistant, stays out
    expect(core('vegan here, should I take b12?', 'occupation')).toBeUndefined()
    expect(core('as a life coach what do you tell clients?', 'occupation')).toBeUndefined()
    expect(x('first year uni student studying nursing, exams are killing me').core_info?.occupation?.value).toBe(
      'nursing student',
    )
  })

  it('reads fragments whose object is the person’s own, and no gerund that is a subject', () => {
    expect(events('tore my ACL last year playing soccer and I am scared to run again')).toContain(
      'tore their ACL playing soccer',
    )
    expect(events('just got promoted to head chef!! need ideas for a menu')).toContain('got promoted to head chef')
    expect(core('just got promoted to head chef!! need ideas for a menu', 'occupation')).toBe('head chef')
    expect(x('so stressed about my thesis defense next week').personality?.mood?.value).toBe('stressed')
    expect(values(x('training for my first marathon in October'))).toContain('running')
    expect(events('trying to learn spanish before our trip to Mexico')).toEqual(['is learning Spanish'])
    expect(values(x('Yeah, learning a different language is definitely a challenge.'))).toEqual([])
    expect(events('got to go, talk later')).toEqual([])
  })

  it('reads an age a birthday away, a place just outside a city, and a statement before a question', () => {
    expect(x('turning 30 next month and feeling weird about it').core_info?.age?.value).toBe(29)
    expect(x('I turn 40 tomorrow!').core_info?.age?.value).toBe(39)
    expect(x('I am turning 5 minutes late').core_info?.age).toBeUndefined()
    expect(core('we live just outside Denver, best day hikes for a family?', 'location')).toBe('Denver')
    expect(core('originally from Manila, live in Melbourne now with my partner', 'location')).toBe('Melbourne')
    expect(events('type 1 diabetic here, is intermittent fasting a bad idea for me?')).toEqual(['has type 1 diabetes'])
    expect(events('chronic lower back pain from years of warehouse work')).toEqual(['has lower back pain'])
  })

  it('reads titles watched, teams followed and a pet of the household', () => {
    const all = (data: string) =>
      Object.entries(x(data).interests ?? {}).flatMap(([category, list]) => list.map((i) => `${category}:${i.value}`))
    expect(all('been watching The Bear, so good')).toEqual(['movies_tv:The Bear'])
    expect(all("can't stop playing Stardew Valley, anything similar?")).toEqual(['hobbies:Stardew Valley'])
    expect(all("I've been watching a lot of anime lately, Attack on Titan is my fave")).toEqual([
      'movies_tv:anime',
      'other:Attack on Titan',
    ])
    expect(all('huge Celtics fan here, who wins the east?')).toEqual(['sports:Celtics'])
    expect(all('die hard Arsenal supporter, still recovering from last season')).toEqual(['sports:Arsenal'])
    expect(all('I am a big Liverpool fan')).toEqual(['sports:Liverpool'])
    expect(all('huge Beatles fan')).toEqual(['music:Beatles'])
    expect(all('play chess online every night')).toEqual(['hobbies:chess'])
    expect(events('our golden retriever Biscuit ate a sock')).toContain('their golden retriever is named Biscuit')
  })

  it('reads events said without "I", and no bio pronoun that points back at what a fragment named', () => {
    const said = x('watched Oppenheimer last night, he was a physicist in New Mexico right?')
    expect(said.core_info?.gender).toBeUndefined()
    expect(said.memories?.map((m) => m.event)).toEqual(['watched Oppenheimer'])
    expect(x('She lives in Lisbon. She loves jazz.').core_info?.gender?.value).toBe('female')
    expect(core('used to live in Tokyo but moved back home to Ohio', 'location')).toBe('Ohio')
    expect(events('had a job interview today at a tech startup, fingers crossed')).toEqual([
      'had a job interview at a tech startup',
    ])
    expect(x('I had surgery last week').memories).toEqual([
      { event: 'had surgery', date: '2024-06-08', importance: 'high', confidence: 0.9 },
    ])
    expect(events('I had a great time')).toEqual([])
    expect(events("I've been mentoring a trans teen through a local program")).toEqual([
      'has been mentoring a trans teen through a local program',
    ])
    expect(events("celebrated my daughter's 5th birthday with a unicorn party")).toContain(
      "celebrated their daughter's 5th birthday with a unicorn party",
    )
    expect(events('I am retired and enjoying my awesome grandchildren.')).toContain('has grandchildren')
    expect(events('I was born here')).toEqual([])
  })

  it('reads past an opener, a run-on second statement and an answer to the person’s own question', () => {
    expect(events('After that I have an internship through a local office.')).toEqual([
      'has an internship through a local office',
    ])
    expect(events("Now that I'm single I need to focus on life and work.")).toEqual(['is single'])
    const trendy = x("Yes I'm a nurse I'm very trendy")
    expect(trendy.core_info?.occupation?.value).toBe('nurse')
    expect(trendy.memories?.map((m) => m.event)).toEqual(['is trendy'])
    // a clause bound to the one before stays with it
    expect(values(x('I like my food grey, the color I like on everything!'))).not.toContain('on everything')
    expect(x('The man I was forced to marry was a dentist.').core_info?.occupation).toBeUndefined()
    expect(x('White wines are my favorite, clear sparkling white wines.').interests?.food?.[0]?.value).toBe(
      'white wines',
    )
    expect(x('Do you like dogs? I do.').interests?.pets?.map((i) => i.value)).toEqual(['dog'])
    expect(x('Do you like dogs? I do not.').interests).toBeUndefined()
    expect(values(x('I actually play a bit of tennis casually.'))).toEqual(['tennis'])
  })

  it('reads a job by its short form or before where it is done, a move of the household and a diet kept', () => {
    expect(core('vet tech here, we had three dogs come in with parvo this week.', 'occupation')).toBe('vet technician')
    expect(core('SWE at google, trying to decide between staying or joining a startup', 'occupation')).toBe(
      'software engineer',
    )
    expect(core('PhD student in biology, my advisor never answers emails', 'occupation')).toBe('biology phd student')
    expect(core('stay at home dad of 3, my days are chaos', 'occupation')).toBe('stay-at-home parent')
    // someone named before is no label of the person's
    expect(core('The custodian at the hospital where I did chemotherapy was very nice.', 'occupation')).toBeUndefined()
    expect(core('dinner at 7 tonight, what should I cook?', 'occupation')).toBeUndefined()
    expect(core('we moved from Chicago to Austin in March and the heat is brutal', 'location')).toBe('Austin')
    expect(events('we moved from Chicago to Austin in March and the heat is brutal')).toEqual([
      'moved from Chicago to Austin in March',
    ])
    expect(core('I live in March, a town near Cambridge', 'location')).toBe('March')
    expect(x('been doing keto for 3 months and down 20 lbs!').interests?.food?.map((i) => i.value)).toEqual(['keto'])
    expect(values(x("I've been baking sourdough every weekend since the pandemic"))).toEqual(['baking'])
    expect(events('I get migraines a lot, does caffeine help or hurt?')).toEqual(['has migraines'])
    expect(x("I'm 52 and thinking of going back to school, is it too late?").core_info?.age?.value).toBe(52)
  })

  it('reads a trip planned, a field of work, a rank reached and the age and sex as forums write them', () => {
    expect(events('going to Lisbon in may with my wife, first time in Europe')).toEqual([
      'is going to Lisbon in may with their wife',
    ])
    expect(events('I am going to Paris, so excited')).toEqual(['is going to Paris'])
    expect(events('I am going to bed')).toEqual([])
    expect(core('yeah I run a bit, mostly 5ks. I live in Phoenix tho', 'location')).toBe('Phoenix')
    expect(core("I'm in sales so I'm on the phone all day", 'occupation')).toBe('works in sales')
    expect(core('I do IT for a hospital and the night shifts are killing me', 'occupation')).toBe('works in IT')
    expect(core('I do it for a hospital', 'occupation')).toBeUndefined()
    expect(core('been a line cook for 5 years and I finally made sous chef', 'occupation')).toBe('sous chef')
    expect(core('I made pasta for dinner', 'occupation')).toBeUndefined()
    expect(core('retired nurse, 40 years in the ER. now I volunteer at the library', 'occupation')).toBe(
      'retired nurse',
    )
    const forum = x("27F, looking for advice on moving out of my parents' house").core_info
    expect([forum?.age?.value, forum?.gender?.value]).toEqual([27, 'female'])
    expect(x('5 ways to cook rice').core_info).toBeUndefined()
  })

  it('reads identity and languages said of themselves, pastimes a time is kept for, and a birthplace', () => {
    expect(x('trans man here, 2 years on T. any tips?').core_info?.gender?.value).toBe('trans man')
    expect(events('English is my second language so sorry for mistakes')).toEqual(['speaks English'])
    expect(events('Spanish is my native language')).toEqual(['speaks Spanish natively'])
    expect(values(x('weekends are for fishing, can you recommend a good beginner rod?'))).toEqual(['fishing'])
    expect(values(x("most weekends you'll find me on the lake fishing"))).toEqual(['fishing'])
    expect(values(x('my garden is my happy place'))).toEqual(['gardening'])
    expect(events('recently divorced and trying to figure out dating again')).toEqual([
      'is recently divorced and trying to figure out dating again',
    ])
    expect(events('insomnia too, since college')).toEqual(['has insomnia'])
    expect(events('I was born and raised in Texas, now stuck in the cold in Minnesota')).toEqual([
      'was born and raised in Texas',
    ])
    expect(core('texas born and raised', 'location')).toBe('Texas')
  })

  it('reads no book from where the person reads', () => {
    expect(values(x("keep it short please, I'm reading on my phone"))).toEqual([])
    expect(values(x('I read at least one book a week, you?'))).toEqual(['reading'])
  })
})

describe('forms of the development conversations', () => {
  it('reads a statement with "you ?" run on, a comment run on after an activity, and "do a lot of"', () => {
    expect(values(x('i enjoy mountain biking in my spare time you ?'))).toEqual(['mountain biking'])
    expect(values(x('i love to go rock climbing my fav summer activity .'))).toEqual(['rock climbing'])
    expect(values(x('i do a lot of hiking around my native colorado'))).toEqual(['hiking'])
    expect(values(x('i do a lot of thinking at night'))).toEqual([])
    expect(values(x('i love you?'))).toEqual([])
    expect(values(x('during my favorite season i go skiing'))).toEqual(['skiing'])
  })

  it('reads a concert said of the person, never what the concert was like', () => {
    expect(values(x('i am going to a Taylor Swift concert tomorrow'))).toEqual(['Taylor Swift'])
    expect(values(x('i went to a country music concert last night'))).toEqual(['country music'])
    for (const said of ['we went to a great concert', 'i am going to the school concert', 'i went to a concert'])
      expect(values(x(said)), said).toEqual([])
  })

  it('reads a military branch joined, and work as a noun, never a time or someone else', () => {
    expect(core('i am in the canadian army . where do you live ?', 'occupation')).toBe('military (army)')
    expect(core('a little . i just joined the navy .', 'occupation')).toBe('military (navy)')
    expect(core('my brother is in the army', 'occupation')).toBeUndefined()
    expect(core('hey , jefferson here , just got off work as a museum tour guide .', 'occupation')).toBe(
      'museum tour guide',
    )
    expect(core('good . just got home from work at Burger King .', 'occupation')).toBe('works at Burger King')
    expect(core('i just got home from work at night', 'occupation')).toBeUndefined()
    expect(core('my sister just got home from work at the bank', 'occupation')).toBeUndefined()
  })

  it('reads a favourite said after the person’s own question, and a place named as home', () => {
    expect(values(x('do you like rascal flatts ? they are my favorite band .'))).toEqual(['rascal flatts'])
    expect(values(x('do you like pizza? it is one of my favorites'))).toEqual(['pizza'])
    expect(values(x('do you have a dog? it is my favorite'))).toEqual([])
    expect(core('just here at my house in michigan with my boyfriend .', 'location')).toBe('Michigan')
    expect(core('my native colorado is beautiful', 'location')).toBe('Colorado')
    expect(core('my native language is spanish', 'location')).toBeUndefined()
  })

  it('keeps a count of books as reading, and company as no pastime', () => {
    expect(values(x('i read about two books a month .'))).toEqual(['reading'])
    expect(values(x('i also spend time with my aunt .'))).toEqual([])
  })
})

describe('messages to an assistant: labels, names in a list, answers to the person’s own question', () => {
  it('reads a parent’s label, a place before "-based", and a time said with "this" in a fragment', () => {
    const parent = x('mom of twin toddlers here, any tips for getting them to nap at the same time?')
    expect(parent.core_info?.gender?.value).toBe('female')
    expect(parent.memories?.map((m) => m.event)).toEqual(['is a mom of twin toddlers'])
    expect(events('i am a proud dad of 3')).toEqual(['is a dad of 3'])
    const dev = x('Seattle-based dev here, looking for hiking trails nearby').core_info
    expect([dev?.location?.value, dev?.occupation?.value]).toEqual(['Seattle', 'developer'])
    expect(core('London-based nurse, any tips?', 'occupation')).toBe('nurse')
    expect(x('plant-based diet, any tips?').core_info).toBeUndefined()
    expect(core('teaching 3rd grade this year, any classroom management tips?', 'occupation')).toBe('3rd grade teacher')
    expect(core('just turned 34 and feeling old lol', 'age')).toBe(34)
  })

  it('reads a job with its shift and a compound before it, and no workplace from a time of day', () => {
    expect(core('work nights as an ER nurse, how do I fix my sleep?', 'occupation')).toBe('er nurse')
    expect(core('I am an animal rights worker and I am vegan', 'occupation')).toBe('animal rights worker')
    expect(core('i am a good nurse', 'occupation')).toBe('nurse')
    expect(core('I get off work at 2 PM', 'occupation')).toBeUndefined()
    expect(core('i work at 7 eleven', 'occupation')).toBe('works at 7 eleven')
  })

  it('reads where the person is over where they came from, and pets named in a list or after "i do"', () => {
    expect(core("I'm in Dublin but originally from Lagos", 'location')).toBe('Dublin')
    expect(core('i am originally from lagos', 'location')).toBe('Lagos')
    expect(events('I have two cats, Salt and Pepper, and they hate each other')).toEqual([
      'their cats are named Salt and Pepper',
      'has two cats',
    ])
    expect(events('i have two dogs, big and small')).toEqual(['has two dogs'])
    const rex = x('do you like german shepards? i do, mine is named Rex')
    expect(values(rex)).toEqual(['german shepherd'])
    expect(rex.memories?.map((m) => m.event)).toEqual(['their german shepherd is named Rex'])
    expect(events('do you have a dog? mine is named Rex')).toEqual(['their dog is named Rex'])
    expect(events('do you like pizza? i do, mine is named Bob')).toEqual([])
  })

  it('reads fans of names with digits, interests taken up, and what a channel is about', () => {
    expect(values(x('big Formula 1 fan, Ferrari all the way'))).toEqual(['Formula 1'])
    expect(values(x("I've gotten really into pickleball lately"))).toEqual(['pickleball'])
    expect(values(x('I run a small YouTube channel about woodworking'))).toEqual(['woodworking'])
    expect(values(x('i have a blog about my kids'))).toEqual([])
  })
})

describe('messages to an assistant: plans, names after a comma and work for a company', () => {
  it('reads a trip planned through a place, and a move said without "I"', () => {
    expect(events("we're planning a road trip through Utah's national parks in October")).toEqual([
      "is planning a road trip through Utah's national parks in October",
    ])
    expect(events('i am planning a trip to the store')).toEqual([])
    expect(events('moving to Berlin next month for work, what should I know about renting there?')).toEqual([
      'is moving to Berlin',
    ])
  })

  it('reads a pet’s name after a comma and a word before the pet, never a day', () => {
    expect(events('Our rescue greyhound, Pixel, is scared of stairs. How can I help her?')).toEqual([
      'their greyhound is named Pixel',
    ])
    expect(events('my dog, Max, loves the beach')).toEqual(['their dog is named Max'])
    expect(events('my mom, Friday is her day off')).toEqual([])
  })

  it('reads a gender said with "as a" and a word before it, a company driven for, and interests taken up', () => {
    expect(core('As a single dad working two jobs, I barely have time to cook.', 'gender')).toBe('male')
    expect(core('I drive for Uber on the weekends to make extra cash', 'occupation')).toBe('drives for Uber')
    expect(core('i deliver for DoorDash', 'occupation')).toBe('delivers for DoorDash')
    expect(core('i drive for hours every day', 'occupation')).toBeUndefined()
    expect(values(x('been getting into birdwatching since we moved to the countryside'))).toEqual(['birdwatching'])
  })
})

describe('events as people tell them', () => {
  it('ends an event before how the person feels about it or a remark on it', () => {
    expect(events('got laid off last week, kind of freaking out')).toEqual(['got laid off'])
    expect(events('I got my wisdom teeth out this morning, face is huge')).toEqual(['got their wisdom teeth out'])
    expect(events('I lost hearing in one ear, so no sports for me')).toEqual([
      'lost hearing in one ear, so no sports for them',
    ])
  })

  it('reads a first time had, and a relative’s event that is the household’s', () => {
    expect(events('I had my first therapy session today')).toEqual(['had their first therapy session'])
    expect(events('I had a great time')).toEqual([])
    expect(events('my son broke his arm at soccer practice')).toEqual(['their son broke his arm at soccer practice'])
    expect(events('my boyfriend proposed last night and I said yes')).toEqual(['their boyfriend proposed'])
  })
})

describe('messages to an assistant: who the person is before what they aim at', () => {
  it('reads a noun phrase before an aim, and the aim as a memory', () => {
    const said = "I'm a 29 year old accountant in Toronto trying to get into climbing"
    expect([core(said, 'age'), core(said, 'location'), core(said, 'occupation')]).toEqual([29, 'Toronto', 'accountant'])
    expect(events(said)).toEqual(['is trying to get into climbing'])
    expect(core('i am trying to get into nursing school', 'occupation')).toBeUndefined()
  })

  it('reads a job after a comma, a job retired from, work done remotely, and a degree struggled with', () => {
    expect(core("I'm applying for a marketing role, currently a barista", 'occupation')).toBe('barista')
    expect(core('just retired after 30 years as a firefighter, what hobbies should I try?', 'occupation')).toBe(
      'retired firefighter',
    )
    expect(core('i retired last year', 'occupation')).toBe('retired')
    expect(core('I work remotely from Lisbon as a UX designer', 'occupation')).toBe('ux designer')
    expect(core('struggling with my PhD in physics, my advisor is tough', 'occupation')).toBe(
      'physics graduate student',
    )
  })

  it('reads a pet brought home and its name, not someone else’s', () => {
    const puppy = x('any tips for a first time dog owner? just brought home a beagle puppy named Waffles')
    expect(values(puppy)).toEqual(['beagle'])
    expect(puppy.memories?.map((m) => m.event)).toContain('their puppy is named Waffles')
    expect(events('my sister got a dog named Rex')).toEqual(['their sister got a dog named Rex'])
  })
})

describe('short answers to an assistant’s questions', () => {
  const answered = (question: string, reply: string): Extraction =>
    extractor.extractOne({
      inputType: 'conversation',
      data: JSON.stringify([
        { role: 'assistant', content: question },
        { role: 'user', content: reply },
      ]),
    })

  it('reads a place, pastimes, an age, a favourite, a subject of study and a topic to avoid', () => {
    expect(answered('Where are you based?', 'Toronto, born and raised').core_info?.location?.value).toBe('Toronto')
    expect(values(answered('What do you like to do on weekends?', 'mostly hiking and reading'))).toEqual([
      'hiking',
      'reading',
    ])
    expect(answered("How old are you, if you don't mind me asking?", '34').core_info?.age?.value).toBe(34)
    expect(values(answered('Favorite food?', 'sushi for sure'))).toEqual(['sushi'])
    expect(answered('What are you studying?', 'nursing, second year').core_info?.occupation?.value).toBe(
      'nursing student',
    )
    expect(answered('Any topics you would rather avoid?', 'politics please').preferences?.topics_to_avoid).toEqual([
      { value: 'politics', confidence: expect.any(Number) },
    ])
    expect(answered('What topics are off limits?', 'work stuff lol').preferences?.topics_to_avoid?.[0]?.value).toBe(
      'work stuff',
    )
  })

  it('reads nothing from an answer that says no or tells something else', () => {
    expect(answered('Any topics you would rather avoid?', 'no, not really').preferences?.topics_to_avoid ?? []).toEqual(
      [],
    )
    expect(answered('What are you studying?', 'I dropped out actually').core_info?.occupation).toBeUndefined()
    expect(answered('How old are you?', 'old enough lol').core_info?.age).toBeUndefined()
  })

  it('reads an answer before a sentence of its own, interests, pets, a style and a topic of "my"', () => {
    expect(values(answered('What do you do for fun?', 'mostly woodworking, I built a workbench last month'))).toEqual([
      'woodworking',
    ])
    expect(values(answered('What are you into?', "star wars everything, I've seen it 30 times"))).toEqual(['star wars'])
    const rabbits = answered('I have a cat. Do you have pets?', 'two rabbits, Mochi and Bean')
    expect([values(rabbits), rabbits.memories?.map((m) => m.event)]).toEqual([
      ['rabbit'],
      ['their rabbits are named Mochi and Bean'],
    ])
    expect(answered('Do you have any pets?', 'yes, a beagle named Waffles').memories?.map((m) => m.event)).toEqual([
      'their beagle is named Waffles',
    ])
    expect(answered('Any pets?', 'a cat, Luna').memories?.map((m) => m.event)).toEqual(['their cat is named Luna'])
    // a pet without a capital is no name
    expect(answered('Do you have any pets?', 'a dog, honestly').memories ?? []).toEqual([])
    const style = answered('How should I format my answers?', 'detailed please, I am a developer')
    expect([style.preferences?.conversation_style?.value, values(style)]).toEqual(['detailed', []])
    expect(
      answered('How should I format my answers?', 'whatever works').preferences?.conversation_style,
    ).toBeUndefined()
    const avoid = answered("Anything you'd prefer I not bring up?", "my weight please, it's a sore spot")
    expect(avoid.preferences?.topics_to_avoid?.map((t) => t.value)).toEqual(['weight'])
    const dad = answered('Tell me about yourself.', '35, stay at home dad to two boys, former accountant').core_info
    expect([dad?.age?.value, dad?.occupation?.value]).toEqual([35, 'stay-at-home parent'])
    const nurse = x('29, a nurse in Leeds').core_info
    expect([nurse?.age?.value, nurse?.occupation?.value, nurse?.location?.value]).toEqual([29, 'nurse', 'Leeds'])
    expect(x('12, 15 and 18 are their ages').core_info).toBeUndefined()
  })

  it('reads a household counted after a comma', () => {
    const married = answered('Are you married?', 'divorced, two kids')
    expect(married.memories?.map((m) => m.event)).toEqual(['is divorced', 'has two kids'])
    expect((x('my sister has two kids').memories ?? []).map((m) => m.event)).toEqual(['their sister has two kids'])
  })
})

describe('no interest or topic cut loose from its verb', () => {
  const avoided = (data: string) => (x(data).preferences?.topics_to_avoid ?? []).map((t) => t.value)

  it('keeps what a preposition’s object is to the person, and never the preposition', () => {
    expect(values(x('i play with my german shepherd'))).toEqual(['german shepherd'])
    expect(values(x('well i try to . i play in a band on weekends'))).toEqual(['band'])
    expect(values(x('hello , i enjoy shopping , especially for cars .'))).toEqual(['shopping'])
    expect(values(x('i like in indiana'))).toEqual([])
    expect(values(x('i read about horchata'))).toEqual(['horchata'])
    expect(values(x('i read about twenty in a year'))).toEqual(['reading'])
    expect(values(x('wow , i am 25 , and i love to read , 20 books this year .'))).toEqual(['reading'])
  })

  it('takes no topic to avoid that is a verb’s complement', () => {
    expect(avoided('i spend a lot of time on the internet . and do not talk to people .')).toEqual([])
    expect(avoided('i hate to say .')).toEqual([])
    expect(avoided('please do not bring up my ex')).toEqual(['ex'])
  })
})

describe('messages to an assistant: the household, a diet kept, and where a job is', () => {
  it('reads a partner’s pregnancy as the household’s, and a diet or a state kept for years', () => {
    expect(events("my wife's pregnant with our second, due in March")).toContain('is expecting their second child')
    expect(events('my wife is pregnant')).toContain('is expecting a baby')
    expect(events('i am pregnant')).toEqual(['is pregnant'])
    expect(events('my sister is pregnant')).not.toContain('is expecting a baby')
    expect(values(x('Been vegan for 8 years now'))).toEqual(['vegan'])
  })

  it('reads a place after a company named without an article, a shift’s length, and a birthplace after a label', () => {
    const google = x("I'm a software engineer at Google in Zurich").core_info
    expect([google?.occupation?.value, google?.location?.value]).toEqual(['software engineer', 'Zurich'])
    expect(core('I work 12 hour shifts as a paramedic', 'occupation')).toBe('paramedic')
    const fan = x("I'm a Lakers fan born and raised in LA")
    expect([values(fan), fan.core_info?.location?.value]).toEqual([['Lakers'], 'LA'])
    expect(core('born and raised in ohio', 'location')).toBe('Ohio')
    expect(core('my dad was born and raised in ohio', 'location')).toBeUndefined()
  })
})

describe('messages to an assistant: titles, fandoms, seasons away and what happened to one’s things', () => {
  it('reads a title finished or started, by its verb, and no day, holiday or schooling', () => {
    const drama = x("just finished Crash Landing on You and I'm emotionally wrecked, what should I watch next")
    expect(drama.interests?.movies_tv?.map((s) => s.value)).toEqual(['Crash Landing on You'])
    expect(x('just finished reading Project Hail Mary, so good').interests?.books?.map((s) => s.value)).toEqual([
      'Project Hail Mary',
    ])
    expect(values(x('been binging Severance all weekend'))).toEqual(['Severance'])
    for (const said of [
      'my son just finished Harry Potter',
      'Just finished Monday’s shift, exhausted',
      'just finished Uni and looking for work',
      'finished Chemo last week!!',
      'have you finished The Bear?',
      'i finished the report',
    ])
      expect(values(x(said)), said).toEqual([])
  })

  it('reads the name fans of an artist or a work give themselves, and not of someone else', () => {
    expect(x('total swiftie here lol, can you help me plan outfits?').interests?.music).toEqual([
      { value: 'Taylor Swift', confidence: expect.any(Number) },
    ])
    expect(values(x("I'm a huge Potterhead"))).toEqual(['Harry Potter'])
    expect(values(x('my sister is a huge swiftie'))).toEqual([])
  })

  it('reads a sport coached, a race trained for, and guitar taught to oneself', () => {
    expect(values(x("I coach my son's little league team on weekends"))).toEqual(['baseball'])
    expect(values(x("I help coach my daughter's soccer team"))).toEqual(['soccer'])
    expect(values(x('my daughter coaches a soccer team'))).toEqual([])
    expect(values(x('I coach my son'))).toEqual([])
    expect(values(x('training for the Chicago marathon in October'))).toEqual(['running'])
    expect(values(x('been teaching myself guitar for about six months'))).toEqual(['guitar'])
  })

  it('reads where the person spends a season, not a trip or a jam', () => {
    expect(core('ugh, stuck in Minnesota for the winter again, any tips?', 'location')).toBe('Minnesota')
    expect(core('spending the winter in Arizona with my parents', 'location')).toBe('Arizona')
    expect(core("I'm staying in Paris for a few days", 'location')).toBeUndefined()
    expect(core('stuck in traffic again', 'location')).toBeUndefined()
  })

  it('reads a new job starting and a move under way, each said without "I"', () => {
    const job = 'starting a new job as a data analyst on Monday and I’m nervous'
    expect(core(job, 'occupation')).toBe('data analyst')
    expect(events(job)).toContain('is starting a new job')
    expect(core('my brother is starting a new job as a chef', 'occupation')).toBeUndefined()
    expect(events('relocating from Sydney to Melbourne for work, which suburbs are good for young families?')).toEqual([
      'is relocating from Sydney to Melbourne for work',
    ])
  })

  it('reads an age turning before a second thought, and what happened to the person’s car or home', () => {
    expect(core('turning 42 next week and thinking about a career change', 'age')).toBe(41)
    expect(events('my car got totaled last week so I’m shopping for a used one')).toEqual(['their car got totaled'])
    expect(events('my basement flooded last night')).toEqual(['their basement flooded'])
    expect(events('my tractor broke down, do you know anyone who can fix it?')).toEqual(['their tractor broke down'])
    expect(events('my laptop just stopped working')).toEqual(['their laptop stopped working'])
    expect(events("my friend's car got totaled")).toEqual([])
  })
})

describe('messages to an assistant: a business run, a degree as a role, a place left for another', () => {
  it('reads a business run for years as the job, not a pastime of running', () => {
    const said = 'been running my own electrical business for 10 years'
    expect([core(said, 'occupation'), values(x(said))]).toEqual(['electrical business owner', []])
    expect(core('I have been running a small cafe', 'occupation')).toBe('cafe owner')
    expect(values(x('I have been running a lot lately'))).toEqual(['running'])
    expect(values(x('I have been traveling the world'))).toEqual(['traveling'])
  })

  it('reads a degree said as a role, and an age that opens a message', () => {
    expect(core('3rd year PhD in marine biology, my advisor wants a draft by friday', 'occupation')).toBe(
      'graduate student',
    )
    expect(core('19 and still no idea what to major in', 'age')).toBe(19)
    expect(core('night shifts on the cardiac ward again', 'occupation')).toBe('nurse')
    expect(core('my wife works night shifts on the ward', 'occupation')).toBeUndefined()
    expect(core('I work long shifts in the ER as a paramedic', 'occupation')).toBe('paramedic')
    expect(core('10 and 12 are my lucky numbers', 'age')).toBeUndefined()
    expect(core('5, and still going', 'age')).toBeUndefined()
  })

  it('reads the place left for, and ends the event before a remark on something else', () => {
    const moved = 'we left Seattle for Portland two years ago and honestly the rent is not much better'
    expect(core(moved, 'location')).toBe('Portland')
    expect(events(moved)).toEqual(['left Seattle for Portland'])
    expect(core('I left Google for a startup', 'location')).toBeUndefined()
    expect(events('I have way too many houseplants, like 40, and the monstera is dying')).toEqual([
      'has too many houseplants',
    ])
  })
})

describe('memories that say what "it" and "them" were', () => {
  it('names what the clause before named, of the same number, and the person’s things as theirs', () => {
    expect(events('We adopted two kittens in May. I named them Salt and Pepper.')).toContain(
      'named the kittens Salt and Pepper',
    )
    expect(events('I love my new bike, I rode it to work today')).toContain('rode their new bike to work')
    expect(events('I bought a new camera last week and took it to the beach yesterday.')).toContain(
      'took the new camera to the beach',
    )
    // nothing of the same number before: the words stay as said
    expect(events('I bought a new camera last week. I took them to the beach.')).not.toContain(
      'took the new camera to the beach',
    )
  })

  const turns = (...pairs: [string, string][]) =>
    (
      extractor.extractOne({
        inputType: 'conversation',
        data: JSON.stringify(
          pairs.flatMap(([question, reply]) => [
            { role: 'assistant', content: question },
            { role: 'user', content: reply },
          ]),
        ),
      }).memories ?? []
    ).map((m) => m.event)

  it('names what the question a turn answers named, and never a thing of the one who asked', () => {
    expect(turns(['Where did you get your dogs?', 'I got them from a breeder up north'])).toEqual([
      'got their dogs from a breeder up north',
    ])
    expect(turns(['Do you still have the old car?', 'no, I sold it last year'])).toEqual(['sold the old car'])
    // the asker's own things, a statement rather than a question, and a later sentence of the turn name nothing
    // "them" points to: such a memory would not read on its own, so it is left out
    expect(turns(['Did you see my new paintings?', 'I bought them at a market in Lyon'])).toEqual([])
    expect(turns(['I adopted two kittens.', 'I named them Salt and Pepper'])).not.toContain(
      'named the kittens Salt and Pepper',
    )
    expect(turns(['Where did you get your dogs?', 'Long story. I got them from a breeder up north'])).not.toContain(
      'got their dogs from a breeder up north',
    )
  })
})

describe('facts chat says in passing', () => {
  const memories = (data: string) => (x(data).memories ?? []).map((m) => m.event)

  it('keeps a gender word that opens a team’s name or a fandom out of the gender', () => {
    expect(x("I'm a Man United supporter through and through").core_info?.gender).toBeUndefined()
    expect(x('i am a man city fan').core_info?.gender).toBeUndefined()
    expect(x('I am a woman teacher').core_info?.gender?.value).toBe('female')
    expect(x("I'm a guy named Sam").core_info?.gender?.value).toBe('male')
  })

  it('reads the age from a birth year, to the day when the day is said, and the birthday as a memory', () => {
    // the reference date is 2024-06-15: before the birthday, a year less
    expect(x('my birthday is March 3rd 1990').core_info?.age?.value).toBe(34)
    expect(x('I was born on 30 December 1990').core_info?.age?.value).toBe(33)
    expect(x("born in 1985, so yeah I'm old").core_info?.age).toEqual({ value: 39, confidence: 0.6 })
    expect(memories('my birthday is the 3rd of july')).toEqual(['their birthday is July 3'])
    expect(x('my son, born in 2015, loves lego').core_info?.age).toBeUndefined()
    expect(x('my birthday is tomorrow').core_info?.age).toBeUndefined()
  })

  it('keeps service that is over as a memory, not as the job', () => {
    const served = x('Oh, I was in the Air Force for 8 years so I doubt we met!')
    expect(served.core_info?.occupation).toBeUndefined()
    expect(served.memories?.map((m) => [m.event, m.importance])).toEqual([
      ['served in the Air Force for 8 years', 'high'],
    ])
    expect(memories("I'm an army veteran")).toEqual(['served in the Army'])
    expect(memories('I was in the shower')).toEqual([])
  })

  it('reads a field of work said with "do" or "work" and a name said with a filler after it', () => {
    const core = (data: string) => x(data).core_info
    expect(core('used to be a teacher, now I do UX design')?.occupation?.value).toBe('works in UX design')
    expect(core('I work retail')?.occupation?.value).toBe('works in retail')
    expect(core('I work hard')?.occupation).toBeUndefined()
    expect(core("I'm Priya btw")?.name?.value).toBe('Priya')
    expect(core('names george by the way, married to a model')?.name?.value).toBe('George')
    expect(core("name's george btw")?.name?.value).toBe('George')
  })

  it('takes a new job\'s title only after "as" or "working", never the time it starts', () => {
    expect(x("I'm starting a new job next week").core_info?.occupation).toBeUndefined()
    expect(x("I'm starting a new job on Monday").core_info?.occupation).toBeUndefined()
    expect(x('i am starting a new job as a nurse on monday').core_info?.occupation?.value).toBe('nurse')
    expect(x('I got a new job at Google').core_info?.occupation?.value).toBe('works at Google')
  })

  it('reads a favourite title named after its kind, and "more into"', () => {
    expect(x("I'm watching my fave movie star wars.").interests?.movies_tv?.[0]?.value).toBe('star wars')
    expect(values(x('watching my favorite show tonight'))).toEqual([])
    expect(x('my favorite movie ever is Alien').interests?.movies_tv?.[0]?.value).toBe('Alien')
    expect(x("Awe I'm more into gymnastics").interests?.sports?.[0]?.value).toBe('gymnastics')
  })

  it('reads birthdays, service and names in linear time', () => {
    expectLinear(
      `my birthday is ${'march 3rd and '.repeat(10_000)}1990`,
      `I was in the ${'very '.repeat(10_000)}army`,
      `watching my favorite movie ${'star wars '.repeat(10_000)}`,
      `i am a ${'man '.repeat(10_000)}fan`,
    )
  })
})

describe('events of a long conversation', () => {
  const dated = (data: string) => (x(data).memories ?? []).map((m) => [m.event, m.date])

  it('dates a weekend by its Saturday and reads a gathering had as an event', () => {
    // 2024-06-15 is a Saturday: the weekend before is June 8, "last weekend" too
    expect(dated('I went hiking last weekend')).toEqual([['went hiking', '2024-06-08']])
    expect(dated('we had a party over the weekend')).toEqual([['had a party', '2024-06-08']])
    expect(dated('we had a picnic at the park yesterday')).toEqual([['had a picnic at the park', '2024-06-14']])
    expect(dated('I had a great time')).toEqual([])
  })

  it('leaves out an event whose thing is only "one", and keeps "one of"', () => {
    expect(dated('Yeah, I found one that helps LGBTQ folks.')).toEqual([])
    expect(dated('I won one of the races last week')).toEqual([['won one of the races', '2024-06-08']])
  })

  it('reads what the people around the person did for them as the person’s event', () => {
    expect(dated('My friends threw me a surprise party last week')).toEqual([
      ['their friends threw them a surprise party', '2024-06-08'],
    ])
    expect(dated('my dad took us camping at the lake yesterday')).toEqual([
      ['their dad took them camping at the lake', '2024-06-14'],
    ])
    expect(dated('my mom made me laugh')).toEqual([])
    expect(dated('my friend threw a party')).not.toContainEqual(['their friend threw a party', undefined])
  })

  it('reads research under way and a dream said with "it"', () => {
    expect(
      events("I've been researching adoption agencies lately, it's been a dream of mine to have a family"),
    ).toEqual(['has been researching adoption agencies', 'their dream is to have a family'])
    expect(events("it's always been my dream to open a bakery")).toEqual(['their dream is to open a bakery'])
    expect(events('it was a dream to visit Paris')).toEqual([])
  })

  it('reads what the person organizes, hosts or streams as a habit, and a journey under way', () => {
    expect(events('I participate in them quite often, I also organize debates on my twitch account.')).toEqual([
      'organizes debates on their twitch account',
    ])
    expect(events('I stream on twitch most nights')).toEqual(['streams on twitch most nights'])
    expect(events("I'm traveling through Europe.")).toEqual(['is traveling through Europe'])
  })

  it('reads events done for the person in linear time', () => {
    expectLinear(
      `my friends threw me ${'a party and '.repeat(10_000)}`,
      `my ${'old '.repeat(10_000)}friends took me camping`,
      `it is a ${'big '.repeat(10_000)}dream to fly`,
    )
  })
})

describe('requests to an assistant', () => {
  it('reads "my husband\'s a firefighter" as his fact, not a possession', () => {
    expect(events("my husband's a firefighter")).toEqual(['their husband is a firefighter'])
    expect(events("my mom's from Ohio")).toEqual(['their mom is from Ohio'])
    expect(x("my husband's a firefighter").core_info?.occupation).toBeUndefined()
  })

  it('keeps one diet value however it is spelt', () => {
    expect(x("can you suggest a recipe? I'm gluten free").interests?.food).toEqual([
      { value: 'gluten free', confidence: 0.85 },
    ])
    expect(x("i'm strictly vegan").interests?.food?.[0]?.value).toBe('vegan')
  })

  it('reads where a home owner, a parent or a business run is, and not a race run', () => {
    expect(place("I'm a first-time homeowner in Austin and my sink is leaking")).toBe('Austin')
    expect(place("I'm a single mom in Ohio")).toBe('Ohio')
    expect(place('I run a small bakery in Lyon')).toBe('Lyon')
    expect(place('I run a marathon in Boston every year')).toBeUndefined()
    expect(place('I am a fan in Boston')).toBeUndefined()
  })
})

describe('pastimes said in chat words', () => {
  it('ends a pastime before a time word with a comma, and reads a go-to and a count a week', () => {
    expect(x("I'm really into photography lately, mostly street stuff").interests).toEqual({
      hobbies: [{ value: 'photography', confidence: 0.85 }],
    })
    expect(x('my go-to comfort food is mac and cheese').interests?.food?.[0]?.value).toBe('mac and cheese')
    expect(x('I do crossfit 4x a week').interests?.sports?.[0]?.value).toBe('crossfit')
    expect(x('I go swimming three times a week').interests?.sports?.[0]?.value).toBe('swimming')
    expect(x("I've started learning the piano").interests?.music?.[0]?.value).toBe('piano')
    expect(values(x('my go-to is pizza'))).toEqual([])
  })
})

describe('events said without "I"', () => {
  it('reads a debt paid off, a lease signed, a thing sold or published, and no slang', () => {
    expect(events('finally paid off my student loans!!')).toEqual(['paid off their student loans'])
    expect(events('just signed the lease on my first apartment')).toEqual(['signed the lease on their first apartment'])
    expect(events('published my first paper!')).toEqual(['published their first paper'])
    expect(events('built different')).toEqual([])
    expect(events('wrote it down')).toEqual([])
  })
})

describe('what is under way, and what is said of the one named before', () => {
  it('reads plans under way, help asked with them, and a race trained for beside the sport', () => {
    expect(events('I am planning my wedding.')).toEqual(['is planning their wedding'])
    expect(events('I need help planning my wedding in June')).toEqual(['is planning their wedding in June'])
    expect(events('i could use some help with organizing a surprise party')).toEqual(['is organizing a surprise party'])
    const marathon = x("I'm training for my first marathon.")
    expect(marathon.interests?.sports?.[0]?.value).toBe('running')
    expect(marathon.memories?.map((m) => m.event)).toEqual(['is training for their first marathon'])
    expect(events('I am planning to move')).toEqual([])
    expect(events('i need help with my homework')).toEqual([])
    expect(events('i need help planning it')).toEqual([])
    expect(events('i never need help planning my wedding')).toEqual([])
  })

  it('gives what "she" or "he" is to the relative named just before, never to the person', () => {
    const wife = x('I have a wife, she is from Italy.')
    expect(wife.memories?.map((m) => m.event)).toEqual(['has a wife', 'their wife is from Italy'])
    expect(wife.core_info?.location).toBeUndefined()
    const sister = x('My sister lives in Boston. She is a nurse.')
    expect(sister.memories?.map((m) => m.event)).toEqual(['their sister lives in Boston', 'their sister is a nurse'])
    expect(sister.core_info?.occupation).toBeUndefined()
    expect(sister.core_info?.location).toBeUndefined()
    expect(events('my pet will not travel. she is a cow')).toEqual(['their pet is a cow'])
    expect(events('my pet will not travel. her name is daisy')).toContain('their pet is named Daisy')
    // the pronoun does not fit the one named: nothing of either
    expect(events('I have a son. She is a nurse.')).toEqual(['has a son'])
    expect(x('I have a son. She is a nurse.').core_info?.occupation).toBeUndefined()
  })

  it('reads a nationality or a people said in lower case, and no common word as one', () => {
    expect(events('i am somali')).toEqual(['is Somali'])
    expect(events("i'm nepali and i live in Denver")).toEqual(['is Nepali'])
    expect(events("I'm Nigerian")).toEqual(['is Nigerian'])
    expect(events('i am crow')).toEqual([])
    expect(events('i am fang')).toEqual([])
  })

  it('reads a favourite named in answer to "do you like X?", never the assistant’s own topic', () => {
    const talk = (question: string, reply: string) =>
      extractor.extractOne({
        inputType: 'conversation',
        data: JSON.stringify([
          { role: 'assistant', content: question },
          { role: 'user', content: reply },
        ]),
      })
    expect(talk('Do you like hockey?', 'It is my favorite sport!').interests?.sports?.[0]?.value).toBe('hockey')
    expect(talk('Do you enjoy hiking?', "it's one of my favorites").interests?.hobbies?.[0]?.value).toBe('hiking')
    expect(values(talk('Do you like the idea?', 'it is my favorite'))).toEqual([])
    expect(values(talk('Do you like hockey?', 'my favorite sport is tennis'))).toEqual(['tennis'])
  })

  it('reads plans and pronouns in linear time', () => {
    expectLinear(
      `i need help planning ${'a party and '.repeat(10_000)}`,
      `i have a wife, she is from ${'very '.repeat(10_000)}far away`,
      `${'my wife and '.repeat(5_000)}i. she is from italy`,
    )
  })
})

describe('a role said with its article', () => {
  it('reads "a nurse at a clinic in Leeds" as the person’s, and no one else’s role', () => {
    const core = (data: string) => x(data).core_info
    expect(core('a nurse at a clinic in Leeds')?.occupation?.value).toBe('nurse')
    expect(core('Hi! a nurse at a clinic in Leeds, looking for meal prep ideas')?.location?.value).toBe('Leeds')
    expect(core('nurse at a clinic in Leeds here')?.location?.value).toBe('Leeds')
    expect(core('a nurse at the clinic said it is fine')).toBeUndefined()
    expect(core('a teacher at my school told me')).toBeUndefined()
    expect(core('a nurse in the family')).toBeUndefined()
  })

  it('reads a role with its article in linear time', () => {
    expectLinear(`a nurse at a clinic in ${'leeds '.repeat(10_000)}`, `a ${'night '.repeat(10_000)}nurse at a clinic`)
  })
})

describe('plans and events of a chat message', () => {
  const memories = (data: string) => x(data).memories?.map((m) => [m.event, m.date ?? null])

  it('reads an event of the person’s calendar, said of the event', () => {
    expect(memories('Ugh my knee surgery is next week, so nervous')).toEqual([
      ['their knee surgery is next week', '2024-06-22'],
    ])
    expect(memories('our wedding was in june')).toEqual([['their wedding was in june', '2024-06-01']])
    // a season ahead dates the event by the month it begins (said in june: september)
    expect(memories('i just got engaged!!! wedding is next fall')).toContainEqual([
      'their wedding is next fall',
      '2024-09-01',
    ])
    expect(memories('my interview is on monday')).toEqual([['their interview is on monday', '2024-06-17']])
    // someone close's event names them; an event without a time, a party said without whose
    expect(events("my sister's wedding is next month")).toEqual(["their sister's wedding is next month"])
    expect(memories("my son's soccer game is on saturday")).toEqual([
      ["their son's soccer game is on saturday", '2024-06-22'],
    ])
    expect(events("the company's party is tomorrow")).toEqual([])
    expect(events('my test is hard')).toEqual([])
    expect(events('party is tonight')).toEqual([])
  })

  it('reads a plan with its time and its event, never a wish, a refusal or an errand', () => {
    expect(memories('gonna run the Chicago marathon in October')).toEqual([
      ['is going to run the Chicago marathon in October', '2024-10-01'],
    ])
    expect(memories('Planning a trip to Portugal in May with my girlfriend, any tips?')).toEqual([
      ['is planning a trip to Portugal in May with their girlfriend', '2025-05-01'],
    ])
    expect(events("I'm looking forward to the NASCAR race this weekend.")).toEqual([
      'is looking forward to the NASCAR race this weekend',
    ])
    expect(events('I am taking a vacation soon though.')).toEqual(['is taking a vacation soon'])
    expect(events("I'm hoping to move out of my parents' house soon.")).not.toContain(
      "is hoping to move out of their parents' house soon",
    )
    expect(events('i am not going to the wedding next week')).toEqual([])
    expect(events("i'll have to take a trip over there soon")).toEqual([])
    expect(events('Yeah but I will move out my parents soon')).toEqual([])
    expect(events('i am going to bed tonight')).toEqual([])
    expect(events("I'm hosting a book club at my place next Friday.")).toEqual([
      'is hosting a book club at their place next Friday',
    ])
    expect(events('I will let you know as soon as I have my first class')).toEqual([])
  })

  it('keeps a trip taken and a class signed up for a while', () => {
    const importance = (data: string) => x(data).memories?.map((m) => m.importance)
    expect(importance('We just got back from a family road trip to the Grand Canyon!')).toEqual(['medium'])
    expect(importance('I signed up for a pottery class')).toEqual(['medium'])
    expect(importance('I went to a pottery class with my sister')).toEqual(['low'])
  })

  it('reads sobriety counted in time, and no other kind of clean', () => {
    for (const said of ['Been sober 3 years as of today', 'i have been sober for 3 years', '3 years sober today!'])
      expect(memories(said), said).toEqual([['has been sober for 3 years', '2024-06-15']])
    expect(events('sober for almost a year now')).toEqual(['has been sober for almost a year'])
    expect(events('my room is clean')).toEqual([])
    expect(events('i keep my house clean for my kids')).not.toContain('has been sober for my kids')
  })

  it('reads plans, events and sobriety in linear time', () => {
    expectLinear(
      `my ${'big '.repeat(10_000)}surgery is next week`,
      `i am going to run ${'the '.repeat(10_000)}marathon in october`,
      `been sober ${'3 '.repeat(10_000)}years`,
    )
  })
})

describe('a fact said the way chat says it', () => {
  it('reads an age, a gender and an event after who the person is', () => {
    const retired = x('retired teacher here, 67, lots of free time now')
    expect(retired.core_info?.age?.value).toBe(67)
    expect(retired.core_info?.occupation?.value).toBe('retired teacher')
    expect(retired.memories ?? []).toEqual([])
    const apartment = x("i'm 28, female, just got my first apartment in Brooklyn")
    expect(apartment.core_info?.gender?.value).toBe('female')
    expect(apartment.memories?.map((m) => m.event)).toEqual(['got their first apartment in Brooklyn'])
    expect(x('Just turned 40 and feeling it').core_info?.age?.value).toBe(40)
    // a number that is no age
    expect(x('i have two dogs, 12').core_info?.age).toBeUndefined()
    expect(x('my dad is a retired teacher, 67').core_info?.age).toBeUndefined()
  })

  it('reads a favourite said without "my", a fan said with slang, and languages with their levels', () => {
    expect(x('favorite band is Radiohead, always has been').interests?.music?.[0]?.value).toBe('Radiohead')
    expect(x("I'm a diehard Yankees fan lol").interests?.sports?.[0]?.value).toBe('Yankees')
    expect(events('i speak spanish and a bit of french')).toEqual(['speaks Spanish and French'])
    expect(values(x('Favorite thing about you is your honesty'))).toEqual([])
  })

  it('reads a title under way, and no time or place as one', () => {
    expect(x('reading Dune right now').interests?.books?.[0]?.value).toBe('Dune')
    expect(x('Currently reading Dune for the first time, loving it').interests?.books?.[0]?.value).toBe('Dune')
    expect(x('Rewatching The Office for the 5th time').interests?.movies_tv?.[0]?.value).toBe('The Office')
    expect(x("I've been reading Gone with the Wind again").interests?.books?.[0]?.value).toBe('Gone with the Wind')
    expect(x('i read every night').interests?.books?.[0]?.value).toBe('reading')
    expect(values(x("I'm a huge Arsenal supporter, been watching since I was a kid"))).toEqual(['Arsenal'])
    expect(values(x('Watching the horses graze in the pasture.'))).toEqual([])
    expect(values(x('i am reading on my phone'))).toEqual([])
  })

  it('reads gig work by its app, a job without the time it started, a student without what they study', () => {
    const occupation = (data: string) => x(data).core_info?.occupation?.value
    expect(occupation('i used to be a chef but now i drive for uber')).toBe('drives for Uber')
    expect(occupation('i deliver for doordash on weekends')).toBe('delivers for DoorDash')
    expect(occupation('i work for uber as an engineer')).toBe('engineer')
    expect(occupation("i don't drive for lyft anymore")).toBeUndefined()
    expect(occupation('started a new job at Google last week!')).toBe('works at Google')
    expect(occupation("I'm a grad student studying marine biology at UCSD")).toBe('marine biology grad student')
  })

  it('reads no work of "work has been" and no job from "work sucks"', () => {
    expect(x('Work has been insane, I am a project manager').memories ?? []).toEqual([])
    expect(x('work sucks lately').memories ?? []).toEqual([])
    expect(events('Please. Never had an interest in space as a kid back on the farm.')).toHaveLength(1)
    // two verb phrases, each read on its own: no "am trans and started hrt"
    expect(events("i'm trans and just started hrt last month")).toEqual(['started hrt'])
  })
})

describe('requests and states said in passing to an assistant', () => {
  const style = (data: string) => x(data).preferences?.conversation_style?.value

  it('reads lists, a reply language and a request after a statement with "not"', () => {
    expect(style('please use bullet points, walls of text stress me out')).toBe('bullet points')
    expect(style('bullet points pls')).toBe('bullet points')
    expect(style('answer in spanish please')).toBe('replies in Spanish')
    expect(style('can you reply in french?')).toBe('replies in French')
    const second = x("english isn't my first language so keep it simple")
    expect(second.preferences?.conversation_style?.value).toBe('concise')
    expect(second.memories?.map((m) => m.event)).toEqual(['speaks English as a second language'])
    expect(style('i like lists')).toBeUndefined()
    expect(style('do not answer in spanish')).toBeUndefined()
    expect(style('answer in bed')).toBeUndefined()
    expect(style('i write in french for a living')).toBeUndefined()
    expect(style('i do not keep it short')).toBeUndefined()
  })

  it('reads a diet kept for a while, a grandchild born and a year of school', () => {
    expect(values(x('been gluten free for 2 years because of celiac'))).toEqual(['gluten free'])
    expect(x('I just became a grandma for the first time!').memories?.[0]?.importance).toBe('high')
    const occupation = (data: string) => x(data).core_info?.occupation?.value
    expect(occupation('i am a freshman in college')).toBe('college student')
    expect(occupation('im a sophomore in high school')).toBe('high school student')
    expect(occupation("I'm a freshman at Ohio State studying nursing")).toBe('nursing student')
    expect(occupation('my son is a freshman')).toBeUndefined()
    expect(events('I am 68, been retired for a few years now')).not.toContain('am 68, been retired for a few years now')
  })
})

describe('a job and a home as forums write them', () => {
  it('reads a grade taught, a parent’s letters and the city of its suburbs, and no age from a shift’s hours', () => {
    const core = (data: string) => x(data).core_info
    expect(core("I'm a 2nd grade teacher in Phoenix")?.occupation?.value).toBe('2nd grade teacher')
    expect(core("i'm a third grade teacher")?.occupation?.value).toBe('third grade teacher')
    expect(core("I'm a SAHM to twin toddlers")?.occupation?.value).toBe('stay-at-home parent')
    expect(core('I live with my parents in the suburbs of Chicago')?.location?.value).toBe('Chicago')
    const nurse = x("i'm an ER nurse, 12 hour shifts are brutal")
    expect(nurse.core_info?.age).toBeUndefined()
    expect(nurse.memories ?? []).toEqual([])
    expect(core('i am a nurse, 45')?.age?.value).toBe(45)
  })
})

describe('health, identity, losses and teams as people tell an assistant', () => {
  const core = (data: string) => x(data).core_info
  const interests = (data: string) =>
    Object.entries(x(data).interests ?? {}).flatMap(([category, said]) => said.map((v) => `${category}: ${v.value}`))

  it('reads a condition a clinician found, and a diagnosis said without "i was"', () => {
    expect(events('my doctor says i have high blood pressure')).toEqual(['has high blood pressure'])
    expect(events('my therapist says i have adhd, just got diagnosed at 34')).toEqual(['has ADHD'])
    expect(events('diagnosed with adhd last year')).toEqual(['was diagnosed with adhd'])
    // a guess, a denial or someone else's condition is none of the person's
    expect(events('my doctor says i might have diabetes')).toEqual([])
    expect(events('my doctor says i do not have diabetes')).toEqual([])
    expect(events('my doctor says my son has asthma')).toEqual(['has a son'])
    expect(events('my friend says i have adhd')).toEqual([])
    // a joint that troubles the person, with its article
    expect(events('bad left knee from a skiing accident in 2019')).toEqual(['has a bad left knee'])
    expect(events('i have bad knees')).toEqual(['has bad knees'])
    expect(events('my dad has a bad hip')).toEqual(['their dad has a bad hip'])
  })

  it('reads an orientation said as what the person is, and nothing from other uses of the words', () => {
    expect(events("i'm bi and my parents still don't know, how do i tell them")).toEqual(['is bisexual'])
    expect(events("i'm ace btw")).toEqual(['is asexual'])
    expect(x('i am gay').memories?.[0]).toMatchObject({ event: 'is gay', importance: 'medium' })
    expect(events('i am pan frying tofu')).not.toContain('is pansexual')
    expect(events('gay')).toEqual([])
  })

  it('reads the death of a pet named in passing, dated', () => {
    expect(x('my cat luna died last week, i can’t stop crying').memories).toEqual([
      { event: 'their cat luna died', date: '2024-06-08', importance: 'high', confidence: 0.85 },
    ])
    expect(events('my old dog max passed away this morning')).toEqual(['their old dog max passed away'])
    expect(events('my dog just died')).toEqual(['their dog died'])
  })

  it('dates a move or a plan by the season ahead', () => {
    expect(x("we're moving to portugal next spring!").memories?.[0]).toMatchObject({
      event: 'is moving to portugal',
      date: '2025-03-01',
    })
    expect(x('planning a trip to japan this summer').memories?.[0]?.date).toBe('2025-06-01')
    expect(x('we are moving to denver').memories?.[0]?.date).toBe('2024-06-15')
  })

  it('reads a team supported in lower case, a game played for a while, a field of work and a night job', () => {
    expect(interests('huge arsenal supporter since i was a kid')).toEqual(['sports: Arsenal'])
    expect(interests('diehard Yankees fan lol')).toEqual(['sports: Yankees'])
    expect(interests('been playing elden ring nonstop this week lol')).toEqual(['hobbies: elden ring'])
    expect(core('hey so i do data entry all day and my eyes are killing me')?.occupation?.value).toBe(
      'works in data entry',
    )
    expect(core('i do hvac')?.occupation?.value).toBe('works in HVAC')
    expect(core('i do the dishes every night')?.occupation).toBeUndefined()
    const nights = core('i work nights at a hospital in manchester so sleep is a mess')
    expect(nights?.location?.value).toBe('Manchester')
    expect(nights?.occupation?.value).toBe('works at a hospital')
  })

  it('takes no trait from a job and no question as more of the person', () => {
    const social = x("sorry, long day. i'm a social worker and the caseload is insane")
    expect(social.core_info?.occupation?.value).toBe('social worker')
    expect(social.personality?.traits ?? []).toEqual([])
    expect(x('i am a shy person').personality?.traits?.map((t) => t.value)).toEqual(['shy'])
    expect(events('quick q - im a single dad of two girls, 6 and 9, what are good chore charts')).not.toContain(
      'is what are good chore charts',
    )
  })

  it('reads a bio opened with pronouns, a taste said as a kind of person and a class taken', () => {
    const bio = x('she/her, 31, nurse')
    expect(bio.core_info?.age?.value).toBe(31)
    expect(bio.core_info?.occupation?.value).toBe('nurse')
    expect(bio.memories?.map((m) => m.event)).toEqual(['uses she/her pronouns'])
    expect(interests("my buddy lives in austin and loves bbq, i'm more of a sushi guy")).toEqual(['food: sushi'])
    expect(interests('i am more of a beach person')).toEqual(['travel: beach'])
    // a kind of person no lexicon knows says how, not what
    expect(interests("i'm a morning person")).toEqual([])
    expect(interests("i'm a people person")).toEqual([])
    expect(interests("i'm doing a pottery class on tuesdays")).toEqual(['hobbies: pottery'])
    expect(interests('i joined a boxing class')).toEqual(['sports: boxing'])
    expect(interests("i'm taking a math class")).toEqual([])
    expect(interests("can't beat a plate of tacos")).toEqual(['food: tacos'])
    expect(interests("you can't beat the price")).toEqual([])
  })

  it('reads jobs from a ward, a class taught and a field of work, and a bad week as a mood', () => {
    expect(core('back on the night shift in the ICU again, coffee is my lifeline')?.occupation?.value).toBe('nurse')
    expect(core('my 3rd graders were absolute chaos today lol')?.occupation?.value).toBe('teacher')
    expect(x('ugh this week has been a nightmare').personality?.mood?.value).toBe('frustrated')
    expect(x('today was rough').personality?.mood?.value).toBe('frustrated')
    expect(x('the movie was a nightmare').personality?.mood).toBeUndefined()
  })

  it('reads where a move went, a baby on the way, a marriage counted and a proposal planned', () => {
    expect(core('went from phoenix to seattle last year for my wife’s job')?.location?.value).toBe('Seattle')
    expect(core('i went from 200 pounds to 160')?.location).toBeUndefined()
    expect(core('we went from paris to rome on vacation')?.location).toBeUndefined()
    expect(x('moving back to dublin after 6 years in london').memories?.[0]?.event).toBe('is moving back to dublin')
    expect(x("we just found out we're having a girl!!").memories?.[0]).toMatchObject({
      event: 'is expecting a girl',
      importance: 'high',
    })
    expect(events('we are having a party')).toEqual([])
    expect(events('been married 10 years')).toEqual(['has been married 10 years'])
    expect(events('we have lived here for two decades')).toEqual(['has lived here for two decades'])
    expect(x('planning to propose to my girlfriend at christmas').memories?.[0]).toMatchObject({
      event: 'is planning to propose to their girlfriend at christmas',
      date: '2024-12-25',
      importance: 'high',
    })
    expect(events('i will show you tomorrow')).toEqual([])
  })

  it('dates nothing by how long something lasted', () => {
    // "after 40 years" is how long, not 40 years from now
    expect(x('my dad just retired after 40 years at the post office').memories?.[0]).toEqual({
      event: 'their dad retired after 40 years at the post office',
      importance: 'high',
      confidence: 0.85,
    })
  })

  it('reads an age by its decade, a job said as a gerund, a home moved into, an aim and an acceptance', () => {
    expect(core("i'm in my mid 30s")?.age).toEqual({ value: 35, confidence: 0.5 })
    const bio = core('mid 30s, engineer, living in the bay area')
    expect(bio?.age?.value).toBe(35)
    expect(bio?.occupation?.value).toBe('engineer')
    expect(core('late 20s, nurse')?.age?.value).toBe(28)
    expect(core('in my forties and just started running')?.age?.value).toBe(45)
    // a decade of music or of a childhood is no age; a number said is surer than a decade
    expect(core('i love 80s music')?.age).toBeUndefined()
    expect(core('90s kid here')?.age).toBeUndefined()
    expect(core('i am 34')?.age).toEqual({ value: 34, confidence: 0.9 })
    expect(core('lost my job at the bank in march, been freelancing since')?.occupation?.value).toBe('freelancer')
    expect(core("i've been tutoring kids for years")?.occupation?.value).toBe('tutor')
    expect(core('i am coaching my son’s team')?.occupation).toBeUndefined()
    expect(core('my bf and i just moved in together in a tiny flat in leeds')?.location?.value).toBe('Leeds')
    expect(core('we moved in together')?.location).toBeUndefined()
    expect(events("i'm trying to lose 30 pounds before my wedding")).toEqual(['is trying to lose 30 pounds'])
    expect(events('i am trying to figure it out')).toEqual([])
    expect(x('i got accepted to nursing school!!!').memories?.[0]?.importance).toBe('high')
  })

  it('reads a field studied as the student of it, and where a school is', () => {
    expect(core("I'm studying computational biology btw")?.occupation?.value).toBe('computational biology student')
    expect(core("i'm majoring in biology")?.occupation?.value).toBe('biology student')
    // a language, an exam, a stay abroad or a pronoun is no field of study
    for (const said of [
      'i am studying spanish',
      "i'm studying for my exams",
      'i am studying abroad in spain',
      'i am studying them',
      'i am studying french next',
    ])
      expect(core(said)?.occupation, said).toBeUndefined()
    expect(values(x("i'm studying for my exams"))).toEqual([])
    const grad = core('I just started grad school in Toronto')
    expect(grad?.occupation?.value).toBe('graduate student')
    expect(grad?.location?.value).toBe('Toronto')
    expect(core('i go to uni in manchester')?.location?.value).toBe('Manchester')
    expect(core('i went to college in boston')?.location).toBeUndefined()
    expect(core('i started college in 2010')?.occupation).toBeUndefined()
  })

  it('reads a title praised as what it is, and takes neither its name nor a reported "he" as the person', () => {
    const show = x('ted lasso is such a good show, roy kent is a legend')
    expect(show.core_info?.name).toBeUndefined()
    expect(show.personality?.mood).toBeUndefined()
    expect(show.interests?.movies_tv?.map((i) => i.value)).toEqual(['Ted Lasso'])
    expect(x('Ted Lasso is such a good show').core_info?.name).toBeUndefined()
    expect(x('dune is an amazing book').interests?.books?.map((i) => i.value)).toEqual(['Dune'])
    expect(values(x('this is such a good show'))).toEqual([])
    expect(x("he said he's moving to london next month").core_info).toBeUndefined()
    // a bio in the third person still reads as the person's
    const bio = x('He is a 40 year old pilot. He said he loves flying.').core_info
    expect(bio?.gender?.value).toBe('male')
    expect(bio?.occupation?.value).toBe('pilot')
    expect(x('Maria is a nurse from Lisbon. She loves jazz.').core_info?.name?.value).toBe('Maria')
  })

  it('reads a name said with "it\'s", a job got, honesty asked for, and no fragment of a reason or an "ugh"', () => {
    const update = x('hey its Maya again, quick update: i got the job!!! starting at the hospital monday')
    expect(update.core_info?.name?.value).toBe('Maya')
    expect(update.memories?.map((m) => [m.event, m.importance])).toContainEqual(['got the job', 'high'])
    expect(core("hi, it's sarah")?.name?.value).toBe('Sarah')
    // a name only as the message opens, written as one when no list knows it; no weather, day or mood
    for (const said of ["who is your favorite? it's sarah", 'it is cold here', "it's chaos here", "It's Tuesday again"])
      expect(core(said)?.name, said).toBeUndefined()
    expect(x('please be brutally honest with me').preferences?.conversation_style?.value).toBe('direct')
    expect(events("i'm learning korean because of kdramas")).toEqual(['is learning Korean'])
    expect(events('i just turned 40 last week ugh')).toEqual(['turned 40'])
  })

  it('reads the sport of a league or a team joined, children counted with their ages, and a move out', () => {
    expect(interests('i play in a rec volleyball league on thursdays')).toEqual(['sports: volleyball'])
    expect(interests("i'm on a bowling team")).toEqual(['sports: bowling'])
    expect(interests("i'm on the company team")).toEqual([])
    expect(events('yep two boys, 5 and 8. the older one is obsessed with pokemon')).toEqual(['has two boys'])
    expect(events('two kids, ages 4 and 7')).toEqual(['has two kids'])
    // what others do that the person hates or loves; not the talk's "you", nor the weather
    expect(events('i hate when people chew loudly')).toEqual(['hates it when people chew loudly'])
    expect(events("i can't stand it when drivers don't signal")).toEqual(['cannot stand it when drivers do not signal'])
    expect(events('i love it when you explain things simply')).toEqual([])
    expect(events('i hate when it rains')).toEqual([])
    expect(x("i'm moving out of my parents house next month finally").memories?.[0]).toMatchObject({
      event: 'is moving out of their parents house',
      date: '2024-07-01',
      importance: 'high',
    })
  })

  it('reads clinicians, orientations, supporters and pets in linear time', () => {
    expectLinear(
      `my doctor says i have ${'adhd, '.repeat(10_000)}`,
      `i am bi ${'btw '.repeat(10_000)}!`,
      `i am a huge ${'arsenal supporter since '.repeat(10_000)}!`,
      `my cat ${'luna '.repeat(10_000)}died`,
      `i do ${'data entry '.repeat(10_000)}`,
      `i am more of a ${'sushi '.repeat(10_000)}guy`,
      `i am doing a ${'pottery '.repeat(10_000)}class`,
      `we went from ${'phoenix '.repeat(10_000)}to seattle`,
      `planning to propose ${'at christmas '.repeat(10_000)}`,
      `i am in my ${'mid '.repeat(10_000)}30s`,
      `we moved into a ${'tiny '.repeat(10_000)}flat in leeds`,
      `i have been ${'really '.repeat(10_000)}freelancing`,
      `i am studying ${'biology and '.repeat(10_000)}`,
      `i go to college in ${'new '.repeat(10_000)}york`,
      `${'ted '.repeat(10_000)}is such a good show`,
      `ted lasso is ${'such a '.repeat(10_000)}good show`,
      `hey ${'its '.repeat(10_000)}Maya again`,
      `turned 40 ${'ugh '.repeat(10_000)}`,
      `i play in a ${'rec '.repeat(10_000)}volleyball league`,
      `two boys, ${'5, '.repeat(10_000)}and 8`,
      `i hate when ${'people '.repeat(10_000)}chew`,
    )
  })
})

describe('jobs and pastimes said in passing', () => {
  it('reads a job retired from, a past job, and two jobs held at once', () => {
    expect(job('i retired two years ago as a nurse')).toBe('retired nurse')
    expect(job('just retired last month. i was a mail carrier for 30 years')).toBe('retired mail carrier')
    expect(job('i was a nurse before the kids came')).toBe('former nurse')
    expect(job('i was a college student back then')).toBeUndefined()
    expect(job('i am a barista and cashier')).toBe('barista and cashier')
  })

  it('reads a workplace, a job after "and", a living and a job without its article', () => {
    expect(job('i am in the military')).toBe('military')
    expect(job('i am in the navy')).toBe('military (navy)')
    expect(job('my job at the library keeps me busy')).toBe('works at the library')
    expect(job('i work with my dad on the farm')).toBe('works on a farm')
    expect(job('i work on weekends')).toBeUndefined()
    expect(job('i finished college and am a plumber now')).toBe('plumber')
    expect(job('earn a living as a translator')).toBe('translator')
    expect(job('i am pharmacist, 40 years old')).toBe('pharmacist')
    expect(job('i am fine')).toBeUndefined()
    expect(job('i am just a girl who works at a bakery')).toBe('works at a bakery')
    expect(job('i recently started working at a pharmacy')).toBe('works at a pharmacy')
  })

  it('reads a player as a pastime, a job ahead as an aspiration, and a sport played for pay', () => {
    const hockey = x('i am a hockey player')
    expect(hockey.core_info?.occupation).toBeUndefined()
    expect(hockey.interests?.sports?.map((i) => i.value)).toEqual(['hockey'])
    expect(values(x('i am a team player'))).toEqual([])
    expect(job('after college i will be an accountant')).toBe('aspiring accountant')
    const golf = x('i play golf professionally')
    expect(golf.core_info?.occupation?.value).toBe('professional golf player')
    expect(values(golf)).toContain('golf')
    const trainer = x('i am a martial arts instructor')
    expect(trainer.core_info?.occupation?.value).toBe('martial arts instructor')
    expect(values(trainer)).toEqual(['martial arts'])
  })

  it('reads a pastime gone to, under way, practised or named beside another', () => {
    expect(values(x('we enjoy camping'))).toEqual(['camping'])
    expect(x('we could go fishing next weekend').interests?.hobbies).toEqual([{ value: 'fishing', confidence: 0.6 }])
    expect(values(x('i am knitting on the couch tonight'))).toEqual(['knitting'])
    expect(values(x('i am running late'))).toEqual([])
    expect(values(x('i am cooking dinner'))).toEqual([])
    expect(values(x('my tennis lessons got cancelled'))).toEqual(['tennis'])
    expect(values(x('back from my morning 5 mile run'))).toEqual(['running'])
    expect(values(x('besides swimming i do yoga'))).toEqual(expect.arrayContaining(['swimming', 'yoga']))
    expect(values(x('i stay busy by volunteering'))).toEqual(['volunteering'])
    expect(values(x('i am not going fishing'))).toEqual([])
  })

  it('reads foods said with an adverb, a measure, a weakness or no "i"', () => {
    expect(values(x('i secretly love karaoke'))).toEqual(['karaoke'])
    expect(values(x('my favorite is sushi'))).toEqual(['sushi'])
    expect(values(x('i have a huge weakness for donuts'))).toEqual(['donuts'])
    expect(values(x('just sipping coffee'))).toEqual(['coffee'])
    expect(values(x('i like a cup of tea in the morning'))).toEqual(['tea'])
    expect(values(x('i am always eating cereal'))).toEqual(['cereal'])
    expect(values(x('i can eat sushi every day'))).toEqual(['sushi'])
    expect(values(x('all i ever eat is tacos and nachos'))).toEqual(['tacos', 'nachos'])
    expect(values(x('do you like jazz? because i love it!'))).toEqual(['jazz'])
    expect(values(x('i can only eat halal'))).toEqual(['halal'])
    expect(values(x('my dad and eating disorders'))).toEqual([])
  })

  it('reads a place after an answer\'s "no" and a place new to the person', () => {
    expect(x('no i live in denver how about you').core_info?.location?.value).toBe('Denver')
    expect(x('i am new to boston').core_info?.location?.value).toBe('Boston')
    expect(x('i am new to this').core_info?.location).toBeUndefined()
  })

  it('reads jobs, pastimes and adverbs in linear time', () => {
    expectLinear(
      `i am a ${'nurse and '.repeat(10_000)}cashier`,
      `i have been ${'truly '.repeat(10_000)}baking`,
      `my ${'daily '.repeat(10_000)}walk`,
      `we could go ${'out '.repeat(10_000)}fishing`,
      `i am ${'bird '.repeat(10_000)}watching`,
      `i retired ${'a year ago '.repeat(10_000)}as a nurse`,
      `i work with my ${'dad '.repeat(10_000)}on the farm`,
      `my job at the ${'big '.repeat(10_000)}bank`,
      `no ${'no '.repeat(10_000)}i live in denver how about you`,
      `just sipping ${'a cup of '.repeat(10_000)}tea`,
    )
  })
})

describe('fears, pets and music said in chat', () => {
  const avoid = (data: string) => (x(data).preferences?.topics_to_avoid ?? []).map((t) => t.value)

  it('reads what scares or sickens the person as a topic to avoid, weakly', () => {
    expect(x('snakes scare me').preferences?.topics_to_avoid).toEqual([{ value: 'snakes', confidence: 0.5 }])
    expect(avoid('needles freak me out')).toEqual(['needles'])
    expect(avoid('i have a real phobia of bridges')).toEqual(['bridges'])
    expect(avoid('dreading the family reunion')).toEqual(['family reunion'])
    expect(avoid('when i see needles i faint')).toEqual(['needles'])
    expect(avoid('i do not do well with heights, crowds, etc')).toEqual(['heights', 'crowds'])
    expect(avoid('orange is one color i do not like')).toEqual(['orange'])
    expect(avoid('we both hate mosquitoes')).toEqual(['mosquitoes'])
    expect(avoid('it scares me')).toEqual([])
    expect(avoid('i hated being a nurse blood makes me faint')).toEqual([])
  })

  it('reads a trait said as a noun after a degree, and a field worked in online', () => {
    expect(x('i am a proud nerd').personality?.traits?.map((t) => t.value)).toEqual(['nerd'])
    expect(x('i am a big kid').personality?.traits).toBeUndefined()
    expect(x('i work remotely in customer service').core_info?.occupation?.value).toBe('works in customer service')
  })

  it('reads pets counted with digits, named as "my pet is", or answering the person’s own question', () => {
    expect(values(x('just me and my 3 dogs'))).toEqual(['dog'])
    expect(values(x('my only pet is a goat'))).toEqual(['goat'])
    expect(values(x('i have a few hamsters'))).toEqual(['hamster'])
    expect(values(x('do you like cats? i have two.'))).toEqual(['cat'])
    expect(values(x('do you have pets? mine is a parrot'))).toEqual(['parrot'])
    expect(values(x('i have a pet though'))).toEqual([])
    expect(values(x('i have a pet iguana'))).toEqual(['iguana'])
  })

  it('reads music listened to without "i" or after "to", and a band seen in concert', () => {
    expect(values(x('just sat down to listen to some jazz'))).toEqual([])
    expect(values(x('i sat down to listen to some jazz'))).toEqual(['jazz'])
    expect(values(x('listening to jazz'))).toEqual(['jazz'])
    expect(x('getting ready to see Coldplay in concert').interests?.music?.map((i) => i.value)).toEqual(['Coldplay'])
  })

  it('reads fears, pets and music in linear time', () => {
    expectLinear(
      `${'big '.repeat(10_000)}dogs scare me`,
      `when i see ${'big '.repeat(10_000)}dogs i faint`,
      `${'orange '.repeat(10_000)}is one color i do not like`,
      `i have a phobia of ${'dark '.repeat(10_000)}`,
      `my only pet is a ${'tiny '.repeat(10_000)}goat`,
      `i ${'sat '.repeat(10_000)}to listen to jazz`,
      `i am a ${'proud '.repeat(10_000)}nerd`,
    )
  })
})

describe('hobbies named in a list, dogs walked, and jobs with their workplace', () => {
  it('reads hobbies named as such, a pastime praised, a dog walked as a habit and a skill learned', () => {
    expect(values(x('i have other hobbies like knitting'))).toEqual(['knitting'])
    expect(values(x('board games are the best'))).toEqual(['board games'])
    expect(values(x('my kids are the best'))).toEqual([])
    expect(values(x('i take my dog for walks every evening'))).toEqual(expect.arrayContaining(['walking the dog']))
    expect(values(x('i was out walking my dog'))).not.toContain('walking the dog')
    expect(values(x('i learned to surf in hawaii'))).toEqual(['surfing'])
    expect(values(x('i spend all my time gardening'))).toEqual(['gardening'])
    // a second verb of liking names what it likes, not a value "love board games"
    expect(values(x('i am addicted to the internet and love board games'))).toEqual(['internet', 'board games'])
  })

  it('reads a job become, taught, worked as, held at a workplace or started with one', () => {
    expect(job('i finally became a dental hygienist')).toBe('dental hygienist')
    expect(job('i am retired and used to teach math')).toBe('retired math teacher')
    expect(job('i used to teach')).toBe('former teacher')
    expect(job('i live in ohio working as a paramedic')).toBe('paramedic')
    expect(job('i am a cashier at my corner store')).toBe('cashier at a corner store')
    expect(job('i am a nurse at a clinic')).toBe('nurse')
    expect(job('heading to my job at walmart')).toBe('works at walmart')
    expect(job('i love my job at home')).toBeUndefined()
    expect(job('i just started a job with the city library')).toBe('works at city library')
  })

  it('reads an age after a question run on, as a described person, by "the age of" and by years lived', () => {
    const age = (data: string) => x(data).core_info?.age?.value
    expect(age('how old are you i am 27')).toBe(27)
    expect(age('as a 52 year old welder i get it')).toBe(52)
    expect(age('i am around the age of 15')).toBe(15)
    expect(x('i have lived for 90 years').core_info?.age).toMatchObject({ value: 90, confidence: 0.6 })
    expect(age('healthy for a 40 year old')).toBeUndefined()
  })

  it('reads hobby lists, dog walks and workplaces in linear time', () => {
    expectLinear(
      `i have other hobbies like ${'knitting and '.repeat(10_000)}`,
      `i take my ${'dog '.repeat(10_000)}for walks`,
      `i am a cashier at my ${'corner '.repeat(10_000)}store`,
      `i ${'live '.repeat(10_000)}working as a paramedic`,
      `i am retired and used to teach ${'math '.repeat(10_000)}`,
      `how ${'old '.repeat(10_000)}are you i am 27`,
      `as a ${'52 '.repeat(10_000)}year old welder`,
    )
  })
})

describe('pastimes by verbs of two words, foods had, roles spoken from and things dismissed', () => {
  const avoided = (data: string) => (x(data).preferences?.topics_to_avoid ?? []).map((t) => t.value)
  const foods = (data: string) => (x(data).interests?.food ?? []).map((f) => f.value)

  it('reads a pastime said by a verb of two words, whatever follows it, but no commute', () => {
    expect(values(x('i work out every day'))).toEqual(['working out'])
    expect(values(x('i do work out multiple times a week'))).toEqual(['working out'])
    expect(values(x('i ride horses on weekends'))).toEqual(['horseback riding'])
    expect(values(x('i bird watch every weekend'))).toEqual(['bird watching'])
    expect(values(x('i ride my bike to work'))).toEqual([])
    expect(values(x('i work out of my house'))).toEqual([])
    expect(values(x('i take landscape photography'))).toEqual(['photography'])
  })

  it('reads what is loved most and a favorite named in an aside', () => {
    expect(values(x('wow the thing i love most is skateboarding'))).toEqual(['skateboarding'])
    expect(values(x('i am helping her paint her kitchen red, my favorite color'))).toEqual(['red'])
    expect(values(x('i am painting my house blue my fav color'))).toEqual(['blue'])
    // the words before the aside are no favorite the lexicons know
    expect(values(x('we had pizza last night, my favorite food'))).not.toContain('last night')
    expect(values(x('what i love most is my family'))).toEqual([])
  })

  it('reads a known food had now or lately, but no meal and nothing else had', () => {
    expect(foods('i am doing ok drinking some coffee')).toEqual(['coffee'])
    expect(foods('just having a cup of coffee getting ready for work')).toEqual(['coffee'])
    expect(foods('i have eaten a dozen donuts before noon')).toEqual(['donuts'])
    expect(foods('having a few beers tonight')).toEqual(['beers'])
    expect(foods('i ate dinner with my mom')).toEqual([])
    expect(foods('i had a bad day')).toEqual([])
    expect(foods('i did not eat pizza')).toEqual([])
  })

  it('reads a job the person speaks as, goes to, finished or works at in passing', () => {
    expect(job('being a doctor it is hard to get time off')).toBe('doctor')
    expect(job('i do enjoy it, as a bee farmer')).toBe('bee farmer')
    expect(job('i taught a few players being an elementary school teacher')).toBe('elementary school teacher')
    expect(job('as a kid i loved horses')).toBeUndefined()
    expect(job('i like him as a teacher')).toBeUndefined()
    expect(job('my son being a doctor, he is busy')).toBeUndefined()
    expect(job('i have a few minutes until i go to work at the supermarket')).toBe('works at the supermarket')
    expect(job('just finished working in the supermarket')).toBe('works in the supermarket')
    expect(job('between work at the bank and the kids i am exhausted')).toBe('works at the bank')
    expect(job('i am 68, been retired for a few years now')).toBe('retired')
    expect(job('being retired i head south during the winter')).toBe('retired')
  })

  it('reads a trait measured against others, things dismissed and a fear said as "my fear"', () => {
    expect(x('i am strong for my age').personality?.traits?.map((t) => t.value)).toEqual(['strong'])
    expect(x('i am a strong feminist').personality?.traits?.map((t) => t.value)).toEqual(['feminist'])
    expect(avoided('i think fashion is dumb')).toEqual(['fashion'])
    expect(avoided('soccer is so overrated')).toEqual(['soccer'])
    expect(avoided('the ending is dumb')).toEqual([])
    expect(avoided('i dropped out due to my fear of blood')).toEqual(['blood'])
  })

  it("reads a short answer that points back at the person's own question", () => {
    expect(avoided('do you like clowns? they horrify me')).toEqual(['clowns'])
    expect(avoided('do you like spiders? they freak me out')).toEqual(['spiders'])
    expect(avoided('do you like dogs? it depends on me')).toEqual([])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i work out ${'every '.repeat(10_000)}day`,
      `the thing i love most is ${'very '.repeat(10_000)}`,
      `i painted ${'the '.repeat(10_000)}house red, my favorite color`,
      `${'just '.repeat(10_000)}having a cup of coffee`,
      `i ${'really '.repeat(10_000)}had pizza`,
      `i ${'go '.repeat(10_000)}being a doctor`,
      `i ${'do '.repeat(10_000)}, as a bee farmer`,
      `${'fashion '.repeat(10_000)}is dumb`,
      `do you like clowns? they ${'really '.repeat(10_000)}horrify me`,
      `i have a few minutes until i go to work at the ${'big '.repeat(10_000)}supermarket`,
    )
  })
})

describe('pastimes come back from, likes said of who one is, and names that are no bio', () => {
  it('reads a pastime come back from, gone to, a class of it, or under way in the past tense', () => {
    expect(values(x('i am good. just came back from mountain biking.'))).toEqual(['mountain biking'])
    expect(values(x('i just got in from walking my dog'))).toContain('walking the dog')
    expect(values(x('i got home from shopping'))).toEqual([])
    expect(values(x('i got back from work'))).toEqual([])
    expect(values(x('i am getting ready to go mountain biking'))).toEqual(['mountain biking'])
    expect(values(x('just taking a break after my dance class'))).toEqual(['dancing'])
    expect(values(x('i was just reading'))).toEqual(['reading'])
  })

  it('reads a like said of who the person is, partying, a dog walk liked and a rhetorical question', () => {
    expect(values(x('i am an american chef that also loves fishing'))).toEqual(['fishing'])
    expect(values(x('i party a lot'))).toEqual(['partying'])
    expect(values(x('i enjoy walking my dog'))).toContain('walking the dog')
    expect(values(x("who doesn't love cheeseburgers?"))).toEqual(['cheeseburgers'])
    expect(values(x('who does not love you?'))).toEqual([])
  })

  it('takes no name from a sound of feeling or from whom the text speaks to, and reads a bio said as a list', () => {
    expect(x('Ew, dogs! Do not like them').core_info?.name).toBeUndefined()
    expect(x('Ugh, Mondays are the worst').core_info?.name).toBeUndefined()
    expect(x('Maria, you are great').core_info?.name).toBeUndefined()
    expect(x('Tom, how was the trip?').core_info?.name).toBeUndefined()
    expect(x('Maria, 34, nurse from Lisbon').core_info).toMatchObject({
      name: { value: 'Maria' },
      age: { value: 34 },
      occupation: { value: 'nurse' },
      location: { value: 'Lisbon' },
    })
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `just came back from ${'long '.repeat(10_000)}biking`,
      `i got back from ${'walking '.repeat(10_000)}my dog`,
      `i am an american ${'chef '.repeat(10_000)}that loves fishing`,
      `who does not love ${'big '.repeat(10_000)}cheeseburgers?`,
      `Maria, ${'34, '.repeat(10_000)}nurse`,
    )
  })
})

describe('a stressed "do", pastimes of a noun and a verb, loves of a life and a career', () => {
  it('reads no pastime from a "do" that stresses the verb after it', () => {
    expect(values(x('i do wear western clothes'))).toEqual([])
    expect(values(x('i do yoga'))).toEqual(['yoga'])
    expect(values(x('i do volunteer work'))).toEqual(['volunteering'])
    expect(values(x('and i also do gymnastics it is my fave'))).toEqual(['gymnastics'])
    expect(values(x('i do follow football'))).toEqual(['football'])
    expect(values(x('i follow her on instagram'))).toEqual([])
  })

  it('reads a pastime of a noun and a verb, the loves of a life and a job named by its career', () => {
    expect(values(x('i rock climb in a place not too far from denver'))).toEqual(['rock climbing'])
    expect(values(x('i scuba dive every summer'))).toEqual(['scuba diving'])
    expect(values(x('i often watch tv'))).toEqual(['tv'])
    expect(values(x('my wife, my dogs and my baking are the loves of my life'))).toContain('baking')
    expect(values(x('my wife is the love of my life'))).toEqual([])
    expect(job('need to stay fit for my professional wrestler career')).toBe('professional wrestler')
    expect(job('my acting career is over')).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i do ${'wear '.repeat(10_000)}clothes`,
      `i ${'rock '.repeat(10_000)}climb`,
      `${'my baking, '.repeat(5_000)}are the loves of my life`,
      `my ${'professional '.repeat(10_000)}wrestler career`,
      `and i also do ${'gymnastics '.repeat(10_000)}it is my fave`,
    )
  })
})

describe('places holidayed at, concerts without an article, the best of a kind and "X is mine"', () => {
  it('reads a place holidayed at and a performer of concerts gone to', () => {
    expect(values(x('i vacation at the beach once a year'))).toEqual(['beach'])
    expect(values(x('we summer in maine'))).toEqual(['Maine'])
    expect(values(x('i never seen it been busy going to the rolling stones concert'))).toEqual(['rolling stones'])
    expect(values(x('i am going to concerts'))).toEqual([])
  })

  it('reads a favorite said as the best of its kind, or as "X is mine" after the person\'s own question', () => {
    expect(values(x('i think the best movie is mean girls'))).toEqual(['mean girls'])
    expect(values(x('the best food is pizza'))).toEqual(['pizza'])
    expect(values(x('the best part is the end'))).toEqual([])
    // a pet's word after a first name names a character
    expect(x('i love mickey mouse').interests).toEqual({ movies_tv: [{ value: 'Mickey Mouse', confidence: 0.9 }] })
    expect(values(x('what is your favorite movie? friday is mine'))).toEqual(['friday'])
    expect(values(x('what is your favorite food? pizza is mine'))).toEqual(['pizza'])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i vacation at the ${'big '.repeat(10_000)}beach`,
      `i ${'really '.repeat(10_000)}going to the rolling stones concert`,
      `the best movie is ${'mean '.repeat(10_000)}girls`,
      `what is your favorite movie? ${'friday '.repeat(10_000)}is mine`,
    )
  })
})

describe('a pastime said first, a named practice or passion, and a style asked for', () => {
  it('reads a pastime said before "is something i enjoy", and none of a pronoun or someone\'s thing', () => {
    expect(values(x('walking is something i enjoy'))).toEqual(['walking'])
    expect(values(x('reading is what i love'))).toEqual(['reading'])
    expect(values(x('surfing is something i really enjoy'))).toEqual(['surfing'])
    expect(values(x('that is something i love'))).toEqual([])
    expect(values(x('his music is something i love'))).toEqual([])
    expect(values(x('your pizza is something i love'))).toEqual([])
    expect(values(x('my job is something i enjoy'))).toEqual([])
    expect(values(x('cooking is not something i enjoy'))).toEqual([])
  })

  it("reads a pastime named by its lessons or passion, and none of a relative's", () => {
    expect(values(x('i would rather stick to my knitting passion'))).toEqual(['knitting'])
    expect(values(x('i am going to my salsa dance lessons'))).toEqual(['dancing'])
    expect(values(x('my fantasy football league starts today'))).toEqual(['football'])
    expect(values(x('not unless you consider my kids soccer league to be professional'))).toEqual([])
    expect(values(x('my chess club meets today'))).toEqual([])
  })

  it('reads a job said first or named by its salary or uniform, and a retirement long ago', () => {
    expect(job('chef is my job and you ?')).toBe('chef')
    expect(job('sleeping is my job')).toBeUndefined()
    expect(job('my electrician salary could not afford all that')).toBe('electrician')
    expect(job('i do not miss my nurse salary')).toBeUndefined()
    expect(job('my driver license expired')).toBeUndefined()
    expect(job('i retired a long time ago')).toBe('retired')
    expect(job('i retired a long sword')).toBeUndefined()
  })

  it("reads the answer to the person's own question written with no question mark", () => {
    expect(values(x('what is your favorite drink mine is fancy tea'))).toEqual(['tea'])
    expect(values(x('what is your job mine is boring'))).toEqual([])
  })

  it('splits a statement run on after one that opens with "i do", "i go" or "i want"', () => {
    expect(job('i do not want to go back to work i am a waitress')).toBe('waitress')
    expect(values(x('i am a rolling stones fan i go to a concert yearly'))).toContain('rolling stones')
    expect(values(x('the place i go to is nice'))).toEqual([])
  })

  it('reads an outing gone on, and none for a drink or with the dog', () => {
    expect(values(x('i go to church every week and go for long hikes'))).toEqual(['hiking'])
    expect(values(x('i went for a run today'))).toEqual(['running'])
    expect(values(x('i go for a drink'))).toEqual([])
    expect(values(x('i do not go for walks'))).toEqual([])
    expect(values(x('i go for walks with my dog'))).not.toContain('walking')
  })

  it('reads a favorite that points back at the subject of the clause before', () => {
    const said = 'hamburgers and french fries will not help me to live that long, but they are my fav foods'
    expect(values(x(said))).toEqual(['hamburgers', 'french fries'])
    expect(values(x('pizza is bad for you but it is my favorite'))).toEqual(['pizza'])
    expect(values(x('my sister is a nurse but she is my favorite'))).toEqual([])
    expect(values(x('it is cold but it is my favorite'))).toEqual([])
  })

  it('reads a pastime of a noun and a verb after "to"', () => {
    expect(values(x('wow i love to rock climb'))).toEqual(['rock climbing'])
    expect(values(x('i like to scuba dive'))).toEqual(['scuba diving'])
    expect(values(x('i like to dance'))).toEqual(['dancing'])
  })

  it('reads a formal style only when it is asked for', () => {
    const style = (data: string) => x(data).preferences?.conversation_style?.value
    expect(style('please be professional')).toBe('formal')
    expect(style('just be more formal with me')).toBe('formal')
    expect(style('you consider my league to be professional')).toBeUndefined()
    expect(style('i want to be professional')).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `${'walking '.repeat(10_000)}is something i enjoy`,
      `walking is something i ${'really '.repeat(10_000)}enjoy`,
      `my ${'salsa '.repeat(10_000)}dance lessons`,
      `${'please '.repeat(10_000)}be professional`,
      `${'chef '.repeat(10_000)}is my job`,
      `what is your favorite ${'drink '.repeat(10_000)}mine is tea`,
      `i do not ${'want '.repeat(10_000)}i am a waitress`,
      `i go ${'fan i go to '.repeat(3_000)}a concert`,
      `i go for ${'long '.repeat(10_000)}hikes`,
      `${'pizza '.repeat(10_000)}is bad but it is my favorite`,
      `my ${'electrician '.repeat(10_000)}salary could not afford it`,
    )
  })
})

describe('sights watched, gatherings gone to, spans of time spent and counts of pets', () => {
  it('reads a sight watched as a pastime, not a show', () => {
    expect(x('i love watching the sunset').interests).toEqual({
      hobbies: [{ value: 'watching the sunset', confidence: 0.9 }],
    })
    expect(values(x('i like to watch birds'))).toEqual(['bird watching'])
    expect(values(x('i love watching the stars at night'))).toEqual(['stargazing'])
    expect(x('i watch birds with my cat').interests?.pets).toEqual([{ value: 'cat', confidence: 0.7 }])
    expect(x('i love watching movies').interests?.movies_tv?.[0]?.value).toBe('movies')
  })

  it('takes no show from people watched', () => {
    expect(x('i love watching my kids play soccer').interests).toBeUndefined()
    expect(x('i like watching people').interests).toBeUndefined()
  })

  it('reads a gathering gone to by its kind', () => {
    expect(values(x('i like going to car shows'))).toEqual(['car shows'])
    expect(values(x('i love going to live action role playing events'))).toEqual(['live action role playing'])
    expect(x('i love going to hockey games').interests?.sports?.[0]?.value).toBe('hockey')
    expect(values(x('i love going to the store'))).toEqual([])
  })

  it('reads a band seen on stage, and live music', () => {
    expect(x('i saw the who in concert last year').interests?.music?.[0]?.value).toBe('The Who')
    expect(x('i love seeing metallica live').interests?.music?.[0]?.value).toBe('metallica')
    expect(values(x('i love to see bands live'))).toEqual(['live music'])
  })

  it('reads what spans of time are spent doing', () => {
    expect(values(x('i prefer spending my weekends fishing'))).toEqual(['fishing'])
    expect(values(x('i spend my evenings painting'))).toEqual(['painting'])
    expect(values(x('i spend 4 hours working out each day'))).toEqual(['working out'])
    expect(values(x('i spend my weekends with my kids'))).toEqual([])
    expect(values(x('i spend my weekends at work'))).toEqual([])
  })

  it('reads a pastime of the last while said without "i have"', () => {
    expect(values(x('i feel great , just been traveling so much lately .'))).toEqual(['traveling'])
    expect(values(x('my wife has been traveling'))).toEqual([])
  })

  it('reads a pastime said first and loved the most', () => {
    expect(values(x('hiking is what i love best'))).toEqual(['hiking'])
    expect(values(x('my job is what i love most'))).toEqual([])
  })

  it('reads a game whose title starts as a way to be reached', () => {
    expect(values(x('i love call of duty'))).toEqual(['call of duty'])
    expect(values(x('i prefer texts over calls'))).toEqual([])
  })

  it('reads a favorite said of what was asked or said before, in either way of writing it', () => {
    expect(values(x('do you like pizza ? it is my fave'))).toEqual(['pizza'])
    expect(values(x('do you like the beatles ? they are still my favorite band'))).toEqual(['beatles'])
    expect(values(x('tacos are cheap and they are totally my favorite food'))).toEqual(['tacos'])
    expect(values(x('my sister is a nurse but she is my favorite'))).toEqual([])
  })

  it('reads pets counted in tens or more, and keeps the count in the memory', () => {
    expect(x('i have more than ten cats').interests?.pets?.[0]?.value).toBe('cat')
    expect(x('i have less than three dogs').memories?.map((m) => m.event)).toEqual(['has less than three dogs'])
    expect(x('i have a dozen rabbits').interests?.pets?.[0]?.value).toBe('rabbit')
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i love watching ${'the '.repeat(10_000)}sunset`,
      `i love going to ${'car '.repeat(10_000)}shows`,
      `i saw ${'the who '.repeat(5_000)}in concert`,
      `i prefer spending my ${'free '.repeat(10_000)}weekends fishing`,
      `i spend ${'4 '.repeat(10_000)}hours working out`,
      `just ${'been '.repeat(10_000)}traveling`,
      `hiking is what i love ${'the '.repeat(10_000)}most`,
      `i have more than ${'ten '.repeat(10_000)}cats`,
    )
  })
})

describe('jobs taken or just begun, studies for a job, and the US by its short names', () => {
  it('reads a job taken or just begun', () => {
    expect(job('i have taken a second job as a stunt double , it is fun !')).toBe('stunt double')
    expect(job('i took a job as a waiter')).toBe('waiter')
    expect(job('i actually just started as a life coach')).toBe('life coach')
    expect(job('i took a job offer')).toBeUndefined()
    expect(job('i just started as well')).toBeUndefined()
  })

  it('reads the job a school or college is gone to for', () => {
    expect(job('i am going to college to become a physical therapist .')).toBe('student (aspiring physical therapist)')
    expect(job('i am in college to be a vet')).toBe('student (aspiring vet)')
    expect(job('i am going to the store to be a good friend')).toBeUndefined()
  })

  it('reads "the us" and short country names as the country, in capitals', () => {
    expect(place('i am from the us')).toBe('US')
    expect(place('i live in the usa')).toBe('USA')
    expect(place('i am from the u.s.')).toBe('USA')
    expect(place('i moved to the uk')).toBe('UK')
    expect(place('they told us about it')).toBeUndefined()
    expect(place('i am from the us army')).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i have taken a second job as a ${'stunt '.repeat(10_000)}double`,
      `i ${'actually '.repeat(10_000)}just started as a life coach`,
      `i am going to college to become a ${'physical '.repeat(10_000)}therapist`,
      `i am from the ${'us '.repeat(10_000)}`,
    )
  })
})

describe('"a favorite of mine" and an age after words of how', () => {
  it('reads "a favorite of mine" as "my favorite"', () => {
    expect(values(x('better call saul is a favorite of mine as well!'))).toEqual(['better call saul'])
    expect(x('pizza is a favorite of mine too').interests?.food?.[0]?.value).toBe('pizza')
    expect(values(x('she is a favorite of mine'))).toEqual([])
  })

  it('reads an age after up to three words of how, and none of someone else', () => {
    const age = (data: string) => x(data).core_info?.age?.value
    expect(age('i am a pretty average looking 19 year old')).toBe(19)
    expect(age('i am a happy 40 year old mom')).toBe(40)
    expect(age('i am a mother of a 5 year old')).toBeUndefined()
    expect(age('i am the proud mom of a 5 year old')).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `pizza is a ${'real '.repeat(10_000)}favorite of mine`,
      `i am a ${'pretty '.repeat(10_000)}19 year old`,
    )
  })
})

describe('"it" liked after a clause about something done', () => {
  it('reads the pastime the clause before did', () => {
    expect(x('i tried yoga last week. i really liked it').interests?.sports?.[0]?.value).toBe('yoga')
    expect(x('i played tennis yesterday. i enjoyed it').interests?.sports?.[0]?.value).toBe('tennis')
    expect(x('we went to a jazz concert. i loved it').interests?.music?.[0]?.value).toBe('jazz')
    expect(x('i tried sushi for the first time. i really liked it').interests?.food?.[0]?.value).toBe('sushi')
  })

  it('reads nothing of a thing bought, a title, or what someone else did', () => {
    expect(x('i bought a new car. i love it').interests).toBeUndefined()
    expect(x('i watched the office last night. i loved it').interests).toBeUndefined()
    expect(x('my sister does crossfit. she loves it').interests).toBeUndefined()
    expect(x('i tried yoga last week. do you like it?').interests?.sports).toBeUndefined()
    expect(x('i do not like golf. i love it').interests).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i tried ${'yoga '.repeat(10_000)}. i really liked it`,
      `i tried ${'the '.repeat(10_000)}. i really liked it`,
      `i tried yoga. i ${'really '.repeat(10_000)}liked it`,
    )
  })
})

describe('home told by a place taught in, planned to be left, or come back to', () => {
  const place = (data: string) => x(data).core_info?.location
  it('reads where the person teaches, weakly, and not on a trip', () => {
    expect(place('I teach 7th grade science in Austin')).toEqual({ value: 'Austin', confidence: 0.45 })
    expect(place('i teach yoga in the park')).toBeUndefined()
    expect(place('i teach english in japan next month')).toBeUndefined()
  })

  it('reads a place the person plans to leave as home, and not one left', () => {
    expect(place('ugh my landlord raised the rent again, might have to move out of Brooklyn')?.value).toBe('Brooklyn')
    expect(place('i need to move away from leeds')?.value).toBe('Leeds')
    expect(place('i moved out of leeds last year')).toBeUndefined()
    expect(place('my sister wants to move out of boston')).toBeUndefined()
  })

  it('reads a place come back to after a trip', () => {
    expect(place('Back in Denver after two weeks visiting my parents in Ohio')?.value).toBe('Denver')
    expect(place('back in the office after lunch')).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i teach ${'science '.repeat(10_000)}in austin`,
      `might have to move out of ${'brooklyn '.repeat(10_000)}`,
      `back in ${'denver '.repeat(10_000)}after`,
    )
  })
})

describe('feelings of loss and let-down, and steps of a life said in the present', () => {
  it('reads a mood of loss or let-down', () => {
    const mood = (data: string) => x(data).personality?.mood?.value
    expect(mood('my dog passed away yesterday, i am devastated')).toBe('devastated')
    expect(mood('i am so disappointed')).toBe('disappointed')
    expect(mood('i feel hopeless')).toBe('hopeless')
  })

  it('reads a step of a life in the present tense, with when, as under way', () => {
    const dated = (data: string) => x(data).memories?.map((m) => [m.event, m.date, m.importance])
    expect(dated('i start a new job next week')).toEqual([['is starting a new job', '2024-06-22', 'high']])
    expect(events('we move to denver next month')).toEqual(['is moving to denver'])
    expect(events('we close on our first house next week')).toEqual(['is closing on their first house'])
    expect(events('we are buying our first house')).toEqual(['is buying their first house'])
  })

  it('reads no step of a life from a habit or a time of day', () => {
    // a habit is kept as a plain statement of low importance, not as a step of a life
    expect(x('i start work at 9').memories).toEqual([
      { event: 'starts work at 9', importance: 'low', confidence: 0.45 },
    ])
    expect(x('we move a lot').memories).toBeUndefined()
    expect(events('i start my day with coffee')).not.toContain('is starting their day with coffee')
  })

  it('reads these forms in linear time', () => {
    expectLinear(`i start ${'a new job '.repeat(10_000)}next week`, `we close on ${'our '.repeat(10_000)}first house`)
  })
})

describe('a noun that opens a clause like a verb, a thing pointed at, and sounds of hesitation', () => {
  it('reads no liking from "love" that is the subject', () => {
    expect(x('Love and acceptance should be everywhere.').interests).toBeUndefined()
    expect(x('love is all you need').interests).toBeUndefined()
    expect(values(x('love hiking with my dog'))).toContain('hiking')
  })

  it('reads no pastime from one thing pointed at', () => {
    expect(x('That painting is awesome!').interests).toBeUndefined()
    expect(values(x('painting is awesome'))).toEqual(['painting'])
  })

  it('drops "um" and "uh" from what is kept', () => {
    expect(events('I went to a, um, support group thing.')).toEqual(['went to a support group thing'])
    expect(job('i am a uh nurse')).toBe('nurse')
  })

  it('reads these forms in linear time', () => {
    expectLinear(`love and ${'acceptance '.repeat(10_000)}should be`, `i went to a${', um'.repeat(10_000)} group`)
  })
})

describe('a title of capitalised words liked', () => {
  it('keeps every word of a title no lexicon knows', () => {
    expect(values(x('i am obsessed with the Great British Bake Off'))).toEqual(['Great British Bake Off'])
    expect(values(x('I love Better Call Saul'))).toEqual(['Better Call Saul'])
  })

  it('leaves what the lexicons know, and lower case, as before', () => {
    expect(x('i love New York').interests?.travel?.[0]?.value).toBe('New York')
    expect(x('i love the beach').interests?.travel?.[0]?.value).toBe('beach')
    // lower case gives no title: the lexicons read the words
    expect(values(x('i love the great british bake off'))).not.toContain('Great British Bake Off')
  })

  it('reads these forms in linear time', () => {
    expectLinear(`i love the ${'Great '.repeat(10_000)}Bake Off`)
  })
})

describe('"the states", a pastime practised, a kind of person and companions', () => {
  it('reads "the states" as the country, and the place moved to before the one left', () => {
    expect(x('i live in the states').core_info?.location?.value).toBe('US')
    expect(x('i just moved to the states from germany').core_info?.location?.value).toBe('US')
    expect(x('the states of matter are hard').core_info?.location).toBeUndefined()
  })

  it('reads a pastime practised, not a profession or a golf swing', () => {
    expect(values(x('i am practicing my guitar'))).toEqual(['guitar'])
    expect(values(x('I have been practising yoga every day'))).toEqual(['yoga'])
    expect(values(x('this late! i am just practicing my cooking.'))).toEqual(['cooking'])
    for (const said of ['i am practicing law in chicago', 'i am still practicing my swing', 'i practice medicine'])
      expect(x(said).interests, said).toBeUndefined()
  })

  it('reads the pastime that says what kind of person one is, and the one shared with friends', () => {
    expect(values(x('I am a gambling man'))).toEqual(['gambling'])
    expect(values(x('i am more of a hiking kind of person'))).toEqual(['hiking'])
    expect(values(x('my fishing buddy is coming over'))).toEqual(['fishing'])
    for (const said of ['i am a morning person', 'my drinking buddies are loud', 'my best friends are here'])
      expect(x(said).interests, said).toBeUndefined()
  })

  it('reads surfing the web as no water sport', () => {
    expect(x('i surf the internet all day').interests?.hobbies?.[0]?.value).toBe('surfing the internet')
    expect(x('just been surfing the internet').interests?.sports).toBeUndefined()
    expect(values(x('i surf the waves'))).toEqual(['surfing'])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i live in the ${'states '.repeat(10_000)}from germany`,
      `i am practicing my ${'guitar '.repeat(10_000)}`,
      `i am a ${'big '.repeat(10_000)}gambling man`,
      `my ${'fishing '.repeat(10_000)}buddies`,
    )
  })
})

describe('a trade, a workplace said with "my local", ways of eating and a liking narrowed', () => {
  it('reads a business named by its trade as the job, and no pet in it', () => {
    expect(x('i have a dog walking business. do you have pets?').core_info?.occupation?.value).toBe('dog walker')
    expect(x('right on! i own a dog walking service.').interests?.pets).toBeUndefined()
    expect(job('i run a house cleaning business')).toBe('house cleaner')
    expect(job('i have a small catering business')).toBe('catering business owner')
    for (const said of ['i have a business meeting tomorrow', 'i have a bakery near my house'])
      expect(job(said), said).toBeUndefined()
    expect(x('i have a dog grooming business and two cats').interests?.pets?.map((p) => p.value)).toEqual(['cat'])
  })

  it('reads a workplace said with "my local", and time spent working there', () => {
    expect(job('no, i spend all my time working at my local supermarket')).toBe('works at the local supermarket')
    expect(job('i work at my desk')).toBeUndefined()
  })

  it('reads ways of eating as the diet, in the person’s words', () => {
    expect(values(x('kosher is the only way i eat.'))).toEqual(['kosher'])
    expect(values(x('i have been eating healthy ever since i overcame cancer'))).toEqual(['eating healthy'])
    expect(values(x('i try to eat clean'))).toEqual(['eating clean'])
    expect(values(x('i follow a raw diet. do you?'))).toEqual(['raw diet'])
    expect(x('my son eats healthy').interests).toBeUndefined()
  })

  it('reads a food or a drink the person will not go without', () => {
    expect(values(x('gotta have my coffee in the morning'))).toEqual(['coffee'])
    expect(values(x('i can not start my day without my coffee'))).toEqual(['coffee'])
    for (const said of ['i need my car', 'i do not need my coffee', 'i need my coffee table'])
      expect(x(said).interests, said).toBeUndefined()
  })

  it('reads a liking said with "me and my ..." and narrowed in the next sentence', () => {
    expect(values(x('me and my brother love fishing'))).toEqual(['fishing'])
    expect(values(x('i love food. specifically spaghetti.'))).toEqual(['food', 'spaghetti'])
    expect(values(x('i like to run but mostly just do it to get exercise'))).toEqual(['running'])
    expect(values(x('i love it. especially spaghetti'))).toEqual([])
    expect(x('i do not like food. especially spaghetti').interests).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i have a ${'dog '.repeat(10_000)}walking business`,
      `i spend all my time working at my local ${'big '.repeat(10_000)}supermarket`,
      `${'kosher '.repeat(10_000)}is the only way i eat`,
      `gotta have my ${'coffee '.repeat(10_000)}`,
      `i love food. especially ${'spaghetti '.repeat(10_000)}`,
    )
  })
})

describe('adjectives in "-ly", "a bit of a", fillers and "are you X? i am"', () => {
  const mood = (data: string) => x(data).personality?.mood?.value
  const traits = (data: string) => (x(data).personality?.traits ?? []).map((t) => t.value)

  it('reads "lonely", "friendly" and "silly" as what the person is, not as adverbs', () => {
    expect(mood('i am lonely tonight')).toBe('lonely')
    expect(traits('i am pretty lonely though')).toEqual(['lonely'])
    expect(traits('i am very friendly')).toEqual(['friendly'])
    expect(values(x('i really love jazz'))).toEqual(['jazz'])
  })

  it('reads "a bit of a" as a degree, and keeps no memory of a filler', () => {
    expect(traits('well i am a bit of a feminist.')).toEqual(['feminist'])
    expect(events('i am a bit of a perfectionist')).toEqual([])
    expect(mood('i am a bit tired')).toBe('tired')
    for (const said of ['i am for sure', 'i am as well', 'i am definitely']) expect(events(said), said).toEqual([])
  })

  it('reads "i am" after the person’s own "are you ...?" as said of them', () => {
    expect(traits('would you consider yourself a feminist? i am for sure.')).toEqual(['feminist'])
    expect(events('are you married? yes i am')).toEqual(['is married'])
    expect(events('are you going to the party? i am')).toEqual([])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i am ${'lonely '.repeat(10_000)}tonight`,
      `i am a bit of a ${'bit of a '.repeat(10_000)}feminist`,
      `would you consider yourself ${'a '.repeat(10_000)}feminist? i am`,
    )
  })
})

describe('a title after its kind, colors, comparisons and R&B', () => {
  it('reads a title named after its kind in that kind', () => {
    expect(x('i like the movie tangled a lot').interests?.movies_tv?.[0]?.value).toBe('tangled')
    expect(x('i love the band queen').interests?.music?.[0]?.value).toBe('queen')
    expect(values(x('i love the game of thrones'))).not.toContain('of thrones')
    expect(values(x('i like the book club'))).toEqual(['book club'])
  })

  it('keeps no comparison, label or lone letter as an interest', () => {
    expect(values(x('i like cheeseburgers almost as much as you love your dogs!'))).toEqual(['cheeseburgers'])
    expect(values(x('i like the colors red and silver'))).toEqual(['red', 'silver'])
    expect(values(x('i like r and b. how about you?'))).toEqual(['r and b'])
    expect(values(x('kind of ashamed to admit that mean girls is my fave!'))).toEqual(['mean girls'])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i like the movie ${'tangled '.repeat(10_000)}`,
      `i like cheeseburgers ${'almost '.repeat(10_000)}as much as you`,
      `${'i admit that '.repeat(5_000)}pizza is my favorite`,
    )
  })
})

describe('a title with its article, a pet after "pet", and "the most"', () => {
  it('keeps the article of a title the lexicons know only with it', () => {
    expect(x('i love the office').interests?.movies_tv?.[0]?.value).toBe('the office')
    expect(x('i like the doors').interests?.music?.[0]?.value).toBe('the doors')
    expect(x('i like the who the most').interests?.music?.[0]?.value).toBe('the who')
    expect(x('i love the beach').interests?.travel?.[0]?.value).toBe('beach')
  })

  it('reads how much after the thing as no part of it', () => {
    expect(values(x('i love pizza the most'))).toEqual(['pizza'])
  })

  it('reads the pet named after "pet", and no pet in "pet" alone or a pet peeve', () => {
    expect(x('i am a fan of orange, which is why i have pet clown fish.').interests?.pets?.[0]?.value).toBe('fish')
    expect(x('i have two pet rats').interests?.pets?.[0]?.value).toBe('rat')
    for (const said of ['i have a pet', 'i have a pet peeve about dogs', 'i have a pet store'])
      expect(x(said).interests?.pets, said).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(`i have a pet ${'clown '.repeat(10_000)}fish`, `i like the who ${'the '.repeat(10_000)}most`)
  })
})

describe('what upsets the person, said after "and" or with "find"', () => {
  const avoid = (data: string) => (x(data).preferences?.topics_to_avoid ?? []).map((t) => t.value)

  it('reads a topic that upsets the person, weakly', () => {
    expect(avoid('just getting older and holidays upset me.')).toEqual(['holidays'])
    expect(avoid('the holidays always gets me sad.')).toEqual(['holidays'])
    expect(avoid('i find the holidays depressing just me and the cats.')).toEqual(['holidays'])
    expect(x('crowds make me anxious').preferences?.topics_to_avoid?.[0]?.confidence).toBe(0.5)
  })

  it('reads no topic from a pronoun or from what cheers the person', () => {
    for (const said of ['and that makes me sad', 'my cats keep me happy', 'i find it depressing', 'you upset me'])
      expect(avoid(said), said).toEqual([])
  })

  it('reads these forms in linear time', () => {
    expectLinear(`${'and holidays '.repeat(10_000)}upset me`, `i find ${'the '.repeat(10_000)}holidays depressing`)
  })
})

describe('"yet" between clauses, what "we" listen to, works of a maker and a pet on its way', () => {
  it('reads the clause after ", yet" on its own', () => {
    expect(job('I studied chemistry, yet work in a bookstore')).toBe('works in a bookstore')
    expect(events('I studied chemistry, yet work in a bookstore')).toEqual(['studied chemistry'])
    expect(x('i have not yet decided').memories).toBeUndefined()
  })

  it('reads the music a household listens to, and the maker of works liked', () => {
    expect(x('We listen to a lot of underground rap.').interests?.music?.[0]?.value).toBe('underground rap')
    expect(values(x('I also like the works of Picasso and Miro.'))).toEqual(['picasso', 'miro'])
    expect(x('i like the music of bach').interests?.music?.[0]?.value).toBe('Bach')
  })

  it('reads a pet on its way as a dated memory of medium importance', () => {
    const [memory] = x("That is fun! I'm getting a dog next spring.").memories ?? []
    expect(memory).toMatchObject({ event: 'is getting a dog', importance: 'medium' })
    expect(x('i am getting divorced').memories?.[0]?.importance).toBe('high')
    expect(x('i am getting a dog groomed').memories).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i studied chemistry${', yet work'.repeat(5_000)}`,
      `i like the works of ${'picasso '.repeat(10_000)}`,
      `we listen to ${'rap '.repeat(10_000)}`,
    )
  })
})

describe('a diet said with "being", "well" after a thing, "have always been into" and verbs alone', () => {
  it('reads a diet the person names with "being" in their own clause', () => {
    expect(values(x('I do a lot of cooking - I have to being vegan you know.'))).toContain('vegan')
    expect(values(x('i like my sister being vegan'))).toEqual([])
  })

  it('reads how well as no part of the thing', () => {
    expect(values(x('I can cook soup well.'))).toEqual(['cooking', 'soup'])
  })

  it('reads a like that has held a while', () => {
    expect(values(x("I've always been more into sports."))).toEqual(['sports'])
    expect(values(x('i have been a fan of jazz'))).toEqual(['jazz'])
  })

  it('keeps no memory of a relative that ends in a verb with nothing after it', () => {
    expect(events('My cousin loves that game.')).not.toContain('their cousin loves')
    expect(events('my wife loves hiking')).toEqual(['their wife loves hiking'])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i ${'have to '.repeat(10_000)}being vegan`,
      `i can cook ${'soup '.repeat(10_000)}well`,
      `i have always been ${'more '.repeat(10_000)}into sports`,
    )
  })
})

describe('a trade said as "my trade is", and a workplace before what is done there', () => {
  it('reads the job after "my trade is" or "my line of work is"', () => {
    expect(job('My trade is mechanical engineer and I am in colorado')).toBe('mechanical engineer')
    expect(job('my line of work is a nurse')).toBe('nurse')
  })

  it('ends a workplace before what the person does there', () => {
    expect(job('i work in a homeless shelter helping people')).toBe('works in a homeless shelter')
    expect(job('i work at a dog grooming salon')).toBe('works at a dog grooming salon')
  })

  it('reads these forms in linear time', () => {
    expectLinear(`my trade is ${'mechanical '.repeat(10_000)}engineer`, `i work in a ${'big '.repeat(10_000)}shelter`)
  })
})

describe('journeys taken, a taste someone brought the person to, and a place enjoyed', () => {
  it('reads cruises taken more than once as travel', () => {
    expect(x("Travelling is great, I've been on many cruises").interests?.travel?.[0]?.value).toBe('cruises')
    expect(x('i have been on a cruise once').interests?.travel).toBeUndefined()
  })

  it('reads what someone got the person into, when it is a pastime or a taste', () => {
    expect(values(x('She got me into eating papaya.'))).toEqual(['papaya'])
    expect(values(x('my dad got me into fishing'))).toEqual(['fishing'])
    for (const said of ['he got me into trouble', 'she got me into college', 'it never got me into fishing'])
      expect(x(said).interests, said).toBeUndefined()
  })

  it('reads a known place whose time the person enjoyed', () => {
    expect(x('I loved the time I spent in Portugal!').interests?.travel?.[0]?.value).toBe('Portugal')
    expect(x('i enjoyed my time in the office').interests?.travel).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i have been on ${'many '.repeat(10_000)}cruises`,
      `she got me into ${'eating '.repeat(10_000)}papaya`,
      `i loved the time i spent in ${'big '.repeat(10_000)}portugal`,
    )
  })
})

describe('time spent at a place a pastime is had', () => {
  it('reads the place the lexicons know as a pastime’s', () => {
    expect(x('i spend a lot of time at the gym').interests?.sports?.[0]?.value).toBe('gym')
    expect(x('i spend my weekends at the beach').interests?.travel?.[0]?.value).toBe('beach')
    expect(values(x('i spend my weekends hiking'))).toEqual(['hiking'])
  })

  it('reads no pastime from work or home', () => {
    for (const said of ['i spend a lot of time at work', 'i spend time at home'])
      expect(x(said).interests, said).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(`i spend my weekends at the ${'big '.repeat(10_000)}beach`)
  })
})

describe('"it" after a suggestion, a pastime paused for work, and what is loved before a comma', () => {
  it('reads "it" liked after the person suggests a pastime', () => {
    expect(values(x('you should learn to play chess. i really like it.'))).toEqual(['chess'])
    expect(x('you should buy a car. i love it').interests).toBeUndefined()
  })

  it('reads the pastime named in "when i am not ..."', () => {
    expect(values(x('i have a job in the shipyard when i am not volunteering'))).toEqual(['volunteering'])
    expect(x('when i am not working i sleep').interests).toBeUndefined()
  })

  it('reads "X is what i love" before a comma', () => {
    expect(values(x('gardening is what i love, and doing stuff with my hands.'))).toEqual(['gardening'])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `you should learn to ${'play '.repeat(10_000)}chess. i like it`,
      `when i am not ${'a'.repeat(30_000)}ing`,
    )
  })
})

describe('eating liked with nothing said of what', () => {
  it('reads eating as the pastime, and a food when one is named', () => {
    expect(values(x('i love to eat'))).toEqual(['eating'])
    expect(values(x('i love my dogs and eating'))).toEqual(['dog', 'eating'])
    expect(values(x('i love to eat pizza'))).toEqual(['pizza'])
    expect(values(x('i like eating out'))).toEqual(['eating out'])
  })
})

describe('a title signed with, a job said of those it serves, and work as a second verb', () => {
  it('reads the title before the name the person opens with', () => {
    const signed = x('good afternoon. chef larry here.')
    expect(signed.core_info?.occupation?.value).toBe('chef')
    expect(signed.core_info?.name?.value).toBe('Larry')
    expect(job('Hey there coach danny here! How are you?')).toBe('coach')
    expect(x('alan here').core_info?.occupation).toBeUndefined()
  })

  it('reads a known job said of the people it serves', () => {
    expect(job('i am on a school trip. brought some 4th graders. i am their teacher.')).toBe('teacher')
    expect(job('i am their mom')).toBeUndefined()
  })

  it('reads work as the person’s second verb phrase', () => {
    expect(job('i am living in ohio and working for a local supermarket')).toBe('works for a local supermarket')
    expect(job('i love cooking and working at home')).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(`${'chef '.repeat(10_000)}larry here`, `i am ${'and working '.repeat(5_000)}for a shop`)
  })
})

describe('lists of verbs, travel as a way of life, and a verb asked and answered', () => {
  it('reads each verb of a list that "and" closes, and no verb as the object of the one before', () => {
    expect(values(x('i hike, bike and swim'))).toEqual(['hiking', 'biking', 'swimming'])
    expect(values(x('i sing, play the guitar and piano'))).toEqual(['singing', 'guitar', 'piano'])
    expect(values(x('i knit, paint landscapes and bake bread'))).toEqual(['knitting', 'painting', 'baking', 'bread'])
    expect(values(x('i hike and fish'))).toEqual(['hiking', 'fishing'])
    expect(values(x('i like to garden and fish'))).toEqual(['gardening', 'fishing'])
  })

  it('keeps a thing listed after a verb of liking a thing, though it can be a verb', () => {
    expect(values(x('i love cats and fish'))).toEqual(['cat', 'fish'])
    expect(values(x('i love dogs, fish and cats'))).toEqual(['dog', 'cat', 'fish'])
    expect(values(x('i like to eat rice and fish'))).toEqual(['rice', 'fish'])
  })

  it('reads travel that goes everywhere as travel, and travel under way', () => {
    expect(values(x('i love traveling the world'))).toEqual(['traveling'])
    expect(values(x('i want to see the world'))).toEqual(['traveling'])
    expect(values(x('for now i am traveling the world'))).toEqual(['traveling'])
    expect(x('i am traveling for work').interests).toBeUndefined()
    expect(x('i am traveling through europe').interests).toBeUndefined()
  })

  it('reads a list after "i do", and not what "all i do is" goes on to', () => {
    expect(values(x('i do crossfit and yoga'))).toEqual(['crossfit', 'yoga'])
    expect(values(x('all i do is work and play games'))).toEqual(['games'])
  })

  it('reads any verb the person asks about and then says they do', () => {
    expect(values(x('do you dance by any chance? weekends i do.'))).toEqual(['dancing'])
    expect(values(x('do you knit? yes i do'))).toEqual(['knitting'])
    expect(x('do you think so? i do').interests).toBeUndefined()
    expect(x('do you knit? i do not').interests).toBeUndefined()
  })

  it('reads a job that the person spends their time as', () => {
    expect(job('i have retired and now spend my time as a pro gambler')).toBe('pro gambler')
  })

  it('reads a name that a question follows, a place whose name opens with a common word, a title before a name', () => {
    expect(x('hi my name is darlene how are you?').core_info?.name?.value).toBe('Darlene')
    expect(values(x('i would love to visit new york some day'))).toEqual(['New York'])
    expect(x('coach enfield is a bum!').core_info?.occupation).toBeUndefined()
  })

  it('knows vegetables, fruits and drinks as food', () => {
    expect(x('i love black beans').interests?.food?.map((s) => s.value)).toEqual(['black beans'])
    expect(x('i like cabbage').interests?.food?.map((s) => s.value)).toEqual(['cabbage'])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i hike${', bike'.repeat(10_000)} and swim`,
      `do you ${'dance '.repeat(10_000)}by any chance? i do`,
      `i am traveling ${'the '.repeat(10_000)}world`,
      `my name is ${'darlene '.repeat(10_000)}how are you`,
      `i love ${'new '.repeat(10_000)}york`,
    )
  })
})

describe('the person’s clause inside a relative one, and a message that opens with someone else’s pronoun', () => {
  it('reads "the bar i work at" as "i work at the bar", and the rest without it', () => {
    expect(job('My band got a gig this weekend at the bar I work at.')).toBe('works at the bar')
    expect(job('that sounds nicer than the dive bar that i work at!')).toBe('works at the dive bar')
    expect(job('the company i work for is hiring')).toBe('works for the company')
    expect(events('The marathon I am training for is to support a dog rescue.')).toContain(
      'is training for the marathon',
    )
  })

  it('reads no relative clause of a word that says too little, or of "i am in"', () => {
    expect(x('the one i went to was fine')).toEqual({ language: 'en' })
    expect(x('i explore new parts of the city i am in').core_info).toBeUndefined()
  })

  it('reads a text opened by a pronoun as a bio only when every sentence opens with it and it speaks to no one', () => {
    expect(x("He's a sweet black lab").core_info).toBeUndefined()
    expect(x('He is three, going on 13').core_info).toBeUndefined()
    expect(x("She's 26. What other instruments do you play?").core_info).toBeUndefined()
    expect(x('He is a school teacher and earns more for both of us.').core_info).toBeUndefined()
    expect(x('He is a pilot. He loves flying.').core_info?.occupation?.value).toBe('pilot')
    expect(x('Maria is a nurse.').core_info?.occupation?.value).toBe('nurse')
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `the ${'bar '.repeat(10_000)}i work at`,
      `the bar ${'that '.repeat(10_000)}i work at`,
      `${'He is nice. '.repeat(3_000)}`,
    )
  })
})

describe('a word at the start of a message that is no name', () => {
  it('reads no bio from a word compromise does not know as a name, unless a pronoun points back at it', () => {
    for (const said of [
      'College is the place to figure that out',
      'Food is important, health is too.',
      'Samosa is good with another meal',
      'Everyone is doing well.',
      'Guitar, violin, flute. Do you play any?',
    ])
      expect(x(said).core_info).toBeUndefined()
    expect(x('Zainab is a nurse. She lives in Leeds.').core_info?.name?.value).toBe('Zainab')
    expect(x('Zainab, 34, nurse').core_info?.age?.value).toBe(34)
  })

  it('reads no name said as an answer, as a sound of feeling, or of a pet', () => {
    expect(x('Dolly, of course! How about you?').core_info).toBeUndefined()
    expect(x('Boy, that is a real achievement!').core_info).toBeUndefined()
    expect(x('Howdy, how are you this morning?').core_info).toBeUndefined()
    expect(x('Luna, she is a 65 pound terrier mix.').core_info).toBeUndefined()
    expect(x('Maria, 34, nurse from Lisbon').core_info?.name?.value).toBe('Maria')
  })
})

describe('memories that say whom they are about, and that do not trail off', () => {
  it('names the person "him" or "her" points at in the clause before', () => {
    expect(events('My wife is a model. I met her in italy.')).toContain('met their wife in italy')
    expect(events('my brother is great. i visited him in ohio last year.')).toContain('visited their brother in ohio')
    // no one of that gender named before, or "her" as a possessive: left as it is
    expect(events('my brother is great. i met her in ohio last year.')).toContain('met her in ohio')
    expect(events('my mom called. i met her parents last week.')).toEqual(['met her parents'])
  })

  it('keeps no memory cut short by a clause around it', () => {
    expect(events('I have many old but need new hats.')).toEqual([])
    expect(events('the actor whose stunt double I am will be playing a farmer')).toEqual([])
    expect(events('I have a movie coming up and the actor whose stunt double I am will play a farmer.')).toEqual([
      'has a movie coming up',
    ])
    expect(events('I have some dogs (a Basset puppy I just got a bit ago and an old lab).')).toEqual(['has some dogs'])
    expect(events('I have a few horses and some dogs (my German Shepherd and a puppy I just got a bit ago).')).toEqual([
      'has a few horses and some dogs',
    ])
    expect(events('I am a big football (European) fan')).toEqual(['is a big football (European) fan'])
    expect(events('i have one russian blue and the rest are all shorthairs')).toEqual([
      'has one russian blue and the rest are all shorthairs',
    ])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `my wife ${'and my wife '.repeat(5_000)}is nice. i met her in rome`,
      `i have some dogs (${'a '.repeat(10_000)}`,
      `i have ${'many '.repeat(10_000)}old`,
    )
  })
})

describe('memories that end where their event does', () => {
  it('cuts a clause run on without a stop, thanks, and a trailing "also" or "however"', () => {
    expect(events('I took my dogs out for a walk it was gorgeous weather')).toEqual(['took their dogs out for a walk'])
    expect(events('I went to florida where it was warm')).toEqual(['went to florida where it was warm'])
    expect(events('I just got hired as a life coach, thanks for asking')).toEqual(['got hired as a life coach'])
    expect(events('my horse has beautiful silver hair and also')).toEqual(['their horse has beautiful silver hair'])
    expect(events('I have however, had the Kiwi Refresher')).toEqual([])
    expect(events('my parents were artists in their own right')).toEqual([
      'their parents were artists in their own right',
    ])
  })

  it('reads a thing used for an end, and "use to" as "used to"', () => {
    expect(events('I had this old peanut butter and I used it to seal my car engine')).toEqual([
      'used the old peanut butter to seal their car engine',
    ])
    expect(events('I use to work for the CIA')).toEqual(['used to work for the CIA'])
    expect(events('I used a coupon')).toEqual([])
  })

  it('leaves out an event whose only object is pointed at after a gerund', () => {
    expect(events('Yes. I finished watching it.')).toEqual([])
    expect(events('I bought a new grill and I quit using it')).toContain('quit using the new grill')
  })

  it('reads a job the person was hired as', () => {
    expect(job('I just got hired as a life coach')).toBe('life coach')
    expect(job('i was hired as a cook last week')).toBe('cook')
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i took my dog ${'out '.repeat(10_000)}it was nice`,
      `i used ${'it '.repeat(10_000)}to seal`,
      `i got hired as ${'a '.repeat(10_000)}cook, thanks`,
    )
  })
})

describe('a genre named by a word of everyday use', () => {
  it('keeps "music" after "country", and drops it after "jazz"', () => {
    expect(values(x('I like to listen to country music'))).toEqual(['country music'])
    expect(values(x('i like jazz music'))).toEqual(['jazz'])
  })

  it('removes the genre the profile holds in either form', () => {
    const holding = (value: string) => {
      const profile = emptyContent()
      profile.interests.music = [{ value, confidence: 0.8 }]
      return extractor.extractOne({ inputType: 'text', data: 'I hate country music.' }, profile).removals
    }
    expect(holding('country')).toEqual([{ section: 'interests', category: 'music', value: 'country' }])
    expect(holding('country music')).toEqual([{ section: 'interests', category: 'music', value: 'country music' }])
  })
})

describe('a little girl, an age decade said with "only", and a trip planned', () => {
  it('reads "a little girl" as who the person is, and "a little tired" as a degree', () => {
    expect(x("Hello, my name is stephanie and I'm a little girl").core_info?.gender?.value).toBe('female')
    expect(x('i am a little tired').core_info?.gender).toBeUndefined()
  })

  it('reads a decade said with "only" or "still"', () => {
    expect(x('i am only in my thirties').core_info?.age?.value).toBe(35)
    expect(x('i am still in my 20s').core_info?.age?.value).toBe(25)
  })

  it('keeps a trip planned to a known place as a memory', () => {
    expect(events("I'm planning on going to Florida.")).toEqual(['plans to go to Florida'])
    expect(events('i plan to visit japan')).toEqual(['plans to visit japan'])
    expect(events('i am planning on moving to texas')).toEqual(['plans to move to texas'])
    expect(events('i am planning on going to the store')).toEqual([])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i am planning on going to ${'new '.repeat(10_000)}york`,
      `i am a little ${'little '.repeat(10_000)}girl`,
    )
  })
})

describe('continents, a business of the person’s named anywhere, and "one sister for me"', () => {
  it('knows the continents as places', () => {
    expect(events('i am going to europe next week')).toEqual(['is going to europe next week'])
    expect(x('i am from south america').core_info?.location?.value).toBe('South America')
  })

  it('reads "my X-ing business" as the job of its trade', () => {
    expect(job("About a week ago. I've been so busy with my plumbing business.")).toBe('plumbing business owner')
    expect(job('Well I like working in my dog walking business!')).toBe('dog walker')
    expect(job("my dad's plumbing business is doing well")).toBeUndefined()
  })

  it('reads what the person has, said as "one sister for me"', () => {
    expect(events('Do you have any siblings. One sister for me.')).toEqual(['has one sister'])
    expect(events('a coffee for me')).toEqual([])
  })

  it('reads these forms in linear time', () => {
    expectLinear(`my ${'own '.repeat(10_000)}plumbing business`, `one ${'sister '.repeat(10_000)}for me`)
  })
})

describe('a favorite with no kind, and "that is where i am from"', () => {
  it('reads a short phrase called a favorite as liked', () => {
    expect(events('I like pop. New kids on the block, my favorite.')).toContain('loves new kids on the block')
    expect(values(x('Well spiderman has always been my favorite.'))).toEqual(['Spiderman'])
    expect(values(x('pizza, my fave'))).toEqual(['pizza'])
    expect(x('that is my favorite').interests).toBeUndefined()
  })

  it('reads the place of "that is where i am from" and "is where i grew up"', () => {
    expect(x("There are a lot of bunnies in india, that is where I'm from").core_info?.location?.value).toBe('India')
    expect(x('ohio is where i grew up').core_info?.location?.value).toBe('Ohio')
    expect(x('that is where i live').core_info).toBeUndefined()
  })

  it('reads these forms in linear time', () => {
    expectLinear(`${'pizza '.repeat(10_000)}, my favorite`, `in ${'big '.repeat(10_000)}india, that is where i am from`)
  })
})

describe('"us" after "live in"', () => {
  it('reads the country, and no place from "with us"', () => {
    expect(x('I live in us and love my girlfriend.').core_info?.location?.value).toBe('US')
    expect(x('they live with us').core_info).toBeUndefined()
  })
})

describe('a job said in passing: "as a librarian", "a job in the insurance business"', () => {
  it('reads a known job the person speaks as, and not one of a costume, a view or someone else', () => {
    expect(job('i love classical music as a librarian')).toBe('librarian')
    expect(job('visit spain in my free time when not working as a librarian')).toBe('librarian')
    expect(job('i went to the party as a nurse')).toBeUndefined()
    expect(job('i see you as a friend')).toBeUndefined()
    expect(job('my dad works as an electrician')).toBeUndefined()
  })

  it('reads the field of a job found, and a business before a comma', () => {
    expect(job('i had to get a new job in the insurance business.')).toBe('works in insurance')
    expect(job('i have a dog walking business, make music in my spare time')).toBe('dog walker')
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i ${'love music '.repeat(5_000)}as a librarian`,
      `i got a job in the ${'big '.repeat(10_000)}business`,
    )
  })
})

describe('a favourite that "it" points back to, and a job said of being one', () => {
  it('reads the thing of the kind named in the clause before, asked or said', () => {
    expect(interests('do your kids like gymnastics? it is my favorite sport ever')).toEqual(['sports:gymnastics'])
    expect(interests('we had pizza last night, it is my favorite food')).toContain('food:pizza')
    expect(interests('i watched a movie. it is my favorite sport')).toEqual([])
  })

  it('reads a job from what the person says being one is like, and not someone else’s', () => {
    expect(job("That's what I love about being a librarian.")).toBe('librarian')
    expect(job('the worst part of being a nurse is the hours')).toBe('nurse')
    expect(job('my sister hates being a teacher')).toBeUndefined()
  })

  it('reads a coached sport after its level, a wish said as "am wanting", and no workplace from a pronoun', () => {
    expect(job('i also coach competitive swimming')).toBe('swimming coach')
    expect(job('i actually am wanting to be a lawyer')).toBe('aspiring lawyer')
    expect(job('my parents are farmers, i work for them')).toBeUndefined()
  })

  it('reads a trait of "i find myself to be", and no job from a trait said as a noun', () => {
    expect(x('I find myself to be free spirited').personality?.traits?.[0]?.value).toBe('free spirited')
    expect(x('i consider myself to be pretty outgoing').personality?.traits?.[0]?.value).toBe('outgoing')
    expect(job('i am a free spirit')).toBeUndefined()
  })

  it('reads where the person is from a greeting asked with a rising tone', () => {
    expect(x('Great. Hello from florida? What are you up to?').core_info?.location?.value).toBe('Florida')
    expect(x('hi from sunny spain!').core_info?.location?.value).toBe('Spain')
  })

  it('keeps no bare "looking" as a pastime, and looking at the stars as stargazing', () => {
    expect(interests('I spend a lot of time looking up youtube videos')).toEqual([])
    expect(interests('i love looking at the stars')).toEqual(['hobbies:stargazing'])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `do you like ${'big '.repeat(10_000)}gymnastics? it is my favorite sport`,
      `what i love about being a ${'big '.repeat(10_000)}`,
      `hello from ${'sunny '.repeat(10_000)}spain?`,
    )
  })
})

describe('what someone did to the person, said without an object', () => {
  it('reads a firing, a break-up or being thrown out as the person’s event', () => {
    const dated = (data: string) => (x(data).memories ?? []).map((m) => [m.event, m.date, m.importance])
    expect(dated('my boss fired me last week')).toEqual([['their boss fired them', '2024-06-08', 'high']])
    expect(dated('My parents kicked me out because I am not using my degree.')[0]?.[0]).toBe(
      'their parents kicked them out',
    )
    expect(dated('my boyfriend dumped me yesterday, ugh')[0]?.slice(0, 2)).toEqual([
      'their boyfriend dumped them',
      '2024-06-14',
    ])
    expect(events('my aunt helped me escape somalia when i was thirteen')).toEqual([
      'their aunt helped them escape somalia when they were thirteen',
    ])
    expect(events('my mom helped me')).toEqual([])
  })
})

describe('a job said by what it does, and lists and events that end cleanly', () => {
  it('reads the job of "my job is selling cars", not the thing sold, nor a word that says what it is like', () => {
    expect(job('my job is selling cars')).toBe('car seller')
    expect(job('my job is driving trucks')).toBe('truck driver')
    expect(job('my job is boring supermarket')).toBe('supermarket')
  })

  it('reads the workplace of a relative clause that ends on "then"', () => {
    expect(job('you would love the shipyard i work in then.')).toBe('works in the shipyard')
  })

  it('keeps no "etc", no subject of a statement after "and", no food that names no dish', () => {
    expect(interests('i like raw veggies, grains, etc.')).not.toContain('other:etc')
    expect(interests('i like the people and managers are really nice')).toEqual([])
    expect(events('i like the people and managers are really nice')).toEqual(['likes the people'])
    expect(interests('i also love grilling my food outdoors')).toEqual(['hobbies:grilling'])
    expect(interests('i love grilling steaks')).toEqual(['hobbies:grilling', 'food:steaks'])
  })

  it('reads a past event after a comma that goes on with the person as subject, and no bare "was born"', () => {
    expect(events('I was driving the bmw, got arrested for drunk driving')).toEqual(['got arrested for drunk driving'])
    expect(events('we were sitting there, compared to the winter olympics')).toEqual([])
    expect(events('my mom had a degree, she died two years after i was born')).not.toContain('was born')
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i was ${'driving '.repeat(10_000)}, got arrested`,
      `my job is selling ${'cars '.repeat(10_000)}`,
      `i like ${'people and '.repeat(5_000)}managers are nice`,
    )
  })
})

describe('a liking "which" points back to, a job one is busy at, an illness had', () => {
  it('reads what "which i love" points back to, of the kind its verb takes, and not a thing bought', () => {
    expect(interests('they have good fish and chips here, which I love to eat!')).toEqual(['food:fish and chips'])
    expect(interests('my sister plays tennis, which i also enjoy')).toEqual(['sports:tennis'])
    expect(interests('i bought a new car, which i love')).toEqual([])
  })

  it('reads the workplace of "too busy working for", and an illness had as an event', () => {
    expect(job('I am too busy working for the postal service.')).toBe('works for the postal service')
    expect((x('I had medical issues three years ago').memories ?? []).map((m) => [m.event, m.date])).toEqual([
      ['had medical issues', '2021-01-01'],
    ])
    expect(events('i had cancer last year')).toEqual(['had cancer'])
  })

  it('reads these forms in linear time', () => {
    expectLinear(`they have ${'good '.repeat(10_000)}pizza, which i love to eat`)
  })
})

describe('"we both", shopping and a morning spent at a pastime', () => {
  it('reads what "we both" do as the person’s', () => {
    expect(interests('that is great! we both volunteer!')).toEqual(['hobbies:volunteering'])
    expect(interests('we both love pizza')).toEqual(['food:pizza'])
  })

  it('reads shopping for things, and a morning spent volunteering', () => {
    expect(interests('i shop for shoes and watches')).toEqual(['hobbies:shopping'])
    expect(interests('i spent the morning volunteering')).toEqual(['hobbies:volunteering'])
  })
})

describe('jobs said in passing: as who the person speaks, a job to go to college for, a part-time job', () => {
  it('reads the job the person speaks as before their "i", and not a time of life', () => {
    expect(job('well as a 46 year old recording engineer i can relate with that')).toBe('recording engineer')
    expect(job('as a kid i loved it')).toBeUndefined()
  })

  it('reads a job to go to college for, a part-time job, and where or with whom the job is', () => {
    expect(job('i really want to go to college to become a lawyer')).toBe('aspiring lawyer')
    expect(job('my part time job is a cashier')).toBe('cashier')
    expect(job('my new job is with a naturopath they use that all the time')).toBe('works with a naturopath')
    expect(job('do you like working outside? i am stuck inside working in a bank.')).toBe('works in a bank')
  })

  it('reads these forms in linear time', () => {
    expectLinear(`as a ${'big '.repeat(10_000)}engineer i can relate`, `my job is with ${'a '.repeat(10_000)}`)
  })
})

describe('a thing liked said first, food eaten that "it" points to, a band of function words', () => {
  it('reads a known thing said before the person’s liking of it', () => {
    expect(interests('and uh, tacos i just like')).toEqual(['food:tacos'])
    expect(interests('the people i like')).toEqual([])
  })

  it('reads the food "it" points back to in the clause before', () => {
    expect(interests('i am not allergic to pizza, i eat a lot of it')).toEqual(['food:pizza'])
  })

  it('keeps a title that ends on a word that ends phrases, and the food before the verb it is the subject of', () => {
    expect(interests('i love listening to the who.')).toEqual(['music:the who'])
    expect(interests('i love the people who live here')).toEqual([])
    expect(interests('Eating more fruits has definitely helped')).not.toContain('food:more fruits has')
  })

  it('reads "its" run into a phrase as "it is", and the name of "i am larry here"', () => {
    expect(interests('I love teaching, and its always rewarding')).toEqual(['hobbies:teaching'])
    expect(x("Great! I'm larry here. A chef 80 of the time").core_info?.name?.value).toBe('Larry')
    expect(events("Great! I'm larry here.")).toEqual([])
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `${'tacos and '.repeat(5_000)}tacos i just like`,
      `i ate ${'pizza '.repeat(10_000)}, i eat a lot of it`,
    )
  })
})

describe('pets listed after one "my", a major, an age in years lived, a loss said with "also"', () => {
  const pets = (data: string) => (x(data).interests?.pets ?? []).map((s) => s.value)

  it('reads each pet of "my cats and dogs", and not a person after "and my"', () => {
    expect(pets('I try to play it safe and stay home with my cats and dogs.')).toEqual(['cat', 'dog'])
    expect(pets('my cat and my husband')).toEqual(['cat'])
  })

  it('reads the field of a major, and not an undecided one or a question', () => {
    expect(job('Hi am going to college and art is my major,')).toBe('art student')
    expect(job('my major is history')).toBe('history student')
    expect(job('my major is undecided')).toBeUndefined()
    expect(job('and what is my major')).toBeUndefined()
  })

  it('reads an age from the years lived, a father who "also" passed away, an allergy after "not really"', () => {
    expect(x('Drank a lot of both in my 56 years on this darned planet.').core_info?.age?.value).toBe(56)
    expect(events('My father also passed away.')).toEqual(['their father also passed away'])
    expect(events('Not really, allergic to dogs, I do like fancy tea though')).toEqual(['is allergic to dogs'])
  })

  it('reads these forms in linear time', () => {
    expectLinear(`my cats ${'and dogs '.repeat(5_000)}`, `in my 56 years on this ${'big '.repeat(10_000)}planet`)
  })
})

describe('events had, a job begun "about three months ago", and where the person came from', () => {
  const dated = (data: string) => (x(data).memories ?? []).map((m) => [m.event, m.date])

  it('reads a practice, a rehearsal or a sale had as an event, dated when said', () => {
    expect(dated('I had a dance practice today.')).toEqual([['had a dance practice', '2024-06-15']])
    expect(events('I just had a rehearsal with my band.')).toEqual(['had a rehearsal with their band'])
    expect(events('i had a great time')).toEqual([])
  })

  it('dates a job begun "about" some time ago, and keeps the time out of the workplace', () => {
    expect(dated('I started working as a personal assistant about three months ago.')).toEqual([
      ['started working as a personal assistant', '2024-03-01'],
    ])
    expect(job('i started working at walmart last week')).toBe('works at walmart')
  })

  it('reads where the person came from below where they are now', () => {
    expect(x('i came from india with my parents').core_info?.location?.value).toBe('India')
    expect(x('i am in the united states too, but i came from somalia.').core_info?.location?.value).toBe(
      'United States',
    )
  })
})

describe('habits tried at, riding, trips visited, moving out, not being big on a thing', () => {
  it('reads a pastime tried at as a habit, and riding unless what is ridden says it is no pastime', () => {
    expect(interests('I try to workout a couple days a week')).toEqual(['sports:working out'])
    expect(interests('I ride all the time')).toEqual(['hobbies:riding'])
    expect(interests('i ride the bus to work')).toEqual([])
  })

  it('reads a visit under way, a move out, a retirement one "was able to" take, a dislike of "not big on"', () => {
    expect(events('I am visiting Europe again this year, have you ever been?')).toEqual([
      'is visiting Europe again this year',
    ])
    expect(events('i am moving out soon')).toEqual(['is moving out'])
    expect(job('I was able to retire after a huge payday')).toBe('retired')
    expect(x('I am not big on fashion').preferences?.topics_to_avoid?.map((t) => t.value)).toEqual(['fashion'])
  })
})

describe('no game of a count, no "next" in what is studied', () => {
  it('keeps no "several" played, and what is studied without when', () => {
    expect(interests('i play several and my father played violin!')).toEqual([])
    expect(interests('yeah i want to study french next')).toEqual(['hobbies:learning french'])
  })
})

describe('pets in "ies", a biggest fear, a job of the past by its noun, students taught', () => {
  it('reads "my huskies" as a husky', () => {
    expect(x('My huskies have an appointment with the groomer this weekend.').interests?.pets?.[0]?.value).toBe('husky')
  })

  it('reads a biggest fear as a topic to avoid', () => {
    expect(x('My biggest fear is heights').preferences?.topics_to_avoid?.map((t) => t.value)).toEqual(['heights'])
  })

  it('reads a job by its noun, past when said so, and students taught whenever the person explains', () => {
    expect(job('My tailor job was so flexible I could work when I wanted to')).toBe('former tailor')
    expect(job('my tailor job is flexible')).toBe('tailor')
    expect(job('My fourth graders get really confused when I try to explain it to them.')).toBe('teacher')
    expect(job('when i was a teacher my students loved me')).not.toBe('teacher')
  })
})

describe('a school of a field or a year, a marriage and a trip "over to"', () => {
  it('reads the student of a school named by its field or its year, and not a school to come', () => {
    expect(job('I am going to photography school.')).toBe('photography student')
    expect(job('i am going to nursing school')).toBe('nursing student')
    expect(job('I am also in the 3rd grade')).toBe('3rd grade student')
    expect(job('i am going to college next year')).toBeUndefined()
    expect(job('i am going to business school in a year')).toBeUndefined()
  })

  it('reads a marriage under way and a trip "over to" a place', () => {
    expect(events("I'm marrying a man with a big heart in the spring.")).toEqual(['is marrying a man'])
    expect(events("I'm heading over to Hong Kong!")).toEqual(['is going to Hong Kong'])
  })
})

describe('"i love it" after the other speaker’s question', () => {
  const conversation = (question: string, reply: string) =>
    extractor.extractOne({
      inputType: 'conversation',
      data: JSON.stringify([
        { role: 'assistant', content: question },
        { role: 'user', content: reply },
      ]),
    })

  it('reads the pastime the question asked about, after a bare yes too', () => {
    expect(interestsIn(conversation('Have you tried hiking?', 'I love it.'))).toEqual(['hobbies:hiking'])
    expect(interestsIn(conversation('Do you ever go fishing?', 'Yes, I love it!'))).toEqual(['hobbies:fishing'])
  })

  it('reads nothing when the other speaker said no pastime', () => {
    expect(interestsIn(conversation('I bought a new car', 'I love it.'))).toEqual([])
    expect(interestsIn(conversation('How is your new job at the bakery?', 'I love it.'))).toEqual([])
  })

  it('reads "atleast" as "at least"', () => {
    expect(interests('I love going to Lewis Creek atleast twice a month.')).toEqual(['travel:Lewis Creek'])
  })
})

describe('outings and shows of the household, a class taught', () => {
  it('reads what "we" go to or watch as the person’s', () => {
    expect(interests('We go to the beach together during our vacations')).toEqual(['travel:beach'])
    expect(interests('we go to work')).toEqual([])
    expect(interests('We have been watching The Office again')).toEqual(['movies_tv:The Office'])
  })

  it('reads the teacher of "my kindergarten class"', () => {
    expect(job('just preparing lesson plans for my kindergarten class.')).toBe('teacher')
  })
})

describe('a first love, a book of no kind, a pastime called "my"', () => {
  it('reads "X is my first love" before a comma, a book read as reading, "my knitting" as a pastime', () => {
    expect(interests('coffee is my passion, so yes!')).toEqual(['food:coffee'])
    expect(interests('I read a really good book last week.')).toEqual(['books:reading'])
    expect(interests('I have taken a break from my knitting to chat!')).toEqual(['hobbies:knitting'])
    expect(interests('i went to my building')).toEqual([])
  })
})

describe('what the person does not do, said of a pastime', () => {
  it('keeps not playing, watching or going out as a standing fact, without "much"', () => {
    expect(events("Cool. I don't play video games much.")).toEqual(['does not play video games'])
    expect(events("I don't watch tv")).toEqual(['does not watch tv'])
    expect(events("Well, I don't get out much.")).toEqual(['does not get out much'])
    expect(events('i do not go out')).toEqual(['does not go out'])
    expect(events('I do not do drugs!')).toEqual(['does not do drugs'])
  })

  it('keeps no habit whose object is only pointed at', () => {
    expect(events('i watch him help everyone')).toEqual([])
    expect(events('i do not watch it')).toEqual([])
  })
})

describe('a name said first, a relative by their order, a change thought about', () => {
  it('reads "Spook is the name of my cat", "my fourth son", and "I have been thinking about changing jobs"', () => {
    expect(events('So do you have any pets? Spook is the name of my cat.')).toEqual(['their cat is named Spook'])
    expect(events('My fourth son hates scorpions too.')).toEqual(['has a son'])
    expect(events("I've been thinking about changing jobs recently.")).toEqual([
      'has been thinking about changing jobs recently',
    ])
  })
})

describe('who the person says they are in passing', () => {
  it('reads an activist spoken as, a job one gets to be, "like me, a ...", and "a woman who is ..."', () => {
    expect(x("I've powers too as an animal activist!").personality?.traits?.map((t) => t.value)).toEqual([
      'animal activist',
    ])
    expect(job('I love that I get to be a musician.')).toBe('musician')
    expect(interests('You sound just like me, a party animal.')).toEqual(['hobbies:partying'])
    expect(x("I'm an older woman who is afraid of dying.").preferences?.topics_to_avoid?.map((t) => t.value)).toEqual([
      'dying',
    ])
  })
})

describe('events in the present perfect, foods missed, a baby on the way', () => {
  it('keeps "i have bought ..." as an event when the past tense would be one, not a state or a bare verb', () => {
    expect(events('I have bought lots of doge coin though.')).toEqual(['has bought lots of doge coin'])
    expect(events("I've finished my degree")).toEqual(['has finished their degree'])
    expect(events('I have taken a break from my knitting to chat')).toEqual([
      'has taken a break from their knitting to chat',
    ])
    expect(events("I've found some non-fiction books I like.")).toEqual(['has found some non-fiction books they like'])
    expect(events('I have decided to go')).toEqual([])
    expect(events('I have watched that show')).toEqual([])
    expect(events('I have been busy')).toEqual([])
    expect(events('I have lived here for ten years')).toEqual(['has lived here for ten years'])
  })

  it('reads a known food the person misses, and no topic from "i hate to admit it"', () => {
    const said = 'I hate to admit it but I miss the comfort of a good old cheeseburger from time to time.'
    expect(interests(said)).toEqual(['food:cheeseburger'])
    expect(x(said).preferences?.topics_to_avoid).toBeUndefined()
    expect(interests('Oh my goodness, yes I miss cheese too!')).toEqual(['food:cheese'])
    expect(interests('I miss my dog')).toEqual([])
    expect(interests("I don't miss pizza")).toEqual([])
  })

  it('reads a baby one is going to have, after "now that", and not a baby shower', () => {
    expect(events("Not much time now that I'm going to have a baby")).toEqual(['is expecting a baby'])
    expect(events('we are having a baby shower')).toEqual([])
  })

  it('reads a condition the person calls "my", and a plan before "and maybe"', () => {
    expect(events("That's a great idea, but my arthritis sometimes keeps me off the court.")).toEqual(['has arthritis'])
    expect(events('my asthma is acting up')).toEqual(['has asthma'])
    expect(events("my mom's arthritis is bad")).toEqual([])
    expect(events('my anxiety about the exam')).toEqual([])
    expect(job('Yea, I want to become an art teacher and maybe sell some paintings on the side.')).toBe(
      'aspiring art teacher',
    )
  })

  it('reads the family’s outings, a pastime free time goes to, and no place lived in from "do live ..."', () => {
    expect(interests('my family goes to disney world yearly.')).toEqual(['travel:disney world'])
    expect(interests('my family goes crazy for pizza')).toEqual([])
    expect(interests('there is nothing like fresh sushi')).toEqual(['food:sushi'])
    expect(events('on the weekend, i get together with friends and do live action roleplaying')).toEqual([])
    expect(events('i live a quiet life')).toEqual(['lives a quiet life'])
    expect(interests('i try to hit the gym regularly.')).toEqual(['sports:gym'])
    expect(interests('he hit the gym')).toEqual([])
    expect(interests('My garden takes most of my free time.')).toEqual(['hobbies:gardening'])
    expect(interests('my job takes up all my time')).toEqual([])
  })

  it('keeps a good time had somewhere as an event, not one had "at it"', () => {
    expect(events('Had a great time at the concert last night')).toEqual(['had a great time at the concert'])
    expect(events('I had a blast in Vegas')).toEqual(['had a blast in Vegas'])
    expect(events('we had a great time at it')).toEqual([])
    expect(events('I had a blast at mine')).toEqual([])
  })

  it('keeps the other speaker’s things, a name, a comparison and a title out of likes and jobs', () => {
    const said = 'I also like to lay in the shade, just like your pet cow, Mabel!'
    expect(interests(said)).toEqual(['hobbies:laying'])
    expect(interests('I love your dog')).toEqual([])
    expect(interests('I love the name Kathleen!')).toEqual([])
    expect(interests('i love animals like dogs and cats')).toEqual(['pets:animal', 'pets:dog', 'pets:cat'])
    expect(job('Cool! I am a homecoming queen that loves horses.')).toBeUndefined()
    expect(job('I found a job in San Francisco, so I plan to move there if I get this job!')).toBeUndefined()
    expect(job('I just got a job at a bakery')).toBe('works at bakery')
  })

  it('reads these forms in linear time', () => {
    expectLinear(
      `i like to lay ${'just like '.repeat(5_000)}your cow`,
      `my family goes to ${'the '.repeat(10_000)}beach`,
      `my ${'garden '.repeat(10_000)}takes most of my free time`,
      `there is nothing like ${'fresh '.repeat(10_000)}sushi`,
      `i live ${'action '.repeat(10_000)}`,
      `my asthma ${'and maybe '.repeat(5_000)}is bad`,
      `i have bought ${'lots of '.repeat(5_000)}coin though`,
      `i miss the comfort of a good old ${'cheese '.repeat(10_000)}`,
      `i hate to admit ${'it '.repeat(10_000)}, better now that i am ${'well '.repeat(5_000)}`,
    )
  })
})

describe('a title finished by a named author', () => {
  it('keeps it as a book, and a title without one as watched', () => {
    expect(interests('just finished The Road by Cormac McCarthy')).toEqual(['books:The Road'])
    expect(interests('finished Breaking Bad by myself')).toEqual(['movies_tv:Breaking Bad'])
  })

  it('reads it in linear time', () => {
    expectLinear(`just finished The Road by ${'Cormac '.repeat(10_000)}`)
  })
})

describe('a place that opens a message, and a job said of the other speaker', () => {
  it('keeps a known place said as a name would be, and nothing else said that way', () => {
    expect(place('Florida here, everybody is old and retired so I do not stick out.')).toBe('Florida')
    expect(place('hi, leeds here too')).toBe('Leeds')
    expect(place('new york here and its raining')).toBe('New York')
    expect(place('alan here')).toBeUndefined()
    expect(place('Hi, tracy here.')).toBeUndefined()
    expect(place('austin here')).toBeUndefined()
    expect(place('I love paris here')).toBeUndefined()
    expect(place('coffee here is great')).toBeUndefined()
  })

  it('leaves a job to whoever speaks as it', () => {
    expect(job('I bet that you meet some interesting people as a waitress!')).toBeUndefined()
    expect(job('I bet he meets some interesting people as a waiter')).toBeUndefined()
    expect(job('I love classical music as a librarian')).toBe('librarian')
    expect(job('As a nurse I see a lot')).toBe('nurse')
  })

  it('reads them in linear time', () => {
    expectLinear(`${'florida '.repeat(10_000)}here`, `i ${'you '.repeat(10_000)}as a nurse`)
  })
})

describe('names given with "named", dream jobs, relative clauses, states "with no" and "the industry"', () => {
  it('reads the name "named" gives after a pet or a relative of the person, in any case', () => {
    expect(events('I play with my german shepherd named barnaby.')).toContain('their german shepherd is named Barnaby')
    expect(events('I walk my cat named luna every day')).toContain('their cat is named Luna')
    expect(events('my dog named after my grandpa is sick').join(' ')).not.toMatch(/named After/)
    expect(events('my sister named her baby lily').join(' ')).not.toMatch(/is named/)
  })

  it('reads a job wished for said first as a goal, and no job spoken from in a clause about it', () => {
    expect(job('I am fine, being a lawyer is my dream.')).toBe('aspiring lawyer')
    expect(job('being a nurse is my goal')).toBe('aspiring nurse')
    expect(job('being a lawyer is something i want')).toBeUndefined()
    expect(job('being a doctor it is hard')).toBe('doctor')
  })

  it('reads no trait from a verb under way with its object', () => {
    const traits = (data: string) => x(data).personality?.traits?.map((t) => t.value)
    expect(traits('Hello! I am absolutely loving retirement.')).toBeUndefined()
    expect(traits('I am loving my new job')).toBeUndefined()
    expect(traits('i am a caring mother')).toEqual(['caring'])
    expect(traits('i am so loving and kind')).toEqual(['loving', 'kind'])
  })

  it('reads a thing the person acted on in a relative clause as the object of their verb', () => {
    expect(events('I play banjo in the band I formed with my fellow postal workers.')).toContain(
      'formed the band with their fellow postal workers',
    )
    expect(events('the cake i baked was a hit')).toEqual(['baked the cake'])
    expect(events('the house i bought in 2010 was old')).toEqual(['bought the house in 2010'])
    expect(events('the band i worked with was great')).toEqual(['worked with the band'])
  })

  it('reads a state with what the person is without as said', () => {
    expect(events('I am single with no children')).toEqual(['is single with no children'])
    expect(events('i am married with no kids')).toEqual(['is married with no kids'])
    expect(events('I am not single')).toEqual(['is not single'])
  })

  it('reads no workplace from a trade said elsewhere', () => {
    expect(job('Now that is something happy to talk about! I work in the industry')).toBeUndefined()
    expect(job('I work in the music industry')).toBe('works in the music industry')
  })

  it('reads them in linear time', () => {
    expectLinear(
      `my ${'big '.repeat(10_000)}dog named rex`,
      `i work in the ${'the '.repeat(10_000)}industry`,
      `being a ${'very '.repeat(10_000)}good lawyer is my dream`,
      `the band i formed with ${'my '.repeat(10_000)}friends was great`,
      `the ${'big '.repeat(10_000)}band i formed with my friends`,
      `i am single with no ${'very '.repeat(10_000)}kids`,
    )
  })
})

describe('who, when and what of a chat message', () => {
  const dated = (data: string) => (x(data).memories ?? []).map((m) => [m.event, m.date])
  const avoided = (data: string) => (x(data).preferences?.topics_to_avoid ?? []).map((t) => t.value)

  it('reads a gender after an age said without its article', () => {
    expect(core('I am 56 year old woman, not what I used to be...', 'gender')).toBe('female')
    expect(core('i am 30 year old man here', 'gender')).toBe('male')
  })

  it('reads a pastime after a job that shares its article, and a field a school is gone to for', () => {
    expect(job('I am a gardener and hiker.')).toBe('gardener')
    expect(interests('I am a gardener and hiker.')).toContain('hobbies:hiking')
    expect(job('i am going to school for veterinary medicine')).toBe('veterinary medicine student')
    expect(job('I am going to school for the summer')).toBeUndefined()
  })

  it('reads a name written in lower case after a greeting or before "nice to meet you"', () => {
    const name = (data: string) => x(data).core_info?.name?.value
    expect(name("Hi, I'm dawn. I'm a gardener.")).toBe('Dawn')
    expect(name('hey im dawn')).toBe('Dawn')
    expect(name("I'm dawn, nice to meet you.")).toBe('Dawn')
    expect(name('hi i am rose and i love jazz')).toBe('Rose')
    for (const said of [
      "I'm dawn.",
      'hi i am bored',
      'hi i am well',
      'hey i am student',
      'hi i am home',
      'hi i am gamer',
    ])
      expect(name(said), said).toBeUndefined()
  })

  it('takes no name from a sentence about a relative or a hero', () => {
    expect(x('Christopher Columbus is actually a distant relative.').core_info?.name).toBeUndefined()
    expect(x('Serena Williams is my hero.').core_info?.name).toBeUndefined()
    expect(x('Maria Lopez is a nurse from Lisbon. She loves jazz.').core_info?.name?.value).toBe('Maria Lopez')
  })

  it('keeps the lower case of an article that opened a sentence', () => {
    expect(events('A friend gave me this. I am thinking of pursuing counseling as a career.')).toContain(
      'is thinking of pursuing counseling as a career',
    )
  })

  it('keeps what a passive fear names, and how much of a kind is liked out of the kind', () => {
    expect(avoided('My biggest fear is being attacked by scorpions in the desert.')).toEqual([
      'being attacked by scorpions',
    ])
    expect(avoided('i am scared of being bitten by a dog')).toEqual(['being bitten by a dog'])
    expect(interests('I usually listen to more rock these days')).toContain('music:rock')
  })

  it('reads what the people around the person had or did to what is the person’s', () => {
    expect(events('Interesting. My family had a horse farm when I was little.')).toContain(
      'their family had a horse farm',
    )
    expect(events('My dad makes fun of my career choice all the time.')).toEqual([
      'their dad makes fun of their career choice all the time',
    ])
    expect(events('Ha, ha that is funny my husband was homecoming king in high school')).toContain(
      'their husband was homecoming king in high school',
    )
    expect(events('I myself am a dog person but my spouse adores cats.')).toContain('their spouse adores cats')
    expect(interests('I myself am a dog person')).toContain('pets:dog')
  })

  it('names whom a fact said right after their name is about', () => {
    expect(events('my friend Sarah lives in Paris and loves jazz')).toEqual([
      'their friend Sarah lives in Paris and loves jazz',
    ])
    expect(events('my dog Max is a golden retriever')).toEqual(['their dog Max is a golden retriever'])
    expect(events('i love hiking with my dog Max')).toEqual(['their dog is named Max'])
    expect(x('my friend Sarah lives in Paris and loves jazz').core_info?.location).toBeUndefined()
    expect(events('my friend Sarah said I should come')).toEqual([])
  })

  it('dates a family event by its weekday, and a past event of "this weekend" by the weekend under way', () => {
    // 2024-06-15 is a Saturday
    expect(dated('my grandma passed away on Monday')).toEqual([['their grandma passed away', '2024-06-10']])
    expect(dated('I bought a new set of figurines for my collection this weekend.')).toEqual([
      ['bought a new set of figurines for their collection', '2024-06-15'],
    ])
  })
})

describe('origins, trips, studies and career changes said in chat', () => {
  it('reads "from X originally" as where the person came from, below where they have stayed for years', () => {
    expect(place("i'm from brazil originally but been in lisbon for 6 years")).toBe('Lisbon')
    expect(place("i'm from brazil originally")).toBe('Brazil')
    expect(x("i'm from brazil originally").core_info?.location?.confidence).toBeLessThan(
      x("i'm from brazil").core_info?.location?.confidence ?? 0,
    )
  })

  it('keeps a title whose name starts with a number, and no remark after a comma', () => {
    expect(interests('currently reading the three body problem, its wild')).toEqual(['books:three body problem'])
    expect(interests('i love pizza, its my favorite')).toEqual(['food:pizza'])
    expect(values(x('i have two dogs'))).toContain('dog')
  })

  it('takes the place of a trip planned or taken, a place the gazetteer knows only', () => {
    expect(interests('trying to learn japanese before our trip to tokyo in april')).toContain('travel:Tokyo')
    expect(interests("i'm planning a trip to peru")).toContain('travel:Peru')
    expect(interests("we're going to italy next month")).toContain('travel:Italy')
    expect(interests('i am going to the store')).toEqual([])
    expect(interests('we are going to bed')).toEqual([])
    expect(interests('i never took a trip to france')).toEqual([])
  })

  it('makes a plain student precise with what they study', () => {
    expect(job("I'm a student, going to school for nursing")).toBe('nursing student')
    expect(job('i am a student majoring in history')).toBe('history student')
    expect(job('i am a college student majoring in history')).toBe('history student')
    expect(job('studying biology at uni')).toBe('biology student')
    expect(job("i'm a student")).toBe('student')
    expect(job('i am a nurse, studying for the bar exam')).toBe('nurse')
  })

  it('takes the new job or field of a career change', () => {
    expect(job('just switched careers from accounting to ux design')).toBe('works in UX design')
    expect(job('i left my job in finance to become a chef')).toBe('chef')
    expect(job("i'm a teacher. i just switched careers to nursing last year")).toBe('works in nursing')
    expect(job('i moved to denver')).toBeUndefined()
    expect(job('i switched to decaf')).toBeUndefined()
    expect(job('i did not switch careers to nursing')).toBeUndefined()
    expect(job('i switched to it last year')).toBeUndefined()
    expect(job('i work in it support')).toBe('works in IT support')
  })

  it('reads a bio with "y/o", a job after a comma, and a job said after where it is', () => {
    const bio = x("ok so context: i'm a 41 y/o single dad of two, work nights as a security guard")
    expect(bio.core_info?.age?.value).toBe(41)
    expect(bio.core_info?.gender?.value).toBe('male')
    expect(bio.core_info?.occupation?.value).toBe('security guard')
    expect((bio.memories ?? []).map((m) => m.event)).toContain('is a dad of two')
    expect(x('my 3yo is teething').core_info?.age).toBeUndefined()
    expect(job('i just started a new job at a hospital as a pharmacist')).toBe('pharmacist')
    expect(job('i just started a new job at a hospital')).toBe('works at hospital')
  })

  it('reads "been into" without its subject, and a fan said as a nerd or a sucker', () => {
    expect(interests('been super into sourdough baking since the pandemic')).toEqual(['hobbies:sourdough baking'])
    expect(interests("i'm a huge nerd for star wars")).toEqual(['movies_tv:star wars'])
    expect(interests("i'm a total sucker for rom coms")).toEqual(['movies_tv:rom coms'])
    expect(interests('my brother has been super into chess')).toEqual([])
  })

  it('reads the shorthand of chat: "w/", "gf", "bf", and a subjectless "living"', () => {
    expect(place('i live in brooklyn w my gf and our dog')).toBe('Brooklyn')
    expect(events('i live in brooklyn w my gf and our dog')).toContain('has a girlfriend')
    expect(place('living w/ my bf in leeds')).toBe('Leeds')
    expect(place('living the dream lol')).toBeUndefined()
  })

  it("reads the job of the person's job now, not of a first job or someone else's", () => {
    expect(job('the best thing about my job as a teacher is the kids')).toBe('teacher')
    expect(job('my first job as a waiter was awful')).toBeUndefined()
    expect(job("my sister's job as a nurse is hard")).toBeUndefined()
    expect(job('The local supermarket is where I work.')).toBe('works at the local supermarket')
    expect(job('the problem is that i work too much')).toBeUndefined()
    expect(job('I do no have names since one part of my job is walking them.')).toBeUndefined()
    expect(job('my job is walking dogs')).toBe('dog walker')
    expect(place('Ah I live in florida man, I feel you.')).toBe('Florida')
    expect(place('i live on the isle of man')).toBe('Isle Of Man')
  })

  it('reads what "it" points back to in a liking said after a try or after someone else\'s passion', () => {
    expect(interests('i tried sushi last week and loved it')).toEqual(['food:sushi'])
    expect(interests('my boyfriend is obsessed with formula 1 and i kinda got into it too')).toEqual([
      'sports:formula 1',
    ])
    expect(interests('my boyfriend is obsessed with formula 1 and i never got into it')).toEqual([])
    expect(interests('i bought a new car and loved it')).toEqual([])
  })

  it('keeps no pastime cut from its object, nor one of a pronoun', () => {
    expect(interests('I love all their games to be honest')).toEqual([])
    expect(interests('I certainly enjoy entering into never-ending philosophical debates hahaha.')).toEqual([])
    expect(interests('I like to grow my own organic vegetables.')).toContain('food:organic vegetables')
    expect(interests('i love making my own bread')).toEqual(['food:bread'])
  })

  it('takes no name from talk about someone that asks the reader something', () => {
    const film =
      "Judy Davis is a force of nature in the role. Chopin's music can just melt you away, was it the Etudes?"
    expect(x(film).core_info?.name).toBeUndefined()
    const art = 'Surrealism is a bit of work sometimes. He would paint on Christian themes. What do you think of Dali?'
    expect(x(art).core_info?.name).toBeUndefined()
    expect(x('Maria is a 34 year old nurse from Lisbon. She loves jazz.').core_info?.name?.value).toBe('Maria')
  })

  it('reads a role said before a question without a comma, and no habit from the question', () => {
    expect(events('as a diabetic what snacks should i keep at work?')).toEqual(['has diabetes'])
    expect(values(x('as a life coach what do you tell clients?'))).toEqual([])
    expect(x('as a life coach what do you tell clients?').core_info?.occupation).toBeUndefined()
  })

  it('reads the new forms in linear time', () => {
    const long = 'a '.repeat(20_000)
    expectLinear(
      `i switched careers from ${long}to ${long}`,
      `our trip to ${long}`,
      `i am from ${long}originally ${long}`,
      `i am a student, going to school for ${long}`,
      `reading the three ${long}, its ${long}`,
      `i am a 41 y/o ${long}, work nights ${long}`,
      `i just started a new job at ${long} as ${long}`,
      `my job as a ${long}is ${long}`,
      `i live in ${'w '.repeat(20_000)}`,
      `i tried ${long}and loved it`,
      `as a ${long}what ${long}should i ${long}`,
      `my boyfriend is obsessed with ${long}and i got into it too`,
    )
  })
})

describe('what a message to an assistant says of the person', () => {
  it('reads what a request for help says the person is doing, and nothing from a pointing word', () => {
    const trip = x('can you help me plan a 5 day trip to Japan?')
    expect(trip.interests?.travel?.map((s) => s.value)).toEqual(['Japan'])
    expect(trip.memories?.map((m) => m.event)).toEqual(['is planning a 5 day trip to Japan'])
    expect(events('help me write a cover letter for a nursing job')).toEqual([
      'is trying to write a cover letter for a nursing job',
    ])
    expect(events('could you please help me with my resume?')).toEqual(['is working on their resume'])
    expect(x('can you help me understand this error?').memories).toBeUndefined()
    expect(x('help me out here please').memories).toBeUndefined()
    expect(events('my sister asked if you could help her plan a trip to peru')).toEqual(['has a sister'])
  })

  it('reads a statement the person asks how to tell someone, and none that someone else tells them', () => {
    expect(events("how do i tell my boss i'm pregnant")).toEqual(['is pregnant'])
    expect(events('should i tell my girlfriend that i lost my job?')).toContain('lost their job')
    expect(events('i need to let my landlord know i am moving out')).toEqual(['is moving out'])
    expect(events('my sister needs to tell her boss she is pregnant')).toEqual(['has a sister'])
    expect(events('I always tell everyone I am married to the money!')).toEqual([])
  })

  it('reads an event of the person’s own that a question says the time of', () => {
    expect(events('any tips for my first marathon next month?')).toEqual(['their first marathon is next month'])
    expect(events("what should i wear to my sister's wedding next week?")).toEqual([
      "their sister's wedding is next week",
    ])
    expect(events("i'm so nervous about my driving test on monday, any advice?")).toEqual([
      'their driving test is on monday',
    ])
    const dated = x('how should i prepare for my job interview tomorrow?').memories?.[0]
    expect(dated).toMatchObject({ event: 'their job interview is tomorrow', date: '2024-06-16' })
    expect(events('i skipped my yoga class this week')).not.toContain('their yoga class is this week')
    expect(events('any tips for my garden?')).toEqual([])
  })

  it('reads music made as music production, and a freelance job with its noun', () => {
    expect(interests('i produce music in my spare time')).toEqual(['music:music production'])
    expect(interests('I make beats on weekends')).toEqual(['music:music production'])
    expect(interests('i make music videos for my channel')).not.toContain('music:music production')
    expect(job("i'm a freelance videographer")).toBe('freelance videographer')
    expect(job('I just started working as a personal assistant about three months ago')).toBe('personal assistant')
    expect(job("i'm a personal assistant")).toBe('personal assistant')
  })

  it('reads where "here" is from the question before, and no place the question does not name', () => {
    const moved = x('any recommendations for hiking trails near denver? i just moved here')
    expect(moved.core_info?.location?.value).toBe('Denver')
    expect(place("what's there to do in Lisbon on weekends? I live here now")).toBe('Lisbon')
    expect(place('best coffee shops in austin? just moved here last month')).toBe('Austin')
    expect(place('any good coffee shops around? i just moved here')).toBeUndefined()
    expect(place('my sister loves paris. she just moved here')).toBeUndefined()
  })

  it('reads a skill worked at as the pastime, and nothing from a degree or a pointing word', () => {
    expect(interests('how do i get better at chess?')).toEqual(['hobbies:chess'])
    expect(interests('how can i improve my golf swing?')).toEqual(['sports:golf'])
    expect(interests('i want to improve my guitar playing')).toEqual(['music:guitar'])
    expect(interests('working on my swing this summer')).toEqual([])
    expect(interests('I am working on my art degree.')).toEqual([])
    expect(interests('how do i get better at this?')).toEqual([])
    expect(interests('i am not getting better at golf')).toEqual([])
  })

  it('reads a pregnancy hoped for, and a nerd or a geek of a thing as a fan of it', () => {
    expect(events('my husband and i are trying for a baby')).toEqual(['is trying for a baby with their husband'])
    expect(events("we've been ttc for a year")).toEqual(['is trying for a baby'])
    expect(events('my sister is trying for a baby')).not.toContain('is trying for a baby')
    expect(interests("i'm a huge lord of the rings nerd")).toEqual(['books:lord of the rings'])
    expect(interests('i am a total gym nerd')).toEqual(['sports:gym'])
    expect(job("i'm a computer geek")).toBeUndefined()
  })

  it('reads a visit planned as a trip, and chat’s common misspellings as meant', () => {
    const visit = x('im gonna visit Japan next month')
    expect(visit.interests?.travel?.map((s) => s.value)).toEqual(['Japan'])
    expect(visit.memories?.map((m) => m.event)).toEqual(['is going to visit Japan next month'])
    expect(interests('i am visiting my mom')).toEqual([])
    expect(interests('i liek reading')).toEqual(['books:reading'])
    expect(events('i have 2 kids n a dog')).toEqual(['has 2 kids and a dog'])
    expect(events('I have learned alot.')).toEqual(['has learned a lot'])
    expect(events("I haven't played in a while becuase I've been studying for my exams")).toEqual([
      'has been studying for their exams',
    ])
  })

  it('reads a job said with what it mostly does, a year of a school, and a job retired from after a comma', () => {
    expect(job("our team is switching to rust, i'm a backend dev mostly doing python")).toBe('backend developer')
    expect(job("i'm in my second year of med school and completely exhausted")).toBe('medical student')
    expect(job("i'm retired now, spent 30 years as an engineer at boeing")).toBe('retired engineer')
    expect(job('i am retired and a grandma')).toBe('retired')
    expect(job('i am in my second year of marriage')).toBeUndefined()
  })

  it('keeps one memory of an event read twice, and where an event under way is', () => {
    const retired = x("i'm retired now, spent 30 years as an engineer at boeing").memories ?? []
    expect(retired.map((m) => m.event)).toEqual(['spent 30 years as an engineer at boeing'])
    expect(events('i am opening a bakery in portland next spring')).toEqual(['is opening a bakery in portland'])
    expect(events('we are moving to berlin in may')).toEqual(['is moving to berlin'])
    expect(events('i am getting divorced in the fall')).toEqual(['is getting divorced'])
  })

  it('reads a doubt about "ever" as the "never" it says, and no trait from what someone does not think', () => {
    expect(place('nice, i do not think i have ever left ohio')).toBe('Ohio')
    expect(events("i don't think i have ever been to paris")).toEqual(['has never been to paris'])
    expect(interests('i do not think i like jazz')).toEqual([])
    expect(x('i do not think i am shy').personality?.traits ?? []).toEqual([])
    expect(x('my mom does not think i am smart').personality?.traits ?? []).toEqual([])
    expect(x('my mom thinks i am smart').personality?.traits?.map((t) => t.value)).toEqual(['smart'])
  })

  it('reads "its" before a determiner as "it is", and volunteer work done', () => {
    expect(interests('i love gymnastics its my favorite to do as far as sports!')).toEqual(['sports:gymnastics'])
    expect(x('the dog wagged its tail').interests ?? {}).toEqual({})
    expect(interests('i do a lot of volunteer work')).toEqual(['hobbies:volunteering'])
    expect(interests('my mom does a lot of volunteer work')).toEqual([])
  })

  it('reads a time said first ("since i retired") as a clause of its own', () => {
    expect(events('since i retired i travel a lot')).toEqual(['retired'])
    expect(events('after i graduated i moved to boston')).toEqual(['graduated', 'moved to boston'])
    expect(events('since i started college i have no time for hobbies')).toEqual(['started college'])
    expect(events('i move south in the winter since i retired')).toEqual(['retired'])
    expect(events('i play banjo in the band i formed with my friends')).toEqual(['formed the band with their friends'])
  })

  it('reads a bio after a label: an age and a sex, a role, a liking and an aim said without "i"', () => {
    const bio = x(
      'ok so quick background: 34F, product manager at a fintech in Austin, two kids (6 and 9), ' +
        'trying to get back into running',
    )
    expect(bio.core_info?.age?.value).toBe(34)
    expect(bio.core_info?.gender?.value).toBe('female')
    expect(bio.core_info?.occupation?.value).toBe('product manager')
    expect(bio.core_info?.location?.value).toBe('Austin')
    expect(bio.memories?.map((m) => m.event)).toEqual(['has two kids', 'is trying to get back into running'])
    expect(interests('about me: 29, nurse, love hiking')).toEqual(['hobbies:hiking'])
    expect(job('about me: 29, nurse, love hiking')).toBe('nurse')
    expect(x('update: the car broke down again').core_info ?? {}).toEqual({})
  })

  it('reads "veggie", a pastime done so many days a week, a condition dealt with and a habit being quit', () => {
    expect(interests('I went veggie in January')).toEqual(['food:vegetarian'])
    expect(interests('i am a veggie lover')).not.toContain('food:vegetarian')
    expect(interests('i do crossfit 5 days a week')).toEqual(['sports:crossfit'])
    expect(events('dealing with really bad anxiety lately')).toEqual(['has anxiety'])
    expect(events('i have been struggling with depression since college')).toEqual(['has depression'])
    expect(events('my mom is dealing with cancer')).not.toContain('has cancer')
    expect(events("quitting smoking, day 12, it's rough")).toEqual(['is quitting smoking'])
  })

  it('reads no workplace from a month, nor from a job lost', () => {
    expect(job('dealing with really bad anxiety since I lost my job in March')).toBeUndefined()
    expect(job('i lost my job at the bank last year')).toBeUndefined()
    expect(job('my job at the bank is boring')).toBe('works at the bank')
  })

  it('reads sobriety after a comma, a liking against someone else’s dislike, and a measure of the body', () => {
    expect(events("I don't drink, 5 years sober this month")).toEqual(['has been sober for 5 years'])
    expect(events('my brother quit drinking, 5 years sober now')).not.toContain('has been sober for 5 years')
    expect(interests('Sarah said she hates sushi but I love it')).toEqual(['food:sushi'])
    expect(interests('my husband does not like jazz but i love it')).toEqual(['music:jazz'])
    expect(interests('my mom hates my car but i love it')).toEqual([])
    expect(events('my doctor says my cholesterol is high so diet tips would help')).toEqual(['has high cholesterol'])
    expect(events('my iron levels are low')).toEqual(['has low iron'])
    expect(events("my dad's blood pressure is high")).not.toContain('has high blood pressure')
    expect(events('my cholesterol is not high')).toEqual([])
  })

  it('ends an event where a statement of its own is run on without a stop', () => {
    expect(events('I started my new job yesterday I really like it so far.')).toEqual(['started their new job'])
    expect(events('When I recently got fired I got a new job.')).toEqual(['got fired', 'got a new job'])
    expect(events('when my dad died i moved to texas')).toEqual(['their dad died', 'moved to texas'])
    expect(events('Wow, for a couple of years I have been retired')).toEqual(['has been retired'])
    expect(events('Well maybe I will plan a trip with my kid next year.')).not.toContain(
      'will plan a trip with their kid next year',
    )
    expect(events('I used to have a shepard mix now I have a frenchie')).toContain('used to have a shepard mix')
    expect(events('before my mom passed away she hated the same things')).toEqual(['their mom passed away'])
    expect(events('I just found out I am going to Disney next week')).toEqual([
      'found out they are going to Disney next week',
    ])
    expect(events('I learned everything I know from my father')).toEqual([
      'learned everything they know from their father',
    ])
    expect(events('I underestimated how much time I would need for my classes')).toEqual([
      'underestimated how much time they would need for their classes',
    ])
  })

  it('reads self-employment, and no workplace from whom or what for', () => {
    expect(job('I do since I work for myself walking dogs')).toBe('self-employed, walking dogs')
    expect(job('i work for myself and love it')).toBe('self-employed')
    expect(job('working for myself would give more flexibility')).toBeUndefined()
    expect(job('I actually work for with my dad')).toBeUndefined()
    expect(job('I work for money and to get away from my parents')).toBeUndefined()
    expect(job('I work for the a traveling circus')).toBe('works for a traveling circus')
    expect(job('My family has a farm, I work in the fields most days')).toBe('works in the fields')
  })

  it('reads a job said by what is done for a living, with its object', () => {
    expect(job('i produce music for a living')).toBe('music producer')
    expect(job('i build websites for a living')).toBe('web developer')
    expect(job('i cut hair for a living')).toBe('hairdresser')
    expect(job('i fix cars for a living')).toBe('car repairer')
  })

  it('reads the household said with "the", what a mentor did for the person, and a time before a plan', () => {
    expect(events('Me and the family took a road trip to the Grand Canyon.')).toEqual([
      'took a road trip to the Grand Canyon with their family',
    ])
    expect(events('The kids and I made a sandcastle at the beach on Sunday!')).toEqual([
      'made a sandcastle at the beach with the kids',
    ])
    expect(events('My mentor gave me a necklace, it reminds me of home.')).toEqual([
      'their mentor gave them a necklace',
    ])
    expect(events("This weekend I'm running a 5k for charity.")).toEqual(['is running a 5k for charity this weekend'])
    expect(events('next month we are moving to denver')).toEqual(['is moving to denver'])
  })

  it('reads a place after a dev job, a thought after "and honestly", a game taken up and a turn after "anyway"', () => {
    expect(place('im a junior dev at a startup in toronto')).toBe('Toronto')
    expect(events('been a nurse for 12 yrs now and honestly thinking of switching to tech')).toEqual([
      'is thinking of switching to tech',
    ])
    expect(job('been a nurse for 12 yrs now and honestly thinking of switching to tech')).toBe('nurse')
    expect(interests('my students are obsessed with minecraft so i started playing it too')).toEqual([
      'hobbies:minecraft',
    ])
    expect(events('lol my cat just threw up on my keyboard anyway im trying to learn rust for work')).toEqual([
      'is trying to learn rust for work',
    ])
  })

  it('reads a step of a life planned without a time, and the household\'s plan said with "we"', () => {
    expect(events("I'm going to get married")).toEqual(['is going to get married'])
    expect(events('I plan to retire early')).toEqual(['plans to retire early'])
    expect(events("I'm gonna finish my degree and then look at jobs in urban planning")).toEqual([
      'is going to finish their degree',
    ])
    expect(events("I'm going to go back to school")).toEqual(['is going to go back to school'])
    expect(events('we are planning to move abroad')).toEqual(['plans to move abroad'])
    expect(events("we're hoping to buy our own franchise")).toEqual(['hopes to buy their own franchise'])
    // a moment is no plan, a life step done to someone else is not the person's, and a plan stays no place lived in
    expect(events("I'm going to make dinner")).toEqual([])
    expect(events('Trying to marry me off.')).toEqual([])
    expect(events('we just hope to tire them out')).toEqual([])
    expect(place("we're going to be moving to Colorado")).toBeUndefined()
    // a pregnancy said as a plan is read as the event under way
    expect(events("I'm going to have a baby")).toEqual(['is expecting a baby'])
  })

  it('keeps where the person volunteers beside the pastime', () => {
    const said = x("I've been volunteering at the animal shelter since March")
    expect(interestsIn(said)).toEqual(['hobbies:volunteering'])
    expect((said.memories ?? []).map((m) => m.event)).toEqual(['has been volunteering at the animal shelter'])
    expect(events("I've been volunteering")).toEqual([])
  })

  it('reads the field a career ended up in, and no job from where else one ends up', () => {
    expect(job('I ended up in accounting after college')).toBe('works in accounting')
    expect(job('I ended up as a nurse')).toBe('nurse')
    expect(job('I ended up working in IT')).toBe('works in IT')
    expect(job('I ended up in the hospital last week')).toBeUndefined()
    expect(job('we ended up in tears')).toBeUndefined()
    expect(job('my brother ended up in sales')).toBeUndefined()
  })

  it('reads a condition given as the reason for what the person did or stopped, not someone else’s', () => {
    expect(events('I went gluten free because of celiac')).toContain('has celiac')
    expect(events('I quit running due to my bad knee')).toContain('has a bad knee')
    expect(events('I stopped drinking coffee because of my anxiety, it was bad')).toContain('has anxiety')
    expect(events('my sister went vegan because of her celiac')).not.toContain('has celiac')
    expect(events("I went gluten free because of my sister's celiac")).not.toContain('has celiac')
    expect(events('I learned a lot because of depression awareness week')).not.toContain('has depression')
    // a reason that only points back is no part of the event
    expect(events('I moved north because of them.')).toEqual(['moved north'])
    expect(events('I do not go out much because of my water allergy')).toEqual([
      'does not go out much because of their water allergy',
    ])
  })

  it('names no relative from a list of people after a comma, and keeps no fact that only points at "here"', () => {
    expect(events('my sister, Matt and Kim played at the fest last night')).toEqual(['has a sister'])
    expect(events('my sister, Matt, played at the fest')).toEqual(['their sister is named Matt'])
    expect(events('my brother Tom and Kim came over')).toEqual(['their brother is named Tom'])
    expect(events("I'm new here")).toEqual([])
    expect(events('my family lives here')).toEqual([])
    expect(events('my family lives in Ohio')).toEqual(['their family lives in Ohio'])
  })

  it('reads a grade taught, an age given as a reason and a second favourite', () => {
    expect(job('I teach fourth graders, most nights I need a drink.')).toBe('fourth grade teacher')
    expect(job('i teach 3rd grade at a public school')).toBe('3rd grade teacher')
    expect(job('I teach grade school kids')).toBe('teacher')
    expect(core("Yeah. I think since I'm only 23 there's plenty of time to learn.", 'age')).toBe(23)
    expect(core("because I'm 70 my kids worry about me", 'age')).toBe(70)
    for (const said of ['since I am 5 minutes away I can come', "since i'm 2 i can't remember"])
      expect(core(said, 'age'), said).toBeUndefined()
    expect(interests('Pizza is my favorite. Sushi is my other favorite!')).toEqual(['food:pizza', 'food:sushi'])
    // having no favorite or no preference is no fact to keep
    expect(events('I like comedy movies but do not have a favorite')).toEqual([])
    expect(events("Awesome! I love them both. I don't have a preference.")).toEqual([])
  })

  it('reads what kind of thing is liked as the thing, gambling, and no food from verbs listed after a comma', () => {
    expect(x('I hate any kind of seafood').preferences?.topics_to_avoid).toEqual([
      { value: 'seafood', confidence: 0.5 },
    ])
    expect(interests('I like any type of sports')).toEqual(['sports:sports'])
    expect(interests('now I grill, gamble and have fun')).toEqual(['hobbies:grilling', 'hobbies:gambling'])
    expect(interests('I grill burgers on weekends')).toContain('food:burgers')
    expect(interests('I bake, knit and garden')).toEqual(['hobbies:baking', 'hobbies:knitting', 'hobbies:gardening'])
  })

  it('reads a job paid for, a farm worked on before a comma, and a job spoken from toward "me"', () => {
    expect(job('I get paid to walk dogs')).toBe('dog walker')
    expect(job('i get paid to write code')).toBe('programmer')
    expect(job('I got paid to say that')).toBeUndefined()
    expect(job('I walk dogs on the side')).toBe('dog walker')
    expect(job('I clean houses for extra money')).toBe('house cleaner')
    expect(job('I drive for uber on the side')).toBe('drives for Uber')
    expect(job('I work on the side of the road')).toBeUndefined()
    expect(job("Working on a farm, I've to stay active.")).toBe('works on a farm')
    expect(job('working on my novel, I forgot to eat')).toBeUndefined()
    expect(job('As a farmer the title really stood out to me')).toBe('farmer')
    for (const said of ['As a teacher he was great to me', 'As a kid my mom took me there', 'as a coach, you know'])
      expect(job(said), said).toBeUndefined()
  })

  it('reads no pet after "have" that helps another verb, and no place from a verb after "and"', () => {
    expect(x("I've needed a good movie to watch lately so that's two birds with one stone").interests).toBeUndefined()
    expect(x("I've been begging my parents to get me a dog").interests).toBeUndefined()
    expect(interests('I have adopted two cats')).toEqual(['pets:cat'])
    expect(interests('I have always had two dogs')).toEqual(['pets:dog'])
    expect(interests('I have been to the zoo and saw two tigers')).toEqual(['travel:zoo'])
    expect(interests('I love pizza and baked goods')).toContain('food:pizza')
    expect(interests('I love pizza and baked goods')).toHaveLength(2)
  })

  it('reads a move under way without a place, said with "will be" too, and moving in with someone', () => {
    expect(events("I'm moving soon")).toEqual(['is moving'])
    expect(events('And yes, I will be moving, a fresh new start is much needed.')).toEqual(['is moving'])
    expect(events('we will be moving to Texas')).toEqual(['is moving to Texas'])
    expect(events('I am moving in with my boyfriend next week')).toEqual(['is moving in with their boyfriend'])
    expect(events("I'll be retiring in a few years")).toEqual(['is retiring'])
    for (const said of ['i am moving the couch', 'i will be moving some boxes', 'we are moving on'])
      expect(events(said), said).not.toContain('is moving')
  })

  it('reads an age before "btw" and a relative with an adverb after it', () => {
    expect(core('im 27 btw and i live in manila', 'age')).toBe(27)
    expect(core("I'm 31 fyi", 'age')).toBe(31)
    expect(core('i am 52 by the way', 'age')).toBe(52)
    expect(core('i am 6 feet tall btw', 'age')).toBeUndefined()
    expect(events('me and my girlfriend just got engaged last weekend')).toEqual(['got engaged with their girlfriend'])
    expect(events('my best friend and i finally moved to Denver')).toEqual(['moved to Denver with their best friend'])
  })

  it('reads what "we" do as the person\'s own, and nothing done to each other', () => {
    expect(events("we're renovating the kitchen")).toEqual(['is renovating the kitchen'])
    expect(events('we have been saving up for a house')).toEqual(['has been saving up for a house'])
    expect(events('we go to yosemite every summer')).toEqual(['goes to yosemite every summer'])
    expect(events('we grow corn and soybeans on the farm')).toEqual(['grows corn and soybeans on the farm'])
    expect(interests('our family is going to Italy this summer')).toEqual(['travel:Italy'])
    for (const said of [
      'we live together',
      'we train together every week',
      'we share some common interests',
      'we play with his toys',
      'we go home after that',
      'we sell first',
      'we all need more sleep',
      'we are working',
    ])
      expect(x(said).memories, said).toBeUndefined()
    expect(interests('my family is from Italy')).toEqual([])
  })

  it('reads where a home was bought as where the person lives, and not a second home', () => {
    expect(place('we just bought our first house in Austin!')).toBe('Austin')
    expect(place('my husband and i just bought a house in Leeds')).toBe('Leeds')
    expect(place('we bought a vacation home in Florida')).toBeUndefined()
    expect(place('I bought a house in the suburbs')).toBeUndefined()
  })

  it('keeps the relative who reports a fact of the person', () => {
    expect(events('my husband thinks im crazy for collecting vinyl')).toEqual(['has a husband'])
    expect(events("my sister says I'm too stubborn")).toEqual(['has a sister'])
    expect(events('my friend said her husband is a pilot')).toEqual([])
  })

  it('keeps where the person is originally from beside where they live', () => {
    const moved = x('im from brazil originally but i live in berlin now')
    expect(moved.core_info?.location?.value).toBe('Berlin')
    expect(moved.memories?.map((m) => m.event)).toEqual(['is originally from Brazil'])
    expect(events("I'm originally from Kerala, now in Dubai")).toEqual(['is originally from Kerala'])
  })

  it('reads the subject of a first degree, and the subject studied part time', () => {
    expect(job("I'm finishing my degree in psychology while working as a barista")).toBe('psychology student')
    expect(job("I'm doing a bachelors in computer science")).toBe('computer science student')
    expect(job('I study nursing part time')).toBe('nursing student')
    expect(job("I'm doing my degree in London")).toBe('college student')
    expect(job("I'm finishing my degree in may")).toBe('college student')
    expect(job('I am getting my degree in the fall')).toBe('college student')
    expect(job("I'm doing my masters in computer science")).toBe('computer science graduate student')
  })

  it('reads the subject after a level of study, and no place or time as one', () => {
    expect(job("i'm a PhD student in neuroscience at UCL, 3rd year")).toBe('neuroscience phd student')
    expect(job("I'm a masters student studying economics")).toBe('economics masters student')
    expect(job("I'm a student in computer science")).toBe('computer science student')
    expect(job("I'm a grad student in London")).toBe('grad student')
    expect(job("I'm a student in my final year")).toBe('student')
  })

  it('reads a trip come back from, a move after a comma, and no second thing from a verdict', () => {
    expect(interests('just got back from a week in Lisbon with my girlfriend, best trip ever')).toEqual([
      'travel:Lisbon',
    ])
    expect(interests("we're back from our honeymoon in Bali")).toEqual(['travel:Bali'])
    expect(interests('got back from work late')).toEqual([])
    expect(events("We're a military family, moving to Germany next summer")).toEqual(['is moving to Germany'])
    expect(interests('currently reading dune and loving it')).toEqual(['books:dune'])
  })

  it('reads a job two people share, a count of places, a style request and a topic kept out', () => {
    expect(job('my wife and i are both teachers')).toBe('teacher')
    expect(job('we are both nurses')).toBe('nurse')
    expect(events('my wife and i are both teachers')).toEqual(['has a wife'])
    expect(interests('we are both big fans of jazz')).toEqual(['music:jazz'])
    expect(x('i am friends with her').memories).toBeUndefined()
    expect(place("i've lived in 6 countries but japan felt most like home")).toBeUndefined()
    expect(place('I have lived in several different states')).toBeUndefined()
    expect(interests('I prefer short answers with bullet points')).toEqual([])
    expect(x('I prefer short answers with bullet points').preferences?.conversation_style?.value).toBe('concise')
    const podcasts = x('can you suggest some podcasts? i like history and true crime, nothing political')
    expect(podcasts.preferences?.topics_to_avoid?.map((t) => t.value)).toEqual(['politics'])
    expect(x('no politics please').preferences?.topics_to_avoid?.map((t) => t.value)).toEqual(['politics'])
    expect(x('no meat please').preferences?.topics_to_avoid).toBeUndefined()
    expect(x('no news is good news').preferences?.topics_to_avoid).toBeUndefined()
    expect(x('No politics, no religion? What do you talk about?').preferences?.topics_to_avoid).toBeUndefined()
  })

  it('reads a young child named by age group, and a trip after a comma', () => {
    expect(events('we have a toddler and a dog')).toEqual(['has a toddler'])
    expect(events('our newborn is not sleeping')).toEqual(['has a newborn'])
    expect(x('we have a child advocacy group').memories).toBeUndefined()
    const trip = x('need a packing list, heading to iceland with my dad next week')
    expect(interestsIn(trip)).toEqual(['travel:Iceland'])
    expect(trip.memories?.map((m) => m.event)).toEqual(['is going to iceland with their dad next week'])
  })

  it('reads a dance named before "dance", and an age that opens a bio before who the person is', () => {
    expect(interests('I pole dance on weekends')).toEqual(['hobbies:pole dancing'])
    expect(interests('I line dance every friday')).toEqual(['hobbies:line dancing'])
    expect(interests('I also dance')).toEqual(['hobbies:dancing'])
    const bio = x('me: 22, junior at ohio state, majoring in econ, obsessed with formula 1')
    expect(bio.core_info?.age?.value).toBe(22)
    expect(bio.core_info?.occupation?.value).toBe('econ student')
    expect(interestsIn(bio)).toEqual(['sports:formula 1'])
    expect(core("20, that's a lot", 'age')).toBeUndefined()
    expect(core('10, he said', 'age')).toBeUndefined()
  })

  it('reads a year of school with its school, a favourite of now, recovery, and no condition only suspected', () => {
    expect(job("i'm a sophomore in college studying biology, want to go to med school")).toBe('biology student')
    expect(job("I'm a senior in high school and I play on the volleyball team")).toBe('high school student')
    expect(job("I'm a junior at Ohio State majoring in econ")).toBe('econ student')
    expect(job("I'm a senior and I love bingo")).toBeUndefined()
    expect(interests('my favorite show right now is severance')).toEqual(['movies_tv:severance'])
    const recovery = x('in recovery from an eating disorder, please avoid talking about calories')
    expect(recovery.memories?.map((m) => m.event)).toEqual(['is in recovery from an eating disorder'])
    expect(recovery.preferences?.topics_to_avoid?.map((t) => t.value)).toEqual(['calories'])
    expect(x('my therapist thinks i have adhd, getting tested next week').memories).toBeUndefined()
    expect(events('my doctor says I have diabetes')).toEqual(['has diabetes'])
  })

  it('keeps a quoted title whole in a memory, and no place from exploring an idea', () => {
    expect(events('I just finished reading "Becoming Nicole", it was so inspiring.')).toEqual([
      'finished reading "becoming Nicole"',
    ])
    expect(closedQuotes('watched "the bear')).toBe('watched "the bear"')
    expect(closedQuotes('said it was "great')).toBe('said it was "great"')
    expect(closedQuotes('finished it"')).toBe('finished it')
    expect(closedQuotes('read "dune" twice')).toBe('read "dune" twice')
    expect(interests('exploring career options in counseling')).toEqual([])
    expect(interests('I love exploring Japan')).toEqual(['travel:Japan'])
  })

  it('reads the kinds a fan mostly takes, and a job a pay is earned as', () => {
    expect(interests("I'm a big reader, mostly sci-fi and fantasy")).toEqual([
      'books:reading',
      'books:sci-fi',
      'books:fantasy',
    ])
    expect(interests('huge gamer, mainly rpgs and strategy games')).toEqual(['hobbies:rpgs', 'hobbies:strategy games'])
    expect(interests('my son is a huge gamer, mostly rpgs')).toEqual([])
    expect(job("can you help me budget? i make about 50k a year as a teacher's aide")).toBe("teacher's aide")
    expect(job('i make $18 an hour as a cashier')).toBe('cashier')
    expect(job('i make 5 dollars as a joke')).toBeUndefined()
  })

  it('reads a time of day written with full stops inside one sentence', () => {
    expect(events('We practice every day from 6 p.m. to 9 p.m. after school')).toEqual([
      'practices every day from 6 pm to 9 pm',
    ])
    expect(events('I wake up at 5 a.m. I love it')).not.toContain('wakes up at 5 a')
  })

  it('reads the request forms in linear time', () => {
    const long = 'a '.repeat(20_000)
    expectLinear(
      `i am going to visit ${long}`,
      `i am retired now, spent ${long}`,
      `i am opening a bakery in ${long}`,
      `i am in my second year of ${long}`,
      `${'n '.repeat(20_000)}`,
      `how do i get better at ${long}`,
      `i am working on my ${long}swing`,
      `trails near ${long}? i just moved here ${long}`,
      `i am a ${long}nerd`,
      `we are trying for a ${long}`,
      `can you help me ${long}`,
      `help me with my ${long}please`,
      `how do i tell my ${long}i am ${long}`,
      `to tell ${long}that i am ${long}`,
      `any tips for my ${long}wedding next ${long}`,
      `nervous about my ${long}surgery ${long}`,
      `i do not think i ${long}have ever left ${long}`,
      `its ${long}my ${long}`,
      `i do ${long}a lot of volunteer work`,
      `since i ${long}i ${long}`,
      `the ${long}since i retired`,
      `background: 34f, ${long}, love ${long}, trying to ${long}`,
      `two kids (${'1 and '.repeat(5_000)}9)`,
      `dealing with ${long}anxiety`,
      `i lost my ${long}job in march`,
      `i do crossfit ${'5 '.repeat(20_000)}days a week`,
      `i do not ${long}, 5 years sober`,
      `my friend hates ${long}but i love it`,
      `my cholesterol is ${'really '.repeat(20_000)}high`,
    )
  })

  it('reads the request forms in linear time, second half', () => {
    const long = 'a '.repeat(20_000)
    expectLinear(
      `i started my new job ${'now i '.repeat(5_000)}am`,
      `i underestimated how ${long}i would`,
      `i work for myself walking ${long}`,
      `working ${'a '.repeat(20_000)}would`,
      `me and the family ${long}`,
      `this weekend ${long}`,
      `my mentor gave me ${long}`,
      `${'x anyway i '.repeat(5_000)}`,
      `we are planning to ${long}`,
      `i am going to retire ${long}`,
      `i have been volunteering at ${long}`,
      `i ${long}because of ${long}`,
      `i ${long}due to my ${long}celiac`,
      `i ended up in ${long}`,
      `my sister, ${'matt and '.repeat(5_000)}kim`,
      `i am a dev at ${long}in ${long}`,
      `i teach ${'fourth '.repeat(20_000)}graders`,
      `since i am only 23 ${'there '.repeat(20_000)}`,
      `${'sushi '.repeat(20_000)}is my other favorite`,
      `i hate ${'any kind of '.repeat(5_000)}seafood`,
      `i grill${', gamble'.repeat(10_000)}`,
      `i get paid to ${long}`,
      `i walk ${long}on the side`,
      `working on a farm${', x'.repeat(10_000)}`,
      `as a farmer ${'the '.repeat(20_000)}me`,
      `as a ${'farmer '.repeat(20_000)}`,
      `i have ${'needed '.repeat(20_000)}two birds`,
      `i have been to the zoo${' and'.repeat(20_000)} saw`,
      `i will be moving in with my ${long}`,
      `we will be moving in the ${'spring '.repeat(20_000)}`,
    )
  })

  it('reads "we", relatives, studies, trips and times of day in linear time', () => {
    const long = 'a '.repeat(20_000)
    expectLinear(
      `i am ${'5 '.repeat(20_000)}btw`,
      `me and my ${'just '.repeat(20_000)}got engaged`,
      `we go ${'together '.repeat(20_000)}`,
      `our family is ${'really '.repeat(20_000)}going`,
      `i am finishing my degree in ${long}`,
      `i study ${'nursing '.repeat(20_000)}part time`,
      `${'6 p.m. '.repeat(20_000)}`,
      `we bought a ${'new '.repeat(20_000)}house in ${long}`,
      `i am a phd student in ${long}`,
      `just got back from a ${'week '.repeat(20_000)}in lisbon`,
      `reading ${'dune and '.repeat(10_000)}loving it`,
      `we are a family${', moving to x'.repeat(5_000)}`,
    )
  })

  it('reads shared jobs, counts of places, topics kept out, children, dances and bios in linear time', () => {
    expectLinear(
      `my wife and i are both ${'big '.repeat(20_000)}teachers`,
      `i have lived in ${'6 '.repeat(20_000)}countries`,
      `i prefer ${'short '.repeat(20_000)}answers`,
      `nothing ${'too '.repeat(20_000)}political`,
      `we have a ${'newborn '.repeat(20_000)}`,
      `i ${'pole '.repeat(20_000)}dance`,
      `me: 22, ${'junior '.repeat(20_000)}`,
      `22${', obsessed with x'.repeat(5_000)}`,
    )
  })

  it('reads years of school, favourites of now, recovery, fans, pay and quotes in linear time', () => {
    const long = 'a '.repeat(20_000)
    expectLinear(
      `i am a junior at ${'the '.repeat(20_000)}majoring in econ`,
      `my favorite show ${'right now '.repeat(10_000)}is x`,
      `in recovery from ${long}, please avoid ${long}`,
      `i am a big reader, mostly ${long}`,
      `i make 50k${' a year'.repeat(5_000)} as a cashier`,
      `read "${long}`,
    )
  })
})
