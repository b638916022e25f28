// The offline, deterministic extractor (docs/architecture/local-extractor.md): rules over compromise POS tags, lexicons
// and chrono-node dates. English only: for text detected as another language only `language` is reported.
import type { Extraction, ProfileContent } from '../../domain/profile.js'
import { ConversationFormatError, parseConversation, subjectTurns, turnsOf } from '../conversation.js'
import { detectLanguage, functionWordShare } from '../language.js'
import type { ExtractionInput, ExtractRequest, ExtractResult, Extractor } from '../types.js'
import { Acc } from './acc.js'
import { addressedName, type AddressedName } from './addressed.js'
import { answersOf, questionsBefore, type Answer } from './answers.js'
import { GIVES_NAME, GREETED, ruleAge, ruleGender, ruleLocation, ruleName } from './core.js'
import { compiledFor, readCustomFields, type CompiledSchema } from './custom-fields.js'
import { ruleFieldLine } from './fields.js'
import {
  addPetMentions,
  favoriteAside,
  favoriteOfKindBefore,
  likedOfBefore,
  gotIntoBefore,
  likedWhichBefore,
  eatenOfBefore,
  frontedLike,
  narrowedLike,
  contrastedLike,
  petMentions,
  ruleInterests,
  type PetMention,
} from './interests.js'
import { eventAskedAbout, ruleMemories } from './memories.js'
import { afterPrepositions, placeAfter } from './gazetteer.js'
import { ruleNegation, ruleUsedTo } from './negation.js'
import { isVerbAfterI, isVerbAfterTo } from './nlp.js'
import { ruleOccupation } from './occupation.js'
import { ruleConditionReported, ruleNeeds } from './needs.js'
import { ruleFaith } from './faith.js'
import { addKin, kinMentions, type KinMention } from './kin.js'
import { ruleLanguages } from './languages.js'
import { ruleStatement } from './statements.js'
import { factOfNamedBefore, nameOfNamedBefore, ruleNamesSaid, ruleStandingFacts } from './standing.js'
import { otherSubject, withoutOthersQuotes } from './others.js'
import { rulePeopleSay, rulePersonality } from './personality.js'
import { rulePreferences } from './preferences.js'
import { describe, type ClauseInfo, type RuleContext } from './rules-common.js'
import { pattern } from './regex.js'
import {
  coordinatedClauses,
  dropCopulaAdverbs,
  fragmentClause,
  ownPartOfSubject,
  partnerOf,
  ownRelative,
  roleBefore,
} from './clauses.js'
import { CaseMap, type Clause, normalize, singular, splitClauses } from './text.js'
import { toFirstPerson } from './third-person.js'
import { Tracer, type TracedValue } from './trace.js'

export interface LocalExtractorOptions {
  /** Clock for relative dates ("last year"); injected so that tests are deterministic. Default: the system clock. */
  now?: () => Date
}

type Input = Pick<ExtractionInput, 'inputType' | 'data' | 'referenceDate'>

/** An extraction with the rules behind its values (see `explainOne`). */
export interface Explanation {
  extraction: Extraction
  /** Every value of the extraction, in its order, with the rules that produced it. */
  trace: TracedValue[]
}

export class LocalExtractor implements Extractor {
  readonly name = 'local'
  private readonly now: () => Date

  constructor(options: LocalExtractorOptions = {}) {
    this.now = options.now ?? (() => new Date())
  }

  async extract(req: ExtractRequest, signal?: AbortSignal): Promise<ExtractResult> {
    const extractions: Extraction[] = []
    // Compiled once per app schema version (cached), then read in one pass per submission.
    const custom = req.customSchema ? compiledFor(req.customSchema.key, req.customSchema.schema) : undefined
    for (const s of req.submissions) {
      signal?.throwIfAborted()
      extractions.push(this.run(s, req.profile, undefined, custom))
    }
    return { extractions }
  }

  /** Extraction from one submission (synchronous; `extract` wraps it). */
  extractOne(input: Input, profile?: ProfileContent): Extraction {
    return this.run(input, profile)
  }

  /** As `extractOne`, with the rule behind each value and the text it matched: for debugging, slower. */
  explainOne(input: Input, profile?: ProfileContent): Explanation {
    const trace = new Tracer()
    const extraction = this.run(input, profile, trace)
    return { extraction, trace: trace.explain(extraction) }
  }

  private run(input: Input, profile: ProfileContent | undefined, trace?: Tracer, custom?: CompiledSchema): Extraction {
    const ex = this.runStandard(input, profile, trace)
    if (!custom) return ex
    const text = input.inputType === 'conversation' ? personText(input.data) : input.data
    const values = text ? readCustomFields(boundTokens(text), custom) : {}
    return Object.keys(values).length ? { ...ex, custom: values } : ex
  }

  private runStandard(input: Input, profile: ProfileContent | undefined, trace?: Tracer): Extraction {
    let text: string
    let addressed: AddressedName | undefined
    let answers: Answer[] = []
    let asked = new Map<string, string>()
    if (input.inputType === 'conversation') {
      try {
        const conversation = parseConversation(input.data)
        // each turn is its own paragraph, so sentences never run across turns
        text = turnsOf(conversation).join('\n')
        addressed = addressedName(conversation)
        answers = answersOf(conversation)
        asked = questionsBefore(conversation)
      } catch (err) {
        // The HTTP layer rejects malformed conversations; one that slips through yields nothing (retrying
        // would not help, and another speaker's words must never be attributed to the person).
        if (err instanceof ConversationFormatError) return {}
        throw err
      }
    } else {
      text = input.data
    }
    text = boundTokens(text)
    const language = detectLanguage(text)
    if (!text.trim()) return {}
    // The rules read English. Text detected as another language yields only its language, unless it still reads
    // as English (a list of names and nouns can fool the detector).
    if (language && language !== 'en' && functionWordShare(text, 'en') < 0.15) return { language }
    return extractFromText(text, {
      referenceDate: referenceDate(input.referenceDate) ?? this.now(),
      profile,
      allowThirdPerson: input.inputType === 'text',
      language: language ?? null,
      trace,
      ...(addressed ? { addressed } : {}),
      answers,
      asked,
    })
  }
}

/** The submission's own time, when it has a valid one. */
function referenceDate(iso: string | undefined): Date | undefined {
  if (!iso) return undefined
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/** The profiled person's turns of a conversation as one text; empty when the transcript cannot be read. */
function personText(data: string): string {
  try {
    return subjectTurns(data).join('\n')
  } catch (err) {
    if (err instanceof ConversationFormatError) return ''
    throw err
  }
}

/** Longest run of non-space characters the rules read; no English word is longer, and URLs carry no facts. */
export const MAX_TOKEN_CHARS = 64

/**
 * Drops runs of non-space characters longer than MAX_TOKEN_CHARS. Patterns such as `\S+@\S+` backtrack over a whole
 * run from every position in it, so a 100 KB run of one character took seconds (quadratic); with runs bounded, every
 * rule is linear in the text's length.
 */
export function boundTokens(text: string): string {
  return text.replace(LONG_RUN, ' ')
}
const LONG_RUN = new RegExp(`\\S{${MAX_TOKEN_CHARS + 1},}`, 'g')

export interface TextOptions {
  referenceDate: Date
  profile?: ProfileContent
  /** Rewrite text about one person in the third person ("Maria is a nurse") into the first person. */
  allowThirdPerson?: boolean
  /** The detected language; null when detection found none; undefined to detect it here. */
  language?: string | null
  /** Records the rule behind each value (see `LocalExtractor.explainOne`); off by default, as it costs time. */
  trace?: Tracer
  /** The name the other speakers of a conversation address the person by: the name when the text gives none. */
  addressed?: AddressedName
  /** What the person said by answering the other speakers' questions ("what do you do?" "nurse"). */
  answers?: readonly Answer[]
  /** The other speakers' last question before a turn of the person's, by the turn's first line (normalised). */
  asked?: ReadonlyMap<string, string>
}

/** "... and hope to make it big", "... and thinking of going back to school": a wish or a hedge after "and". */
const WISH_AFTER = new RegExp(
  pattern`\s(?:and|but)\s+(?:i\s+)?(?:(?:also|really|still)\s+)?(?:hope|want|wish|plan|dream|would like|would love|
  might|may|maybe|could|(?:am )?thinking (?:of|about)|(?:am )?considering)\b`,
)

/** Where an aim goes on from a noun phrase: "a nurse trying to get into running". */
const AIM_AFTER = /\s(?=(?:trying|hoping|looking|wanting|planning|aiming|learning) to\b)/

/**
 * A clause that asks the reader something ("what are good chore charts", "any tips"), or goes on from a preposition
 * ("... because of kdramas"): no more of what the person is.
 */
const QUESTION_OPENING = new RegExp(pattern`^(?:what|how|why|when|where|who|which|whose|any|anyone|can|could|should|
  would|will|do|does|did|is|are|of|for|from|about|by)\b`)

/** A name the other speakers address the person by: below every rule that reads the person's own words. */
const ADDRESSED_CONFIDENCE = 0.5
/** An answer is surer than a greeting and less sure than the same words said outright (a short reply can be a joke). */
const ANSWER_WEIGHT = 0.8

/** "what is your favorite food?": what is asked about (1). */
const ASKS_YOURS = /^(?:so |and |well )?(?:what|which|who) (?:is|are|was) your ((?:[a-z]+ ){0,3}?[a-z]+)$/
/** "do you like dogs?": the verb (1) and what is asked about (2). */
const ASKS_DO = /^(?:so |and |well )?do you (like|love|enjoy|have|own|play|watch) ((?:[a-z'-]+ ){0,4}[a-z'-]+)$/
/** "mine is papaya": the verb (1) and the answer (2). */
const MINE_IS = /^mine (is|are|would be|has to be|was) (.+)$/
/** "what is your favorite drink mine is tea": the question (1) and the answer (2), written with no question mark. */
const ASKED_AND_MINE = /^((?:so |and |well )?(?:what|which|who) (?:is|are|was) your (?:[a-z]+ ){0,3}?[a-z]+) (mine .+)$/
/** "friday is mine": the answer (1) said before "mine". */
const IS_MINE = /^((?:[a-z'-]+ ){0,4}[a-z'-]+) (?:is|are|would be) (?:definitely |probably )?mine$/
/** "are you a morning person?", "would you consider yourself a feminist?": what is asked about (1). */
const ASKS_ARE = new RegExp(pattern`^(?:so |and |well )?(?:are you|would you (?:consider|call) yourself|
  do you (?:consider|call) yourself) ((?:[a-z'-]+ ){0,4}[a-z'-]+)$`)
/** "i am", "i am for sure": the person says the same of themself. */
const ANSWER_AM = /^(?:yes |yeah |yep )?i am(?: too| for sure| definitely| totally| absolutely| indeed)?$/
/** "i am an older woman who is afraid of dying": what is said of the person after "who is" (1). */
const WHO_IS = /^i am (?:a|an) (?:[a-z-]+ ){1,4}?(?:who|that) (?:is|am) (.+)$/
/** "you sound just like me, a party animal": who the person is (1), said after "like me". */
const LIKE_ME_A = /\blike me,? ((?:a|an) [a-z]+(?: [a-z]+)?)$/
/** "i do", "i love it": the person's answer to their own question, which the next clause may go on with. */
const ANSWER_DO = new RegExp(pattern`^(?:(?:on )?weekends |sometimes |yes |yeah |yep |of course )?
  i (?:do|really do|love it|love them|like it|like them)(?: too| on (?:the )?weekends| sometimes| a lot| every day)?$`)
/** "do you dance by any chance?": any verb asked about (1), with what follows it (2). */
const ASKS_DO_ANY = /^(?:so |and |well )?do you (?:ever |also |still )?([a-z]+)((?: [a-z'-]+){0,4})$/
/** What a question may end with that is no part of what it asks about. */
const ASKED_IN_PASSING = / (?:by any chance|at all|ever|much|often)$/
/** "i have three": how many (1) of what the person's own question asked about. */
const ANSWER_HAVE_COUNT =
  /^i (?:have|own|got) (two|three|four|five|six|seven|eight|nine|ten|\d+|a few|several)(?: of them)?$/
/** "mine is named rex": the name (1) of the one the person's own question asked about. */
const MINE_NAMED = /^(?:mine is|mine was|my one is) (?:named|called) ([a-z][a-z'-]*)$/
/** "who doesn't love cheeseburgers?", "who does not like a good nap": the verb (1) and what is liked (2). */
const RHETORICAL_LIKE = /^(?:but |and |i mean )?who (?:does not|would not) (love|like|enjoy) (.+)$/
/**
 * "can you help me plan a trip to japan?", "help me write a cover letter": a request that says what the person is
 * doing (1), or "help me with my resume": what they are working on (2).
 */
const HELP_ME = new RegExp(pattern`^(?:(?:hey|hi|ok|so|please|pls|plz),? )*(?:(?:can|could|would|will) (?:you|u)
  (?: please| pls)? )?help me (?:to )?(?:(?!(?:out|with|please|pls|here|now|and|or|a|an|the|it|this|that|so|
  because|if|i|you|me|my|our)\b)([a-z]+ [a-z0-9'-]+(?: [a-z0-9'-]+)*)|with ((?:my|our) [a-z0-9'-]+(?: [a-z0-9'-]+)*))
  (?: please| pls)?$`)
/** "i just moved here", "we live here now": a move or a home (1) whose "here" the clause before may name. */
const HERE = /^((?:i |we )?(?:just |recently |only )?(?:moved|relocated|live|am living|are living)) here\b/
/** Where a clause may name a place: "hiking trails near denver". */
const NEAR_PLACE = afterPrepositions(['in', 'near', 'around', 'to', 'at'])

/**
 * "best hikes near denver? i just moved here": "i just moved to denver", when the clause before (`before`) names a
 * place the gazetteer knows. Undefined when the clause has no such "here" or nothing before names the place.
 */
function hereNamed(text: string, before: string, cases: CaseMap): string | undefined {
  const here = HERE.exec(text)
  if (!here) return undefined
  const place = placeAfter(before, NEAR_PLACE, (word) => cases.isCapitalised(word))
  if (!place) return undefined
  const preposition = /moved|relocated/.test(here[1]!) ? 'to' : 'in'
  return `${here[1]} ${preposition} ${place}${text.slice(here[0].length)}`
}

/** A clause that asks the reader something, with a question mark or without: "any tips", "how should i". */
const asksSomething = (clause: Clause) => clause.question || QUESTION_OPENING.test(clause.text)
/** "how can i get better at chess", "how do i improve my golf swing": what the person works at (1). */
const HOW_IMPROVE =
  /^how (?:do|can|could|should|would) i (?:ever )?((?:get better at|improve) (?!(?:it|this|that|them)\b)[a-z].*)$/
/** Words that point outside the clause. */
const POINTING = /\b(?:this|that|these|those|it|them|here)\b/
/** "they horrify me", "i can not stand them": a short answer whose pronoun (1 or 2) points at what was asked about. */
const POINTS_BACK = /^(?:(they|it) (?:[a-z']+ ){0,3}?me(?: out)?|i (?:[a-z']+ ){1,3}?(them|it))(?: too| though| lol)?$/
/**
 * "they are my favorite band", "but it is one of my faves": who is the favorite (1: "he is" or "she is" for a person)
 * and its kind (2), if said.
 */
const IS_MY_FAVORITE = new RegExp(pattern`^(?:but |and |still )?(they are|it is|that is|those are|he is|she is)
  \s(?:(?:so|really|like|totally|definitely|also|still) )?(?:my|one of my) (?:all time |all-time )?
  (?:fav|fave|favou?rite)s?(?: ([a-z]+))?$`)
/** The subject a clause opens with, before its verb: "hamburgers and french fries (will not help me)". */
const OPENING_SUBJECT = new RegExp(pattern`^(?!(?:i|we|you|he|she|they|it|this|that|there|my|your|his|her|our|their|
  what|which|who)\b)((?:[a-z'-]+ ){0,4}?[a-z'-]+) (?:is|are|was|were|will|would|can|make|makes|taste|tastes|help|
  helps|do|does|have|has)\b`)

/**
 * "hamburgers will not help me live long, but they are my fav foods": "my favorite food is hamburgers" (or "i love
 * ..." when the kind is not said). Undefined when the clause calls nothing before it a favorite.
 */
function favoriteOfSubject(before: string, text: string): string | undefined {
  const favorite = IS_MY_FAVORITE.exec(text)
  // "my sister is a nurse but she is my favorite": a person, not a thing
  const subject = favorite && !/^(?:he|she) /.test(favorite[1]!) ? OPENING_SUBJECT.exec(before) : null
  if (!favorite || !subject) return undefined
  return favorite[2] ? `my favorite ${singular(favorite[2])} is ${subject[1]}` : `i love ${subject[1]}`
}

/**
 * The person's answer to the question they just asked ("mine is", "i do", "they are my favorite", "mine is named"):
 * "what is your favorite food? mine is papaya" reads "my favorite food is papaya". Undefined when the clauses are not
 * such a pair.
 */
function answersOwnQuestion(question: string, answer: string): string | undefined {
  const asked = ASKS_YOURS.exec(question)
  const mine = asked && MINE_IS.exec(answer)
  if (mine) return `my ${asked[1]} ${mine[1]} ${mine[2]}`
  // "what is your favorite movie? friday is mine": "my favorite movie is friday"
  const isMine = asked && IS_MINE.exec(answer)
  if (isMine) return `my ${asked[1]} is ${isMine[1]}`
  // "would you consider yourself a feminist? i am for sure": "i am a feminist"
  const areYou = ASKS_ARE.exec(question)
  if (areYou && ANSWER_AM.test(answer)) return `i am ${areYou[1]}`
  const doYou = ASKS_DO.exec(question)
  // "do you dance by any chance? weekends i do": "i dance"
  const doAny = doYou ? null : ASKS_DO_ANY.exec(question.replace(ASKED_IN_PASSING, ''))
  if (doAny && ANSWER_DO.test(answer) && isVerbAfterTo(doAny[1]!)) return `i ${doAny[1]}${doAny[2]}`
  if (!doYou) return undefined
  const verb = doYou[1]!
  const thing = doYou[2]!
  // "do you like german shepherds? i do": "i like german shepherds"
  if (ANSWER_DO.test(answer)) return `i ${verb} ${thing}`
  const owned = singular(thing.replace(/^(?:a|an|any) /, ''))
  // "do you like dogs? i have three": "i have three dogs"
  const count = ANSWER_HAVE_COUNT.exec(answer)
  if (count && /^(?:like|love|have|own)$/.test(verb) && /s$/.test(thing)) return `i have ${count[1]} ${thing}`
  // "do you have pets? mine is a fish": "my pet is a fish"
  const ownedIs = MINE_IS.exec(answer)
  if (ownedIs && /^(?:have|own)$/.test(verb) && !/^(?:named|called)\b/.test(ownedIs[2]!))
    return `my ${owned} ${ownedIs[1]} ${ownedIs[2]}`
  // "do you have a dog? mine is named rex": "my dog is named rex"
  const named = MINE_NAMED.exec(answer)
  if (named && /^(?:like|love|have|own)$/.test(verb)) return `my ${owned} is named ${named[1]}`
  // "do you like rascal flatts? they are my favorite band": "my favorite band is rascal flatts"
  const favorite = /^(?:like|love|enjoy|watch|play)$/.test(verb) ? IS_MY_FAVORITE.exec(answer) : null
  // "do you like clowns? they horrify me": "clowns horrify me"
  const pointed = favorite ? null : POINTS_BACK.exec(answer)
  if (pointed)
    return pointed[1]
      ? `${thing} ${answer.slice(pointed[1].length + 1)}`
      : `${answer.slice(0, -pointed[2]!.length)}${thing}`
  if (!favorite) return undefined
  return favorite[2] ? `my favorite ${favorite[2]} is ${thing}` : `i love ${thing}`
}

/**
 * A clause as the rules read it, then each verb phrase coordinated with it (clauses.ts). When a word that is a verb
 * however it is read ("live", "work"; not "guitar", which compromise takes for a verb only after "i") joins a second
 * phrase, the first phrase is read on its own too ("i am single and have no kids": "i am single"), and the whole
 * clause is marked so that no fact runs on from one phrase into the next.
 */
function ownVerbPhrases(whole: Clause): Clause[] {
  // "my band got a gig at the bar i work at": "i work at the bar", and the gig at the bar
  const relative = ownRelative(whole.text)
  const clause = relative ? { ...whole, text: relative.rest } : whole
  const { head, headVerb, clauses } = coordinatedClauses(clause.text, isVerbAfterI, isVerbAfterTo)
  const tails = [
    ...clauses.map((text) => ({ ...clause, text, elided: true })),
    ...(relative ? [{ ...clause, text: relative.own }] : []),
  ]
  if (!head || !headVerb || !isVerbAfterTo(headVerb)) return [clause, ...tails]
  return [{ ...clause, joined: true }, { ...clause, text: head }, ...tails]
}

/**
 * "retired teacher here, 67, lots of free time": an age said alone after who the person is, as a clause of its own
 * ("i am 67"), the rest of its clause after it.
 */
function ageAfterRole(split: Clause[]): Clause[] {
  return split.flatMap((clause, index) => {
    const before = split[index - 1]
    const age = /^(\d{2})(?:,\s*(.+))?$/.exec(clause.text)
    if (!age || !before || before.sentence !== clause.sentence || before.reported || before.question) return [clause]
    const who = /^i am\b/.test(before.text) ? before.text : fragmentClause(before.text)
    if (!who || !/^i am\b/.test(who)) return [clause]
    const aged = { ...clause, text: `i am ${age[1]}` }
    return age[2] ? [aged, { ...clause, text: age[2] }] : [aged]
  })
}

/**
 * Whether the clause follows a greeting that opens its message or turn ("hi, i'm dawn", "hey im dawn"): `paragraphs`
 * are the normalised text's, in which the greeting may have left the clause's own words.
 */
function greetedFirst(clause: Clause, before: Clause | undefined, paragraphs: readonly string[]): boolean {
  const paragraph = paragraphs[clause.paragraph ?? 0]?.trim() ?? ''
  if (!GREETED.test(paragraph)) return false
  if (!before || before.paragraph !== clause.paragraph) return true
  return before.sentence === clause.sentence && GREETED.test(before.text) && before.text.split(' ').length <= 2
}

/** Runs every rule over the person's own text. */
export function extractFromText(text: string, opts: TextOptions): Extraction {
  const acc = new Acc(opts.trace)
  const cases = new CaseMap(text)
  // a quote of someone else ('my friend said "i love paris"') is their words, never the person's
  let normalized = withoutOthersQuotes(normalize(text))
  const ctx: RuleContext = { acc, cases, profile: opts.profile, referenceDate: opts.referenceDate }
  if (opts.allowThirdPerson) {
    const tp = toFirstPerson(normalized, text, opts.profile?.core_info?.name?.value)
    if (tp) {
      normalized = tp.text
      if (tp.name) acc.setCore('name', cases.restore(tp.name, true), 0.85, 'name.third-person', tp.name)
      if (tp.gender)
        acc.setCore('gender', tp.gender, 0.6, 'gender.third-person', tp.gender === 'female' ? 'she, her' : 'he, him')
    }
  }
  let prev: ClauseInfo | undefined
  // the question a turn answers, which its first sentence may point into: "where did you get your dogs?"
  const asked = opts.asked?.size ? opts.asked : undefined
  const allParagraphs = normalized.split(/\n+/)
  const paragraphs = asked ? allParagraphs : []
  let opening: { paragraph: number; sentence: number; question: string | undefined } | undefined
  const pointable = (clause: Clause, before: Clause | undefined): string | undefined => {
    const paragraph = clause.paragraph
    if (!asked || paragraph === undefined) return before?.text
    if (opening?.paragraph !== paragraph)
      opening = { paragraph, sentence: clause.sentence, question: asked.get(paragraphs[paragraph]!.trim()) }
    if (!opening.question || opening.sentence !== clause.sentence) return before?.text
    return before?.paragraph === paragraph ? `${opening.question} ${before.text}` : opening.question
  }
  const kin: KinMention[] = []
  const pets: PetMention[] = []
  const split = ageAfterRole(splitClauses(normalized))
  const clauses = split.flatMap((clause, index) => {
    // "who doesn't love cheeseburgers?": a question that says the person loves them
    const rhetorical = clause.question && !clause.reported ? RHETORICAL_LIKE.exec(clause.text) : null
    if (rhetorical) return [{ ...clause, question: false, text: `i ${rhetorical[1]} ${rhetorical[2]}` }]
    // "can you help me plan a trip to japan?": what the person is trying to do
    const helped = clause.reported ? null : HELP_ME.exec(clause.text)
    // "help me understand this": what "this" is, the request does not say
    if (helped && !POINTING.test(clause.text)) {
      const doing = helped[1]?.replace(/^plan /, 'planning ')
      const text = !doing
        ? `i am working on ${helped[2]}`
        : /^planning /.test(doing)
          ? `i am ${doing}`
          : `i am trying to ${doing}`
      return [{ ...clause, question: false, text }]
    }
    // "how do i get better at chess?": what the person is working at
    const improving = clause.reported ? null : HOW_IMPROVE.exec(clause.text)
    if (improving) return [{ ...clause, question: false, text: `i am trying to ${improving[1]}` }]
    // "any tips for my first marathon next month?": the event and when it is, said by asking about it
    const askedEvent = clause.reported || !asksSomething(clause) ? undefined : eventAskedAbout(clause.text)
    if (askedEvent) return [{ ...clause, question: false, text: askedEvent }]
    // "what is your favorite drink mine is tea": a question and its answer with no question mark between
    const runOn = clause.reported ? null : ASKED_AND_MINE.exec(clause.text)
    const ownRunOn = runOn ? answersOwnQuestion(runOn[1]!, runOn[2]!) : undefined
    if (ownRunOn) return ownVerbPhrases({ ...clause, question: false, text: ownRunOn })
    if (clause.question || clause.reported) return [clause]
    const before = split[index - 1]
    // "what is your dream? mine is to meet mickey mouse": the person answers their own question
    // "do you like german shepherds? i do, mine is named rex": the question before "i do" is still answered
    const asked = before?.question ? before : before && ANSWER_DO.test(before.text) ? split[index - 2] : undefined
    const own = asked?.question ? answersOwnQuestion(asked.text, clause.text) : undefined
    if (own) return ownVerbPhrases({ ...clause, text: own })
    // "any recommendations for hiking trails near denver? i just moved here": where "here" is
    const samePlace = before && before.paragraph === clause.paragraph && !before.reported
    const placed = samePlace ? hereNamed(clause.text, before.text, cases) : undefined
    if (placed) clause = { ...clause, text: placed }
    // "i painted the kitchen red, my favorite color": what the aside calls a favorite
    const sameSentence = before?.sentence === clause.sentence && !before.question && !before.reported
    const aside = favoriteAside(clause.text, sameSentence ? before.text : undefined)
    if (aside) return aside.map((text) => ({ ...clause, text }))
    // "hamburgers will not help me live long, but they are my fav foods": what the clause before was about
    const pointedFavorite = sameSentence ? favoriteOfSubject(before.text, clause.text) : undefined
    if (pointedFavorite) return [{ ...clause, text: pointedFavorite }]
    // "my friend hates sushi but i love it": what the other dislikes, the person likes
    const contrasted = before?.sentence === clause.sentence ? contrastedLike(before.text, clause.text) : undefined
    if (contrasted) return [{ ...clause, text: contrasted }]
    // "i tried yoga last week. i really liked it": what the clause before did, in the same paragraph
    const samePart = before && before.paragraph === clause.paragraph && !before.question && !before.reported
    // "have you tried hiking?" "i love it.": what the question before the turn asked about
    // ("yes, i love it": a bare yes before it says nothing of its own)
    const answering =
      !samePart || /^(?:yes|yeah|yep|yup|sure|definitely|absolutely|of course|totally)$/.test(before.text)
    const askedBefore = answering ? pointable(clause, undefined)?.replace(/[?.!\s]+$/, '') : undefined
    const pointedLike =
      samePart && !askedBefore
        ? (likedOfBefore(before.text, clause.text) ??
          narrowedLike(before.text, clause.text) ??
          (sameSentence ? gotIntoBefore(before.text, clause.text) : undefined))
        : askedBefore
          ? likedOfBefore(askedBefore, clause.text)
          : undefined
    if (pointedLike) return [{ ...clause, text: pointedLike }]
    // "do your kids like gymnastics? it is my favorite sport": a question of the person's own may name it too
    const pointedKind =
      before && before.paragraph === clause.paragraph && !before.reported
        ? (favoriteOfKindBefore(before.text, clause.text) ??
          (sameSentence ? likedWhichBefore(before.text, clause.text) : undefined))
        : undefined
    if (pointedKind) return [{ ...clause, text: pointedKind }]
    // "tacos i just like"; "i am not allergic to papaya, i eat a lot of it"
    const liked = frontedLike(clause.text) ?? (sameSentence ? eatenOfBefore(before.text, clause.text) : undefined)
    if (liked) return [{ ...clause, text: liked }]
    // "we got a puppy last week! her name is mochi": the name of who the clause before named
    // "i have a wife, she is from italy": what is said of them is theirs
    const named =
      before && !before.reported
        ? (nameOfNamedBefore(before.text, clause.text) ?? factOfNamedBefore(before.text, clause.text))
        : undefined
    if (named) return [{ ...clause, text: named }]
    // read before the copula is shared: a clause that reads on its own keeps its words ("started last month")
    const alone = fragmentClause(clause.text)
    // "i am outgoing but a bit impatient": the second half shares the subject and the copula
    if (
      before &&
      before.sentence === clause.sentence &&
      /^i am\b/.test(before.text) &&
      !alone &&
      clause.text.split(' ').length <= 5 &&
      !/\b(?:i|we|you|he|she|they|it|my|me)\b/.test(clause.text) &&
      !/^(?:the|this|that|these|those|his|her|their|our|your|there|here|lots|plenty|tons|loads|a lot)\b/.test(
        clause.text,
      ) &&
      // "i am a single dad, what are good chore charts": a question to the reader, not more of the person
      !QUESTION_OPENING.test(clause.text)
    ) {
      clause = { ...clause, text: `i am ${clause.text}` }
    }
    // "my sister is a nurse; loves jazz": a fragment after a clause about someone else goes on about them
    const after = split[index + 1]
    // (not pronouns that open a bio: "she/her, 31, nurse")
    const fragment =
      before?.sentence === clause.sentence && otherSubject(before.text) && !/^\(?[a-z]+\/[a-z]+\)?$/.test(before.text)
        ? undefined
        : (roleBefore(clause.text, after?.sentence === clause.sentence ? after.text : undefined) ?? alone)
    if (fragment) clause = { ...clause, text: fragment }
    const partner = partnerOf(clause.text)
    if (partner) clause = { ...clause, companion: cases.restore(partner) }
    clause = { ...clause, text: dropCopulaAdverbs(ownPartOfSubject(clause.text)) }
    // "i am a musician and hope to make it big": the wish or hedge in the second half leaves the first half firm
    // "i am a 29 year old accountant trying to get into climbing": an aim after who the person is, read as its own
    const aim = /^i am an? /.test(clause.text) ? AIM_AFTER.exec(clause.text) : null
    const wish = WISH_AFTER.exec(clause.text) ?? aim
    if (wish && /^i\s/.test(clause.text)) {
      const head = clause.text.slice(0, wish.index)
      const rest = clause.text.slice(wish.index)
      const tail = wish === aim ? `i am ${rest.trim()}` : `i ${rest.replace(/^\s(?:and|but)\s+(?:i\s+)?/, '')}`
      if (!/\b(?:if|maybe|might|want|hope|wish|plan)\b/.test(head)) {
        const headClause = { ...clause, text: head }
        const tailClause = { ...clause, text: tail }
        const [first, ...rest] = ownVerbPhrases(headClause)
        return [first!, tailClause, ...rest]
      }
    }
    // "i am an older woman who is afraid of dying": what the relative clause says of the person is theirs too
    // "you sound just like me, a party animal": what the person calls themselves after "like me"
    const whoIs = WHO_IS.exec(clause.text) ?? LIKE_ME_A.exec(clause.text)
    if (whoIs) return [...ownVerbPhrases(clause), { ...clause, text: `i am ${whoIs[1]}` }]
    return ownVerbPhrases(clause)
  })
  for (const clause of clauses) {
    const info = describe(clause)
    if (acc.trace) acc.trace.clause = info.text
    acc.companion = info.companion
    const kinBefore = kin.length
    // "my kids and i went": the relative left the clause's words for its companion
    if (info.companion && !info.reported) kin.push(...kinMentions(info.companion.replace(/^their /, 'my ')))
    // "my husband thinks i am crazy": what is reported is weak, but the relative who says it is the person's
    kin.push(...kinMentions(info.text))
    if (!info.reported) pets.push(...petMentions(info.text))
    if (info.reported) {
      // what others say of the person is only weak evidence of a trait ("people say i am stubborn")
      rulePeopleSay(info, ctx)
      ruleConditionReported(info, ctx)
      prev = info
      continue
    }
    rulePreferences(info, ctx)
    // "my name is larry what is yours?": the name comes before the question
    if (info.question && GIVES_NAME.test(info.text)) ruleName(info, ctx)
    if (!info.question && ruleFieldLine(info, ctx)) {
      prev = info
      continue
    }
    if (!info.question) {
      const before = { taken: acc.taken, memories: acc.memoryCount }
      ruleName(info, ctx, greetedFirst(info, prev, allParagraphs))
      ruleAge(info, ctx)
      ruleGender(info, ctx)
      ruleLocation(info, ctx)
      ruleOccupation(info, ctx)
      ruleNegation(info, ctx)
      ruleUsedTo(info, prev, ctx)
      ruleInterests(info, ctx)
      ruleNeeds(info, ctx)
      rulePersonality(info, ctx)
      ruleMemories(info, ctx, pointable(info, prev))
      ruleLanguages(info, ctx)
      ruleFaith(info, ctx)
      ruleStandingFacts(info, ctx, { any: acc.taken > before.taken, memory: acc.memoryCount > before.memories })
      // a relative named says who the person has, a stronger fact the statement would hide ("have to pick up my
      // sister")
      if (acc.taken === before.taken && kin.length === kinBefore) ruleStatement(info, ctx)
    }
    prev = info
  }
  acc.companion = undefined
  addKin(kin, acc.memoryEvents, ctx)
  addPetMentions(pets, ctx)
  readAnswers(opts.answers ?? [], ctx)
  // Weaker than any name the person gives: taken only when the text gives none.
  if (opts.addressed && !acc.hasCore('name')) {
    if (acc.trace) acc.trace.clause = opts.addressed.said
    acc.setCore('name', opts.addressed.name, ADDRESSED_CONFIDENCE, 'name.addressed', opts.addressed.said)
  }
  return acc.toExtraction(opts.language === undefined ? detectLanguage(text) : (opts.language ?? undefined))
}

/**
 * Reads each answer's statement with the field, preference, need and language rules only, at ANSWER_WEIGHT: an answer
 * names a value, an allergy or a language, while any other memory or a trait needs the person's own sentence.
 */
function readAnswers(answers: readonly Answer[], ctx: RuleContext) {
  const { acc } = ctx
  acc.weight = ANSWER_WEIGHT
  try {
    for (const { question, answer, statement } of answers) {
      for (const clause of splitClauses(normalize(statement))) {
        const info = describe(clause)
        if (acc.trace) acc.trace.clause = `${statement} (answering "${question}" with "${answer.slice(0, 80)}")`
        ruleName(info, ctx)
        ruleAge(info, ctx)
        ruleLocation(info, ctx)
        ruleOccupation(info, ctx)
        ruleInterests(info, ctx)
        // "any topics you'd rather avoid?" "politics": a topic to avoid
        rulePreferences(info, ctx)
        // "any allergies?" "shellfish", "what languages do you speak?" "english and tagalog"
        ruleNeeds(info, ctx)
        ruleLanguages(info, ctx)
        // "do you have pets?" "two rabbits, Mochi and Bean": their names
        ruleNamesSaid(info, ctx)
      }
    }
  } finally {
    acc.weight = 1
  }
}
