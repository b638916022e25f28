// core_info.occupation: "I work as a nurse", "I am a software engineer", "I teach math", "I run a bakery",
// "I'm retired", "I'm a student". Pastime agent nouns ("an avid reader") become interests instead.
import { BUSINESSES, JOB_SUFFIX, NOT_JOBS, OCCUPATIONS, VERB_TO_JOB } from './lexicon-core.js'
import { HOBBY_AGENTS } from './lexicon-interests.js'
import { termsOf } from './nlp.js'
import { ADV, type ClauseInfo, type RuleContext } from './rules-common.js'
import type { RuleId } from './rules.js'
import type { Span } from './trace.js'
import { gerund, NUMBER_RE, singular } from './text.js'
import { lookup } from './classify.js'
import { rx } from './regex.js'

type Finding = { kind: 'job'; value: string; conf: number } | { kind: 'hobby'; category: string; value: string }

const MODIFIERS = new Set(
  `retired registered licensed senior junior head chief assistant freelance substitute elementary middle high medical
  dental legal social veterinary pediatric graphic financial professional former certified special kindergarten
  preschool private personal executive associate lead principal graduate college university grad phd nursing law art
  music math english science history physics chemistry biology computer software civil mechanical electrical chemical
  aerospace structural school public general family emergency trauma flight commercial airline truck bus taxi delivery
  construction factory office farm real estate insurance travel customer sales marketing data web mobile game video
  sous pastry line night part-time full-time volunteer youth sports fitness yoga dance piano guitar dog pet tattoo hair
  nail makeup wedding portrait fashion interior landscape stay-at-home home health care daycare store bank shop cafe
  restaurant hotel hospital police fire army navy marine military government city county state federal local
  swim ski surf tennis golf soccer football basketball baseball hockey track running climbing boxing skating dive`.split(
    /\s+/,
  ),
)
const HOBBY_QUALIFIER =
  /\b(?:avid|big|huge|keen|passionate|amateur|weekend|casual|hobby|hobbyist|enthusiastic|aspiring|wannabe|lifelong|devoted|dedicated|obsessive|occasional|serious)\b/
const FILLER =
  /^(?:very|really|pretty|quite|proud|happy|busy|good|great|hard working|hardworking|hard-working|successful|young|new|small town|full time|full-time|part time|part-time|local|single|tired|overworked|underpaid|struggling|starving|working|practicing|practising|certified)\s+/
const CUT =
  /\s(?:at|for|in|from|with|who|that|and|but|since|because|when|so|by|on|of|living|working|here|there|now|currently|like)\b.*$|,.*$/

/** Reads an occupation out of a noun phrase ("retired school teacher from ohio" -> "retired school teacher"). */
export function occupationFrom(phrase: string, strict: boolean): Finding | undefined {
  if (/^stay[- ]at[- ]home\b/.test(phrase)) return { kind: 'job', value: 'stay-at-home parent', conf: 0.85 }
  let p = phrase
    .replace(rx`\\b(?:${NUMBER_RE})[- ](?:years?|yrs?)[- ]old\\b`, '')
    .replace(/\bas well\b.*$/, '')
    .replace(CUT, '')
    .replace(/\s+/g, ' ')
    .trim()
  for (let i = 0; i < 4; i++) p = p.replace(FILLER, '')
  if (/^stay[- ]at[- ]home\b/.test(p)) return { kind: 'job', value: 'stay-at-home parent', conf: 0.85 }
  if (/^(?:housewife|homemaker|house wife|househusband)$/.test(p))
    return { kind: 'job', value: 'homemaker', conf: 0.85 }
  const words = p.split(' ').filter(Boolean).slice(0, 6)
  if (!words.length) return undefined
  const agent = HOBBY_AGENTS[words.slice(-2).join(' ')] ?? HOBBY_AGENTS[words[words.length - 1]]
  const qualified = HOBBY_QUALIFIER.test(p)
  if (agent && (qualified || !OCCUPATIONS.has(words[words.length - 1]))) {
    return { kind: 'hobby', category: agent[0], value: agent[1] }
  }
  const pro = /^(?:professional|pro) ([a-z ]{2,30}) (player|athlete)$/.exec(p)
  if (pro) return { kind: 'job', value: `professional ${pro[1]} ${pro[2]}`, conf: 0.9 }
  if (qualified && strict) return undefined
  // the head: the last word that is a job, a multi-word job ending there, or (loosely) a job-like noun
  const tags = termsOf(words.join(' ')).map((t) => ({ terms: [t] }))
  let head = -1
  let known = false
  for (let i = words.length - 1; i >= 0; i--) {
    const w = singular(words[i])
    const multi = [3, 2].some((n) => i - n + 1 >= 0 && OCCUPATIONS.has([...words.slice(i - n + 1, i), w].join(' ')))
    if (multi || OCCUPATIONS.has(w) || OCCUPATIONS.has(words[i]) || w === 'student' || w === 'major') {
      head = i
      known = true
      break
    }
  }
  if (head < 0) {
    const last = words.length - 1
    const w = words[last]
    if (NOT_JOBS.has(w) || NOT_JOBS.has(singular(w))) return undefined
    const actor = tags[last]?.terms[0]?.tags.includes('Actor')
    if (strict && !actor) return undefined
    const noun = tags[last]?.terms[0]?.tags.includes('Noun') && !tags[last]?.terms[0]?.tags.includes('Adjective')
    if (!strict && !actor && (!noun || (!JOB_SUFFIX.test(w) && words.length > 3))) return undefined
    head = last
  }
  if (NOT_JOBS.has(words[head])) return undefined
  let start = head
  while (start > 0 && head - start < 2) {
    const w = words[start - 1]
    const isNoun =
      tags[start - 1]?.terms[0]?.tags.includes('Noun') && !tags[start - 1]?.terms[0]?.tags.includes('Adjective')
    if (MODIFIERS.has(w) || (isNoun && !NOT_JOBS.has(w))) start--
    else break
  }
  const multiStart = [3, 2]
    .map((n) => head - n + 1)
    .find((s) => s >= 0 && OCCUPATIONS.has([...words.slice(s, head), singular(words[head])].join(' ')))
  if (multiStart !== undefined && multiStart < start) start = multiStart
  let value = [...words.slice(start, head), singular(words[head])].join(' ')
  if (words[head] === 'major') value = 'college student'
  if (/\bstudents?$/.test(words[head])) value = [...words.slice(start, head), 'student'].join(' ')
  const conf = known ? 0.9 : strict ? 0.6 : 0.75
  return { kind: 'job', value, conf }
}

const BRANCHES = 'army|navy|air force|marines|marine corps|military|national guard|coast guard'
const SUBJECTS =
  /^(?:math|maths|mathematics|english|science|history|physics|chemistry|biology|art|music|spanish|french|german|kindergarten|preschool|yoga|piano|guitar|dance|swimming|pe|gym|special education|special ed|elementary school|middle school|high school|college|\w+ grade)\b/

function emit(f: Finding | undefined, ctx: RuleContext, rule: RuleId, span: Span): boolean {
  if (!f) return false
  if (f.kind === 'hobby') ctx.acc.addInterest(f.category, f.value, 0.85, rule, span)
  else {
    ctx.acc.setCore('occupation', f.value, f.conf, rule, span)
    // "a swim coach", "a yoga instructor": who teaches an activity cares about it
    const taught = /^(?:[a-z]+ )?([a-z]+) (?:coach|instructor|teacher|trainer)$/.exec(f.value)
    if (taught) {
      const a = [gerund(taught[1]), taught[1]]
        .map((w) => ({ w, hit: lookup(w) }))
        .find((x) => x.hit && x.hit.term === x.w && ['sports', 'hobbies', 'music'].includes(x.hit.category))
      if (a) ctx.acc.addInterest(a.hit!.category, a.w, 0.6, 'interest.taught-activity', span)
    }
  }
  return true
}

export function ruleOccupation(c: ClauseInfo, ctx: RuleContext): void {
  const t = c.text
  if (c.hedged) return
  if (c.desire || /\bi am (?:studying|training|in school|going to school) to (?:be|become)\b/.test(t)) {
    // "I am studying to become a nurse": a student; "I want to be a lawyer": an aspiration, weaker than any real job
    const study = /\bi am (?:studying|training|in school|going to school) to (?:be|become) (?:a |an )?(.+)$/.exec(t)
    const goal = study
      ? undefined
      : (rx`\\bi ${ADV}(?:want|hope|plan|would like|would love|aspire|am hoping|am planning|am trying) to (?:be|become) (?:a |an )?(.+)$`.exec(
          t,
        ) ?? /\bmy (?:dream|goal|plan|ambition) (?:job )?is to (?:be|become) (?:a |an )?(.+)$/.exec(t))
    const f = study || goal ? occupationFrom((study ?? goal)![1], true) : undefined
    const job =
      f?.kind === 'job' && !/^(?:student|college student|retired|former\b)/.test(f.value) ? f.value : undefined
    if (study)
      ctx.acc.setCore(
        'occupation',
        job ? `student (aspiring ${job})` : 'student',
        0.6,
        'occupation.studying-to-be',
        study,
      )
    else if (job) ctx.acc.setCore('occupation', `aspiring ${job}`, 0.45, 'occupation.want-to-be', goal ?? undefined)
    return
  }
  let m =
    rx`\\bi ${ADV}(?:work|am working|have worked|have been working|currently work|am employed)(?: (?:at|for|in) [a-z0-9&' -]{1,40}?)? as (?:a |an )?(.+)$`.exec(
      t,
    )
  if (m && emit(occupationFrom(m[1], false), ctx, 'occupation.work-as', m)) return
  m = /\bmy (?:job|profession|occupation|career|day job|role) is (?:a |an |being a |being an )?(.+)$/.exec(t)
  if (m && emit(occupationFrom(m[1], false), ctx, 'occupation.my-job-is', m)) return
  m = rx`\\bi am (?:a |an )?(.+?) by (?:profession|trade)\\b`.exec(t)
  if (m && emit(occupationFrom(m[1], false), ctx, 'occupation.by-profession', m)) return
  m =
    rx`\\bi (?:am|have been) ${ADV}(?:(?:happily|recently|semi|early|now|finally) )?retired(?!\\s+(?:a|an|school|army|navy|military|police|nurse|teacher)\\b)|\\bi ${ADV}retired\\b(?! (?:a|an|the|my|his|her) )`.exec(
      t,
    )
  if (m) {
    ctx.acc.setCore('occupation', 'retired', 0.9, 'occupation.retired', m)
    return
  }
  m = rx`\\bi am ${ADV}(?:unemployed|jobless|between jobs|out of work)\\b`.exec(t)
  if (m) {
    ctx.acc.setCore('occupation', 'unemployed', 0.85, 'occupation.unemployed', m)
    return
  }
  // someone looking for a (new) job may still have one: say what is known
  m =
    rx`\\bi (?:am|have been) ${ADV}(?:looking|searching|hunting) for (?:a |an )?(?:new |better |full[- ]time |part[- ]time |good )?(?:job|work|employment)\\b|\\bi am ${ADV}job hunting\\b`.exec(
      t,
    )
  if (m) {
    ctx.acc.setCore('occupation', 'job seeker', 0.6, 'occupation.job-seeker', m)
    return
  }
  m = rx`\\bi am ${ADV}self[- ]employed\\b`.exec(t)
  if (m) {
    ctx.acc.setCore('occupation', 'self-employed', 0.9, 'occupation.self-employed', m)
    return
  }
  m = rx`\\bi (?:am|serve|am serving) ${ADV}in the (${BRANCHES})\\b`.exec(t)
  if (m) {
    ctx.acc.setCore('occupation', `military (${m[1]})`, 0.85, 'occupation.military', m)
    return
  }
  m =
    rx`\\bi (?:am|have been|have always been) ${ADV}((?:a|an) .+|the (?:best|only|top|head|lead|youngest|oldest) [a-z]+(?: [a-z]+){0,2})$`.exec(
      t,
    )
  if (m && /^the /.test(m[1]))
    m[1] = m[1]
      .replace(/^the (?:best|only|top|youngest|oldest) /, 'a ')
      .replace(/^the /, 'a ')
      .replace(/\s+(?:around|in town|ever|here|there|in the world)$/, '')
  if (m) {
    let found = false
    for (const part of m[1].split(/\s*,\s*(?:and\s+)?|\s+and\s+/)) {
      const np = /^(?:a|an) (.+)$/.exec(part)
      if (np) found = emit(occupationFrom(np[1], true), ctx, 'occupation.i-am-a', m) || found
    }
    if (found) return
  }
  m =
    rx`\\bi ${ADV}(?:am in|attend|go to|am attending|am enrolled in|am at) (?:the )?(college|university|uni|high school|grad school|graduate school|med school|medical school|law school|nursing school|community college)\\b`.exec(
      t,
    )
  if (m) {
    const level = /high/.test(m[1])
      ? 'high school student'
      : /grad/.test(m[1])
        ? 'graduate student'
        : /med/.test(m[1])
          ? 'medical student'
          : /law/.test(m[1])
            ? 'law student'
            : 'college student'
    ctx.acc.setCore('occupation', level, 0.75, 'occupation.school', m)
    return
  }
  // "i coach swimming at the pool": a coach, and someone who cares about swimming
  m = rx`\\bi ${ADV}(?:coach|am coaching|instruct|train people in) ([a-z]+(?: [a-z]+)?)\\b`.exec(t)
  if (m && !/^(?:my|our|his|her|their|the|a|an|kids|children|people|at|in|for)\b/.test(m[1])) {
    const act = m[1].split(' ')[0]
    const hit = lookup(act)
    if (hit && hit.term === act && ['sports', 'hobbies', 'music'].includes(hit.category)) {
      ctx.acc.setCore('occupation', `${act} coach`, 0.75, 'occupation.coach', m)
      ctx.acc.addInterest(hit.category, act, 0.7, 'occupation.coach', m)
      return
    }
  }
  // "i am a tennis player professionally"
  m =
    rx`\\bi am ${ADV}(?:a |an )([a-z]+(?: [a-z]+)?) (player|athlete|dancer|singer|musician|photographer|artist|writer|chef|golfer|boxer|wrestler|cyclist|runner|swimmer) professionally\\b`.exec(
      t,
    )
  if (m) {
    ctx.acc.setCore('occupation', `professional ${m[1]} ${m[2]}`, 0.85, 'occupation.professionally', m)
    return
  }
  m = rx`\\bi ${ADV}(?:teach|am teaching|have taught)\\s*(.*)$`.exec(t)
  if (m) {
    const subj = SUBJECTS.exec(m[1].replace(/^(?:at |in )?(?:a |an |the )?/, ''))
    const at = /^(?:at|in) (?:a |an |the )?(?:school|college|university|high school)/.test(m[1])
    ctx.acc.setCore('occupation', subj && !at ? `${subj[0]} teacher` : 'teacher', 0.85, 'occupation.teach', m)
    return
  }
  m =
    rx`\\bi ${ADV}(run|own|manage|have|opened|started|co-own|operate) (?:a |an |my own |our own |the |a small |my |our )(?:small |little |local |family |online |own )*([a-z&' -]+)$`.exec(
      t,
    )
  if (m) {
    const biz = [...BUSINESSES]
      .filter((b) => m![2] === b || m![2].startsWith(b + ' '))
      .sort((a, b) => b.length - a.length)[0]
    if (biz && !(m[1] === 'have' && !/\bmy own\b/.test(t))) {
      ctx.acc.setCore(
        'occupation',
        m[1] === 'manage' ? `${biz} manager` : `${biz} owner`,
        0.85,
        'occupation.business',
        m,
      )
      return
    }
  }
  m = rx`\\bi ${ADV}([a-z]+)(?: ([a-z]+(?: [a-z]+)?))? for a living\\b`.exec(t)
  if (m) {
    const job = VERB_TO_JOB[m[1]] ?? VERB_TO_JOB[m[1].replace(/s$/, '')]
    const obj = m[2]?.replace(/^(?:a|an|the|other people's|people's)\s+/, '')
    if (job) {
      const withObj =
        ['driver', 'walker', 'cleaner', 'repairer', 'salesperson', 'sitter'].includes(job) &&
        obj &&
        obj.split(' ').length === 1
      ctx.acc.setCore(
        'occupation',
        withObj ? `${singular(obj)} ${job === 'salesperson' ? 'seller' : job}` : job,
        0.85,
        'occupation.for-a-living',
        m,
      )
      return
    }
  }
  m = rx`\\bi ${ADV}(bartend|waitress|nanny|tutor|babysit|freelance|nurse|coach)\\b`.exec(t)
  if (m && !/\bcoach (?:my|our)\b/.test(t)) {
    ctx.acc.setCore('occupation', VERB_TO_JOB[m[1]], 0.7, 'occupation.noun-verb', m)
    return
  }
  m =
    rx`\\bi ${ADV}(?:work|am working|have a (?:part[- ]time |full[- ]time |new |second )?job|am employed)(?: (?:the |a )?(?:night|day|morning|evening|graveyard|late|early|weekend) shifts?)?(?: full[- ]?time| part[- ]?time)? (at|for|in|by) (.+)$`.exec(
      t,
    )
  if (m) {
    const place = m[2]
      .replace(
        /\s(?:and|but|so|because|since|as|where|when|which|who|with|for|on|during|every|all|from|to|while|though|although|at|in)\b.*$|,.*$/,
        '',
      )
      .replace(/\s+(?:now|currently|today|nights?|also|too|though|anyway|as well|lol|haha)$/, '')
      .trim()
    if (/^(?:though|also|too|anyway|lol|haha|it|that|this|there|here)$/.test(place)) return
    if (
      !place ||
      /^(?:my|your|home|the (?:morning|evening|afternoon|night|moment)|night|nights|the weekend|weekends|least|times?|a (?:bit|while))\b/.test(
        place,
      )
    )
      return
    if (place.split(' ').length > 5) return
    ctx.acc.setCore(
      'occupation',
      `works ${m[1] === 'by' ? 'for' : m[1]} ${ctx.cases.restore(place)}`,
      0.55,
      'occupation.work-at',
      m,
    )
    return
  }
  // "i (just) got a job (working) at a gas station"
  m =
    rx`\\bi ${ADV}(?:got|landed|found|started|have) a (?:new |part[- ]time |full[- ]time |second )?job (?:working |as (?:a |an )?)?(.+)$`.exec(
      t,
    )
  if (m) {
    const f = /^(?:at|in|for)\b/.test(m[1]) ? undefined : occupationFrom(m[1], false)
    if (emit(f, ctx, 'occupation.got-a-job', m)) return
    const place =
      /^(?:at|in|for) (?:a |an |the )?([a-z0-9&' -]{2,40}?)(?:\s(?:and|but|so|because|to|while|since|for|on|every)\b.*)?$/.exec(
        m[1],
      )
    if (place && place[1].split(' ').length <= 4)
      ctx.acc.setCore('occupation', `works at ${ctx.cases.restore(place[1])}`, 0.55, 'occupation.got-a-job', m)
    return
  }
  m = rx`\\bi ${ADV}used to (?:be|work as) (?:a |an )?(.+)$`.exec(t)
  if (m) {
    const f = occupationFrom(m[1], true)
    if (f && f.kind === 'job' && !ctx.acc.hasCore('occupation'))
      ctx.acc.setCore('occupation', `former ${f.value}`, 0.45, 'occupation.used-to-be', m)
  }
}
