// memories: events told in the past tense or with a date ("I graduated from college in 2015",
// "last year I ran a marathon", "we got married on June 3, 2019").
//
// Dates: chrono-node, relative to the injected reference date. A date is recorded only when the year is known
// (stated, or implied by a relative expression such as "last year" or "two months ago"); month and day that
// chrono merely guessed are replaced by 01 ("in 2015" -> 2015-01-01, "in March 2020" -> 2020-03-01). A bare
// month or weekday ("in April") gives no date. chrono ignores a bare year ("in 2015"), so a year on its own
// (1900 .. reference year + 10) is read by a regex.
import * as chrono from 'chrono-node'
import type { Importance } from '../../domain/profile.js'
import { ADV, type ClauseInfo, type RuleContext } from './rules-common.js'
import { rx, rxg } from './regex.js'

const LIFE =
  /\b(?:born|married|marry|wedding|engaged|divorced?|graduated?|graduation|moved|relocated|immigrated|emigrated|hired|promoted|promotion|fired|laid off|retired|died|passed away|funeral|pregnant|had (?:a|my|our) (?:first )?(?:baby|child|son|daughter|kid)|gave birth|adopted|diagnosed|cancer|surgery|accident|broke up|bought (?:a|our|my|my first|our first) (?:house|home|apartment|condo)|new job|got (?:a|my) (?:new )?job|first job|started (?:a new job|working|my own|college|university|school|a business|a company)|enlisted|joined the (?:army|navy|military|air force|marines)|served in|deployed|phd|degree|lost my (?:job|mother|father|mom|dad|wife|husband|son|daughter|brother|sister|parents?|grandmother|grandfather)|became a (?:mother|father|parent|mom|dad|grandmother|grandfather|grandparent|citizen)|quit my job|opened (?:a|my own))\b/
const MEDIUM =
  /\b(?:traveled|travelled|visited|ran a|climbed|met|won|learned|learnt|finished|completed|competed|performed|published|built|sold|toured|hiked|started|began|founded|volunteered|studied|lived|worked|trained|wrote|recorded)\b/
/** Past-tense verbs that tell no event ("I thought", "I said"). */
const TRIVIAL = new Set(
  `thought said meant guessed wondered figured knew noticed asked answered replied told mentioned forgot felt heard was
  were had did liked loved got saw wanted needed tried came made used watched ate read played went looked seemed
  hoped enjoyed found realized realised decided`.split(/\s+/),
)
const IRREGULAR_PAST = new Set(
  `got went made took came saw met won lost left bought sold began became grew wrote ran swam flew drove rode fell broke
  gave found built taught caught brought fought spent sent kept slept held led hurt beat chose did drew drank ate forgot
  froze hid knew paid rang rose sang sat shot shook spoke stole stood struck swore threw understood woke wore`.split(
    /\s+/,
  ),
)
const RELATIVE_TIME =
  /\s*\b(?:yesterday|today|last (?:night|week|month|year|summer|winter|spring|fall|weekend|time)|this (?:morning|week|month|year|summer|past \w+)|(?:a|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of|\d+) (?:days?|weeks?|months?|years?|decades?) ago|recently|just)\b/g

function iso(y: number, mo?: number, d?: number): string {
  const p = (n: number) => String(n).padStart(2, '0')
  return `${y}-${p(mo ?? 1)}-${p(d ?? 1)}`
}

/** YYYY-MM-DD when the clause names a date with a known year (see the note at the top). */
const DATE_HINT =
  /\b(?:\d{1,4}(?:st|nd|rd|th)?|jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|yesterday|today|tonight|tomorrow|ago|last|next|this|weekend|week|month|year|christmas|spring|summer|fall|autumn|winter)\b/

const AMOUNT = String.raw`(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|a few|a couple of|couple of|few|several|many)`
/** How long something lasted, no date: "for 15 years", "over the last 3 months", "the past two weeks" (never "3 years ago"). */
const DURATION = new RegExp(
  String.raw`\b(?:(?:for|over)\s+(?:the\s+)?(?:(?:past|last|next)\s+)?|the\s+(?:past|last|next)\s+)${AMOUNT}\s+(?:days?|weeks?|months?|years?|decades?)\b(?!\s+ago)`,
  'g',
)

export function dateOf(raw: string, ref: Date): string | undefined {
  // chrono reads "for 15 years" as 15 years after the reference
  const text = raw.replace(DURATION, ' ')
  if (!DATE_HINT.test(text)) return undefined
  for (const r of chrono.parse(text, ref)) {
    const s = r.start
    if (!s.isCertain('year')) continue
    const y = s.get('year')
    if (y === null) continue
    const month = s.isCertain('month') ? (s.get('month') ?? undefined) : undefined
    const day = month !== undefined && s.isCertain('day') ? (s.get('day') ?? undefined) : undefined
    return iso(y, month, day)
  }
  const m =
    /\b(?:in|since|back in|around|of|during|circa|from|year)?\s*((?:19|20)\d\d)\b(?!s|'s|\s*(?:dollars|people|miles|feet|km|pounds))/.exec(
      text,
    )
  if (m) {
    const y = Number(m[1])
    if (y >= 1900 && y <= ref.getUTCFullYear() + 10) return iso(y)
  }
  return undefined
}

function importance(event: string, dated: boolean): Importance {
  if (LIFE.test(event)) return 'high'
  if (dated || MEDIUM.test(event)) return 'medium'
  return 'low'
}

/** The first "i/we <past verb>" of the clause: [index of the verb in the text, verb]. */
function pastVerb(text: string): { at: number; verb: string } | undefined {
  for (const m of text.matchAll(rxg`\\b(?:i|we) (${ADV})([a-z]+)\\b`)) {
    const verb = m[2]
    const at = m.index + m[0].length - verb.length
    const rest = text.slice(at)
    if (verb === 'was' || verb === 'were') {
      if (
        /^(?:was|were) (?:born|married|engaged|divorced|diagnosed|fired|hired|promoted|raised|adopted|laid off|deployed|injured|hospitalized|elected|awarded|accepted|drafted|in (?:the )?(?:army|navy|military|air force|marines|a (?:car )?accident))\b/.test(
          rest,
        )
      )
        return { at, verb }
      continue
    }
    if (verb === 'used' && /^used to\b/.test(rest)) return { at, verb }
    if (verb === 'have' || verb === 'had') {
      if (
        /^(?:have|had) (?:just |recently |finally )(?:[a-z]+ed|got|won|become|bought|moved|run|done|been)\b/.test(rest)
      )
        return { at, verb }
      if (/^had (?:a|my|our) (?:first )?(?:baby|child|son|daughter|kid)\b/.test(rest)) return { at, verb }
      continue
    }
    if ((/ed$/.test(verb) && !/eed$/.test(verb) && verb.length > 3) || IRREGULAR_PAST.has(verb)) return { at, verb }
  }
  return undefined
}

export function ruleMemories(c: ClauseInfo, ctx: RuleContext): void {
  if (c.hedged || c.desire) return
  const t = c.text
  if (t.split(' ').length < 3) return
  if (/\b(?:did not|was not|were not|never|have not|had not)\b/.test(t)) return
  const ref = ctx.referenceDate
  // family events that are the person's own milestones
  const fam =
    /\bmy (?:(?:first|second|third|youngest|oldest|eldest|baby|little) )?(son|daughter|baby|child|kid|twins|grandson|granddaughter) (?:was|were) born\b|\bmy (?:(?:late|dear|beloved) )?(mother|mom|father|dad|grandmother|grandma|grandfather|grandpa|husband|wife|brother|sister|partner|best friend|dog|cat) (?:died|passed away|passed)\b/.exec(
      t,
    )
  if (fam) {
    const date = dateOf(t, ref)
    const event = ctx.cases
      .restore(t.slice(fam.index).replace(/^my /, '').replace(RELATIVE_TIME, '').replace(/\s+/g, ' ').trim())
      .replace(/\bi\b/g, 'I')
    ctx.acc.addMemory(
      { event, ...(date ? { date } : {}), importance: 'high', confidence: 0.85 },
      'memory.family-event',
      fam,
    )
    return
  }
  const pv = pastVerb(t)
  const said = dateOf(t, ref)
  // Something told in the past tense happened by the reference date: a later date is a misreading ("finished it next month")
  const date =
    pv && said && said > iso(ref.getUTCFullYear(), ref.getUTCMonth() + 1, ref.getUTCDate()) ? undefined : said
  let eventStart: number | undefined
  let usedTo = false
  let lasting = false
  if (pv) {
    if (pv.verb === 'used') usedTo = true
    else if (TRIVIAL.has(pv.verb) && !LIFE.test(t.slice(pv.at)) && !MEDIUM.test(t.slice(pv.at)) && !date) return
    eventStart = pv.at
  } else if (date && (LIFE.test(t) || MEDIUM.test(t))) {
    // a dated plan or present-perfect milestone: "I am getting married next June"
    const m = rx`\\b(?:i|we) ${ADV}(?:am|are|will|have|plan to|start|begin)\\b`.exec(t)
    if (!m) return
    eventStart = m.index + 2
  } else if (!date && (LIFE.test(t) || MEDIUM.test(t))) {
    // done for a while up to now: "I have worked as a nurse for 15 years", "we have lived here for two decades"
    const m =
      rx`\\b(?:i|we) ${ADV}(?:have|had) (?:been [a-z]+ing|[a-z]+ed|taught|run|done|grown|known|served|been)\\b`.exec(t)
    if (!m || t.search(DURATION) < 0) return
    eventStart = m.index + 2
    lasting = true
  }
  if (eventStart === undefined) return
  let event = t
    .slice(eventStart)
    .replace(/^(?:i|we) /, '')
    .replace(RELATIVE_TIME, '')
    .replace(/\s+/g, ' ')
    .trim()
  event = event.replace(/[,.;:!?]+$/, '')
  if (event.split(' ').length < 2 && !LIFE.test(event)) return
  if (event.length > 160) event = event.slice(0, 157).replace(/\s+\S*$/, '') + '...'
  const imp = usedTo ? 'low' : importance(event, !!date)
  const confidence = usedTo ? 0.6 : imp === 'high' ? 0.9 : imp === 'medium' ? 0.8 : 0.6
  const rule = usedTo ? 'memory.used-to' : pv ? 'memory.past-event' : lasting ? 'memory.lasting' : 'memory.dated-plan'
  ctx.acc.addMemory(
    { event: ctx.cases.restore(event).replace(/\bi\b/g, 'I'), ...(date ? { date } : {}), importance: imp, confidence },
    rule,
  )
}
