// The languages a person speaks or learns: "i speak english, spanish and french", "i am fluent in german", "i only
// speak english", "i do not speak french", "i am learning spanish". An assistant reads them to choose the language of
// its reply, and no field holds them: each statement becomes an undated memory of medium importance, with the
// languages named as the vocabulary writes them ("speaks English, Spanish and French"). Only names of
// language-data.ts count (built from WordNet and ISO 639-1 by scripts/build-vocabularies.mjs), so "i speak my mind"
// or "i speak to my mom" say nothing.
import { LANGUAGE_NAMES } from './language-data.js'
import type { ClauseInfo, RuleContext } from './rules-common.js'
import { ADV } from './rules-common.js'
import { nameList, pattern, type NameList } from './regex.js'

/** Below the field rules: the statement's shape is plain, but "speak" is also said of a moment ("i speak at 3"). */
const CONFIDENCE = 0.7

interface Table extends NameList {
  /** Any name, as a whole word, everywhere in a text. */
  anyName: RegExp
}

let table: Table | undefined

/** Built on first use: a thread that never reads "speak" never pays for the table. */
function languageTable(): Table {
  if (table) return table
  const list = nameList(LANGUAGE_NAMES)
  table = { ...list, anyName: new RegExp(`\\b(?:${list.alternation})\\b`, 'g') }
  return table
}

/**
 * A people named as its language is ("i am somali" -> "Somali"), when the word ends as the name of a people does
 * ("nepali", "tibetan", "burmese", "danish"); undefined for any other word, so "i am crow" names nobody.
 */
export function peopleOfLanguage(word: string): string | undefined {
  if (word.length < 5 || !/(?:i|an|ese|ish)$/.test(word)) return undefined
  return languageTable().names.get(word)
}

/** Whether a word or two name a language ("spanish", "sign language"), in any case. */
export function isLanguage(words: string): boolean {
  return languageTable().names.has(words.toLowerCase())
}

/** How well: said before the first language and kept in the memory ("speaks a little Japanese"). */
const LEVEL = pattern`fluent|a little|a bit of|some|basic|broken|conversational|decent|good|perfect|native`

let statements: RegExp | undefined

/**
 * 1 how it is said ("speak", "can speak", "am fluent in", "do not speak"), 2 the level, 3 the languages ("english,
 * spanish, and french"), up to the clause's end, a word that is no language, or where and with whom it is spoken.
 */
function statement(): RegExp {
  if (statements) return statements
  const { alternation: language } = languageTable()
  // "spanish and a bit of french": a level may come before each language of the list
  const list = `(?:${language})(?:(?:,? and |, ?| or |/)(?:(?:${LEVEL}) )?(?:${language}))*`
  statements = new RegExp(
    `^(?:so |and |but |also |yes |yeah |well )?i ${ADV}` +
      pattern`(speak|can speak|can only speak|am fluent in|do not speak|can not speak|never learned|know|
      (?:am|have been|been) learning(?: to (?:speak|read|write))?|(?:am |have been |been )?trying to learn|
      am studying|study|learn|am taking|
      am (?:bilingual|trilingual|multilingual)(?: in)?)` +
      `,? (?:(${LEVEL}) )?(${list})(?: (?:fluently|well|too|as well|a little|now|yet)\\b)?` +
      // "i speak english at home", "i speak asl with my brother": where and with whom, not what
      `(?: (?:with|at|to|in|when|because|since|but|and i|for|before|after|while|so) .*)?$`,
  )
  return statements
}

/** "english, spanish, and french" -> "English, Spanish and French". */
function namedList(words: string): string {
  const { names, anyName } = languageTable()
  const written = [...new Set(words.match(anyName) ?? [])].map((name) => names.get(name) ?? name)
  return written.length < 2 ? written.join('') : `${written.slice(0, -1).join(', ')} and ${written.at(-1)}`
}

/** What each way of saying it becomes in the third person. */
function memoryText(verb: string, level: string | undefined, languages: string, only: boolean): string | undefined {
  const how = only ? 'only ' : level ? `${level} ` : ''
  switch (verb) {
    case 'speak':
    case 'can speak':
    case 'can only speak':
      return `speaks ${how}${languages}`
    case 'am fluent in':
      return `is fluent in ${languages}`
    case 'do not speak':
    case 'can not speak':
    case 'never learned':
      return `does not speak ${languages}`
    case 'study':
    case 'learn':
    case 'am studying':
    case 'am taking':
      return `is learning ${languages}`
    // "i know french": a language, but "know" says little of how well
    case 'know':
      return level || only ? undefined : `knows ${languages}`
    default:
      if (/^am (?:bi|tri|multi)lingual\b/.test(verb)) return `speaks ${languages}`
      return /\blearn(?:ing)?\b/.test(verb) ? `is learning ${languages}` : undefined
  }
}

/**
 * "answer in spanish please", "can you reply in french?": the language (1) the person asks replies in, said as a
 * request ("i write in french" is a habit).
 */
const REPLY_IN = new RegExp(pattern`^(?:(?:please|pls|plz|can you|could you|would you|will you|just|and|so|also|ok|
  okay) )*(?:answer|reply|respond|write|talk to me|speak to me|chat with me)(?: to me| back)? in ([a-z]+)\b`)

/** The language the person asks to be answered in: the conversation style `replies in Spanish`. */
export function ruleReplyLanguage(text: string, ctx: RuleContext): void {
  const asked = REPLY_IN.exec(text)
  const language = asked && !/\b(?:not|never)\b/.test(text) ? languageTable().names.get(asked[1]!) : undefined
  if (language) ctx.acc.setStyle(`replies in ${language}`, 0.85, 'style.reply-language', asked!)
}

/** The clause read last and its statement: the interest rules and this one read the same clause in turn. */
let lastRead: { text: string; said: RegExpExecArray | null } | undefined

/** The statement of languages in a clause, or null (read once a clause). */
function statementIn(text: string): RegExpExecArray | null {
  if (lastRead?.text !== text) lastRead = { text, said: LANGUAGE_VERB.test(text) ? statement().exec(text) : null }
  return lastRead.said
}

/** Whether a clause says which languages the person speaks or learns ("i am learning to read english"). */
export function saysLanguages(text: string): boolean {
  return statementIn(text) !== null
}

/** A word every statement of languages has: the table is built only for a clause that has one. */
const LANGUAGE_VERB =
  /\b(?:speak|fluent|learned|know|learning|studying|study|learn|taking|bilingual|trilingual|multilingual)\b/

/** The languages the person says they speak, or do not, in one clause of their own. */
/** "english is my second language", "spanish is my native tongue": the language (1) and which (2). */
let myLanguage: RegExp | undefined

/** "english is my second language": a language the person speaks, said of the language. */
function ruleMyLanguage(text: string, ctx: RuleContext): boolean {
  // "english is not my first language": spoken, as a second language
  const second = /^([a-z]+) is not my (?:first|native|mother) (?:language|tongue)\b/.exec(text)
  const secondLanguage = second ? languageTable().names.get(second[1]!) : undefined
  if (secondLanguage) {
    const event = `speaks ${secondLanguage} as a second language`
    ctx.acc.addMemory({ event, importance: 'medium', confidence: CONFIDENCE }, 'memory.languages', second!)
    return true
  }
  if (!/\bis my\b/.test(text)) return false
  myLanguage ??= new RegExp(
    `^(${languageTable().alternation}) is my (first|second|third|native|mother|main|home) (?:language|tongue)\\b`,
  )
  const said = myLanguage.exec(text)
  const language = said && namedList(said[1]!)
  if (!language) return false
  const event = /^(?:first|native|mother|home)$/.test(said[2]!) ? `speaks ${language} natively` : `speaks ${language}`
  ctx.acc.addMemory({ event, importance: 'medium', confidence: CONFIDENCE }, 'memory.languages', said)
  return true
}

export function ruleLanguages(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.question || clause.hedged || clause.desire) return
  if (ruleMyLanguage(clause.text, ctx)) return
  const said = statementIn(clause.text)
  if (!said) return
  const [, verb, level, list] = said
  const languages = namedList(list!)
  const only = /\bonly (?:speak|can speak)\b|\bcan only speak\b/.test(said[0])
  const event = languages && memoryText(verb!, level, languages, only)
  if (!event) return
  ctx.acc.addMemory({ event, importance: 'medium', confidence: CONFIDENCE }, 'memory.languages', said)
}
