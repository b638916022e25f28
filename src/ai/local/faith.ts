// What a person believes: "i am a buddhist", "i'm muslim and i pray five times a day", "i was raised catholic", "i
// do not believe in god". An assistant reads it before it suggests a holiday, a meal or a way to spend a Sunday, and
// no field holds it: each statement becomes an undated memory of medium importance, the faith written as the
// vocabulary writes it ("is a Buddhist", "was raised Catholic"). Only names of faith-data.ts count (built from
// WordNet by scripts/build-vocabularies.mjs). In "i am X" a faith's name is not a person's name: "i am christian" is
// read here, and the name rules leave it ("this is christian" stays a name).
import { FAITH_NAMES } from './faith-data.js'
import type { ClauseInfo, RuleContext } from './rules-common.js'
import { ADV } from './rules-common.js'
import { nameList, pattern } from './regex.js'

/** The statement's shape is plain, but a faith is also said in jest ("i am a pizza baptist"). */
const CONFIDENCE = 0.7

interface Table {
  /** Lower case -> as written. */
  names: Map<string, string>
  /** "i am (a) X": 1 the article, 2 how devout, 3 the faith. */
  isFaith: RegExp
  /** "i was raised X": 1 the faith. */
  raised: RegExp
}

let table: Table | undefined

/** How devout: said before the faith and kept in the memory ("is a devout Catholic"). */
const DEVOUT = pattern`devout|practicing|practising|devoted|committed|strict|proud|lapsed|non-practicing|born again|
  born-again|orthodox|conservative|liberal|secular`
/** The clause goes on about something else: "i am muslim and i pray", "i am catholic, so". */
const AFTER = pattern`(?=$|[,;:.!]| (?:and|but|so|too|as well|myself|now|though|by the way|btw|lol|haha)\b)`

/** Built on first use: a thread that never reads a faith never pays for the table. */
function faithTable(): Table {
  if (table) return table
  const { names, alternation: faith } = nameList(FAITH_NAMES)
  table = {
    names,
    isFaith: new RegExp(`^i am ${ADV}(an? )?(?:(${DEVOUT}) )?(${faith})${AFTER}`),
    raised: new RegExp(`^i (?:was|got) (?:raised|brought up|born and raised) (?:as )?(?:an? )?(${faith})${AFTER}`),
  }
  return table
}

/** "i (do not) believe in god": 1 the negation, 2 what is believed in. */
const BELIEVE = new RegExp(
  `^i ${ADV}(do not |no longer |never )?believe in (god|a god|jesus|jesus christ|allah|a higher power)${AFTER}`,
)
const BELIEVED: Record<string, string> = {
  god: 'God',
  'a god': 'a god',
  jesus: 'Jesus',
  'jesus christ': 'Jesus Christ',
  allah: 'Allah',
  'a higher power': 'a higher power',
}

/** Whether a word (lower case) names a faith: the name rules do not take it for a person's name. */
export function isFaith(word: string): boolean {
  return faithTable().names.has(word)
}

/** The faith the person says they hold, were raised in or do not hold, in one clause of their own. */
export function ruleFaith(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.question || clause.hedged || clause.desire) return
  const { names, isFaith: said, raised } = faithTable()
  const add = (event: string, match: RegExpExecArray) =>
    ctx.acc.addMemory({ event, importance: 'medium', confidence: CONFIDENCE }, 'memory.faith', match)
  const is = said.exec(clause.text)
  if (is) {
    const [, article, devout, faith] = is
    return add(`is ${article ?? ''}${devout ? `${devout} ` : ''}${names.get(faith!)}`, is)
  }
  const upbringing = raised.exec(clause.text)
  if (upbringing) return add(`was raised ${names.get(upbringing[1]!)}`, upbringing)
  const belief = BELIEVE.exec(clause.text)
  if (belief) add(`${belief[1] ? 'does not believe' : 'believes'} in ${BELIEVED[belief[2]!]}`, belief)
}
