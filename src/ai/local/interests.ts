// interests.<category>: "I love/like/enjoy X", "my favorite X is Y", "I play X", "I have a dog", "I go hiking", ...
import { classifyNoun, cutPhrase, interpretObject, lookup, splitList, verbItems, type Item } from './classify.js'
import { FAVORITE_HEADS, PET_WORDS } from './lexicon-interests.js'
import { nlpHas, termsOf } from './nlp.js'
import { ADV, type ClauseInfo, type RuleContext } from './rules-common.js'
import { gerund, singular } from './text.js'
import { re, rx, rxg } from './regex.js'
import type { RuleId } from './rules.js'
import type { Span } from './trace.js'

const STRONG =
  'love|loves|adore|adores|live for|have a passion for|have a love for|can not get enough of|can not live without'
const MILD =
  'like|likes|enjoy|enjoys|dig|fancy|prefer|appreciate|have a soft spot for|have a weakness for|have a thing for|have an interest in'
const AM_STRONG =
  'in love with|passionate about|obsessed with|crazy about|addicted to|a sucker for|mad about|nuts about'
const AM_MILD =
  'into|fond of|interested in|keen on|hooked on|big on|(?:a |an )?(?:big |huge |massive |great |die[- ]hard |long[- ]time |lifelong )?fan of'

const LIKE_RULES: [RuleId, RegExp, number][] = [
  ['interest.love', rx`\\bi ${ADV}(?:${STRONG})\\s+(.+)$`, 0.9],
  ['interest.like', rx`\\bi ${ADV}(?:${MILD})\\s+(.+)$`, 0.85],
  [
    'interest.am-passionate-about',
    rx`\\bi am ${ADV}(?:so |very |quite |super |totally |pretty )?(?:${AM_STRONG})\\s+(.+)$`,
    0.9,
  ],
  [
    'interest.am-into',
    rx`\\bi am ${ADV}(?:so |very |quite |super |totally |pretty |big |huge |heavily |deeply |hugely )?(?:${AM_MILD})\\s+(.+)$`,
    0.85,
  ],
]

const PET_ALT = [...PET_WORDS].sort((a, b) => b.length - a.length).join('|')
const PET_HAVE = re(
  `\\b(i|we) ${ADV}(?:have|own|got|adopted|rescued|have got|keep|raise|take care of|foster) (?:a |an |one |two |three |four |five |six |seven |several |some |many |lots of |a few |a couple (?:of )?|\\d+ )?((?:[a-z-]+ ){0,2}?)(?:pet )?(${PET_ALT})(?:s|es)?\\b`,
)
const PET_GENERIC = rx`\\b(?:i|we) ${ADV}(?:have|own) (?:a |an |two |three |\\d+ )?pet ([a-z]+)`
const MY_PET = rx`\\bmy ((?:[a-z-]+ ){0,2}?)(?:pet )?(${PET_ALT})(?:s|es)?\\b`
const NOT_PET_CONTEXT =
  /\b(?:no|not|never|allergic|afraid|scared|died|dead|passed away|lost|ran away|put down|miss|used to)\b/

const ACTIVITY_VERBS =
  'cook|bake|grill|garden|walk|workout|knit|paint|draw|sew|hike|swim|surf|ski|snowboard|dance|sing|run|jog|fish|hunt|camp|bike|cycle|climb|skate|golf|bowl|meditate|write|travel|kayak|crochet|quilt|sketch|box|wrestle|row|sail|blog|vlog|volunteer|work out|exercise|lift weights|act|sculpt|tinker|skateboard|rollerblade|scrapbook|birdwatch|backpack|canoe|dive|fence|juggle|ride horses|ride my bike|compose music|rap|sketch|play music'

/** Adds interest items at `base` confidence (times each item's weight), restoring the case of names and titles. */
export function addItems(items: Item[], ctx: RuleContext, base: number, rule: RuleId, span?: Span): void {
  for (const it of items) {
    const named =
      it.category === 'travel' || it.category === 'music' || it.category === 'books' || it.category === 'movies_tv'
    // place and people names written in lower case get capitals ("paris" -> "Paris", "taylor swift" -> "Taylor Swift")
    const proper =
      named &&
      /^[a-z]/.test(it.value) &&
      !/^the\s/.test(it.value) &&
      nlpHas(it.value, it.category === 'travel' ? '^#Place+$' : '^#Person+$')
    const value = named ? ctx.cases.restore(it.value, proper) : it.value
    ctx.acc.addInterest(it.category, value, base * it.weight, rule, span)
  }
}

/** "my favorite food is pizza", "horror movies are my favorite", "my favorite thing to do is hike". */
function ruleFavorite(c: ClauseInfo, ctx: RuleContext): boolean {
  const t = c.text
  let head: string | undefined
  let value: string | undefined
  let rule: RuleId = 'interest.my-favorite-is'
  let m =
    /\bmy (?:(?:all[- ]time|absolute|very|most|top|current|personal|new|biggest) )*(?:favorites?|preferred) (.+?) (?:is|are|has to be|have to be|would be|=|:|of all time is) (.+)$/.exec(
      t,
    )
  if (m) [head, value] = [m[1], m[2]]
  if (!m) {
    rule = 'interest.is-my-favorite'
    m =
      /^(.+?) (?:is|are) (?:definitely |probably |also |still |easily )?(?:one of )?my (?:(?:all[- ]time|absolute|very|most|top) )*(?:favorites?|preferred)(?:\s+(.+?))?$/.exec(
        t,
      )
  }
  if (!m) {
    rule = 'interest.is-my-passion'
    m =
      /^([a-z][a-z '-]+?) (?:is|are) (?:really |definitely |truly )?(?:my|a) (?:passion|hobby|hobbies|thing|jam|obsession|guilty pleasure|love)(?: of mine)?()$/.exec(
        t,
      )
  }
  if (m && !value) [head, value] = [m[2] ?? '', m[1]]
  if (!m || value === undefined) return false
  const past = /\bwas\b/.test(t)
  const conf = past ? 0.6 : 0.9
  const h = (head ?? '')
    .replace(/\b(?:kind|type|sort|genre|style|brand|flavor) of\s+/, '')
    .replace(/^(?:thing|things|activity|activities|way)\b/, 'thing')
    .trim()
  const toVerb = /\bto (eat|drink|cook|watch|read|listen to|play|visit|go|do|see)\b/.exec(h)?.[1]
  const headWord = singular(
    h
      .replace(/\s+to\s+.*$/, '')
      .split(' ')
      .pop() ?? '',
  )
  let category: string | undefined = FAVORITE_HEADS[headWord]
  if (toVerb === 'eat' || toVerb === 'drink' || toVerb === 'cook') category = 'food'
  else if (toVerb === 'watch') category = category === 'sports' ? 'sports' : 'movies_tv'
  else if (toVerb === 'read') category = 'books'
  else if (toVerb === 'listen to') category = 'music'
  else if (toVerb === 'visit' || toVerb === 'go') category = 'travel'
  const raw = value.replace(/^(?:definitely|probably|easily|either|by far)\s+/, '')
  if (category === 'hobbies' || (!category && (!h || /^thing/.test(h)))) {
    addItems(interpretObject(raw, toVerb === 'play' ? 'play' : undefined), ctx, conf, rule, m)
    return true
  }
  if (!category) {
    // "my favorite shirts are ...": an unknown kind of thing; keep short values under "other"
    for (const item of splitList(cutPhrase(raw))) {
      const n = classifyNoun(item, 'other', 0.8)
      if (n && n.value.split(' ').length <= 3)
        ctx.acc.addInterest(n.weight === 1 ? n.category : 'other', n.value, conf * 0.8, rule, m)
    }
    return true
  }
  // "pizza with black olives", "coffee with cream": a dish with what goes on it is one food
  const dish =
    category === 'food'
      ? /^(?:a |an |the )?([a-z]+(?: [a-z]+)?) (with|and) ([a-z]+(?: [a-z]+)?)$/.exec(raw.replace(/[.!?]+$/, '').trim())
      : null
  if (
    dish &&
    dish[2] === 'with' &&
    classifyNoun(dish[1], 'food', 1)?.category === 'food' &&
    !/\b(?:my|friends|family|kids|everyone)\b/.test(dish[3])
  ) {
    ctx.acc.addInterest('food', `${dish[1]} with ${dish[3]}`, conf, rule, m)
    return true
  }
  const titled = category === 'books' || category === 'movies_tv' || category === 'music'
  // titles keep their words ("the who", "gone with the wind"): cut only at punctuation and clause words
  const cutRaw = titled
    ? raw
        .replace(/\s*[,.!?;].*$|\s(?:because|since|but|and i|so i|as it|lol|haha|by far|of all time)\b.*$/, '')
        .split(' ')
        .slice(0, 7)
        .join(' ')
    : cutPhrase(raw)
  for (const item of titled ? [cutRaw] : splitList(cutRaw)) {
    const n =
      classifyNoun(item, category, 1) ??
      (titled && /^the \S/.test(item) ? { category, value: item, weight: 0.9 } : undefined)
    if (!n) continue
    const asTitle = category === 'books' || category === 'movies_tv' || (category === 'music' && n.weight < 1)
    const title = asTitle ? item.replace(/^(?:a|an|my)\s+/, '').trim() : n.value
    ctx.acc.addInterest(category, ctx.cases.restore(title), conf, rule, m)
  }
  return true
}

const PET_MODIFIERS = new Set(
  `old new little big sweet cute lovely beloved adorable two three four five black white brown grey gray orange golden
  baby rescue rescued senior young first fat lazy fluffy tiny small large giant huge crazy silly spoiled adopted pet
  female male boy girl furry miniature mini pure purebred bred mixed breed pit german`.split(/\s+/),
)
const modifiersOnly = (s: string) =>
  s
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => {
      if (PET_MODIFIERS.has(w) || /^\d+$/.test(w) || /(?:ian|ese|ish)$/.test(w)) return true
      const t = termsOf(w)[0]?.tags ?? []
      return t.includes('Adjective') && !t.includes('Noun')
    })

function rulePets(c: ClauseInfo, ctx: RuleContext): void {
  const t = c.text
  if (NOT_PET_CONTEXT.test(t)) return
  const have = rx`\\b(i|we) ${ADV}(?:have|own|got|adopted|rescued|have got)\\b`.exec(t)
  if (have) {
    const rest = t.slice(have.index)
    let found = false
    for (const p of rest.matchAll(
      rxg`\\b(?:a|an|one|two|three|four|five|some|\\d+)\\s+((?:[a-z-]+ ){0,2}?)(?:pet )?(${PET_ALT})(?:s|es)?\\b`,
    )) {
      if (modifiersOnly(p[1])) {
        ctx.acc.addInterest('pets', singular(p[2]), have[1] === 'we' ? 0.75 : 0.9, 'interest.pet-have-a', p)
        found = true
      }
    }
    if (found) return
  }
  let m = PET_HAVE.exec(t)
  if (m && modifiersOnly(m[2])) {
    ctx.acc.addInterest('pets', singular(m[3]), m[1] === 'we' ? 0.75 : 0.9, 'interest.pet-have', m)
    return
  }
  // "two cats live with me"
  m =
    rx`^(?:(?:a|an|one|two|three|four|five|my|\\d+) )?((?:[a-z-]+ )?)(${PET_ALT})(?:s|es)? (?:live|lives|lived) with (?:me|us)\\b`.exec(
      t,
    )
  if (m) ctx.acc.addInterest('pets', m[2], 0.8, 'interest.pet-lives-with-me', m)
  m = PET_GENERIC.exec(t)
  if (m) {
    ctx.acc.addInterest('pets', singular(m[1]), 0.85, 'interest.pet-have-pet-x', m)
    return
  }
  for (const p of t.matchAll(re(MY_PET.source, 'g'))) {
    if (p[2] !== 'pet' && modifiersOnly(p[1])) ctx.acc.addInterest('pets', singular(p[2]), 0.7, 'interest.pet-my', p)
  }
}

function ruleActivities(c: ClauseInfo, ctx: RuleContext): void {
  const t = c.text
  let m = rx`\\bi ${ADV}(?:play|am playing|have been playing|have played for)\\s+(.+)$`.exec(t)
  if (m) addItems(interpretObject(m[1], 'play'), ctx, 0.85, 'interest.play', m)
  m = rx`\\bi ${ADV}(?:listen|am listening|have been listening)\\s+to\\s+(.+)$`.exec(t)
  if (m) addItems(interpretObject(m[1], 'listen'), ctx, 0.85, 'interest.listen-to', m)
  m = rx`\\bi ${ADV}(?:watch|am watching|binge watch|binge)\\s+(.+)$`.exec(t)
  if (m) addItems(interpretObject(m[1], 'watch'), ctx, 0.8, 'interest.watch', m)
  m = rx`\\bi ${ADV}(?:read|am reading)(?:\\s+(.+))?$`.exec(t)
  if (m)
    addItems(
      m[1] && cutPhrase(m[1]) ? interpretObject(m[1], 'read') : verbItems('read', ''),
      ctx,
      0.8,
      'interest.read',
      m,
    )
  m = rx`\\bi ${ADV}(?:collect|am collecting)\\s+(.+)$`.exec(t)
  if (m) addItems(verbItems('collect', cutPhrase(m[1])), ctx, 0.9, 'interest.collect', m)
  m = rx`\\bi ${ADV}(?:eat|drink|am eating|am drinking)\\s+(.+)$`.exec(t)
  if (m) for (const it of splitList(cutPhrase(m[1]))) addItems(verbItems('eat', it), ctx, 0.6, 'interest.eat-drink', m)
  m = rx`\\bi ${ADV}(?:go|often go|like going)\\s+(.+)$`.exec(t)
  if (m && !/^(?:to (?:work|school|college|bed|sleep|class|the (?:store|doctor|office))|home|back|out of)\b/.test(m[1]))
    addItems(verbItems('go', cutPhrase(m[1])), ctx, 0.8, 'interest.go', m)
  m =
    rx`\\bi ${ADV}do (?!not\\b|so\\b|too\\b|it\\b|that\\b|this\\b|what\\b|well\\b|my\\b|the same\\b|same\\b|a lot\\b|anything\\b|nothing\\b|everything\\b)(.+)$`.exec(
      t,
    )
  if (m)
    addItems(
      verbItems('do', cutPhrase(m[1])).filter(
        (i) => i.weight === 1 && (i.category === 'sports' || i.category === 'hobbies'),
      ),
      ctx,
      0.85,
      'interest.do',
      m,
    )
  m = rx`\\bi ${ADV}(${ACTIVITY_VERBS})\\b(.*)$`.exec(t)
  if (
    m &&
    !(
      m[1] === 'run' &&
      /^\s+(?:a|an|the|my|our|his|her|into|out|late|away|errands)\b/.test(m[2]) &&
      !/\b(?:marathon|race|mile|5k|10k)/.test(m[2])
    )
  ) {
    // "i grill outdoors", "i paint at home": where, not what
    const obj = cutPhrase(m[2].trim()).replace(
      /^(?:outdoors|outside|indoors|inside|at home|alone|together|daily|a lot)$/,
      '',
    )
    const verb = m[1].split(' ')[0]
    const items =
      /^(?:a|an|the|my|our|for|at|in|on|with)\b/.test(obj) || !obj
        ? verbItems(verb, '')
        : splitList(obj).flatMap((o) => verbItems(verb, o))
    addItems(items, ctx, 0.8, 'interest.activity-verb', m)
  }
  // abilities and ongoing activities: "i can sew", "i know how to surf", "i have been traveling the world"
  m =
    rx`\\bi ${ADV}(?:can|could always|know how to|am able to|am good at|am great at) (${ACTIVITY_VERBS})(?:ing)?\\b(.*)$`.exec(
      t,
    )
  if (m && !c.negated) {
    const obj = cutPhrase(m[2].trim())
    addItems(
      verbItems(m[1].split(' ')[0], /^(?:a|an|the|my|our|for|at|in|on|with)\b/.test(obj) ? '' : obj).filter(
        (i) => i.category !== 'other',
      ),
      ctx,
      0.7,
      'interest.can-do',
      m,
    )
  }
  m = rx`\\bi have been ${ADV}(${ACTIVITY_VERBS.split('|')
    .filter((v) => !v.includes(' '))
    .map((v) => `${v}[a-z]{0,2}ing`)
    .join('|')})\\b`.exec(t)
  if (m && !c.negated && !/\b(?:for a living|to pay|right now|at the moment|today|tonight)\b/.test(t)) {
    const g = m[1]
    const hit = lookup(g)
    if (hit && hit.category !== 'other' && hit.term === g)
      ctx.acc.addInterest(hit.category, g, 0.7, 'interest.have-been-doing', m)
  }
  // "i am training for a marathon"
  m =
    rx`\\bi (?:am|have been) ${ADV}training for (?:a |an |my (?:first |next )?)?(marathon|half marathon|triathlon|ironman|5k|10k|race|bike race|swim meet)\\b`.exec(
      t,
    )
  if (m)
    ctx.acc.addInterest(
      'sports',
      /triathlon|ironman/.test(m[1])
        ? 'triathlon'
        : /bike/.test(m[1])
          ? 'cycling'
          : /swim/.test(m[1])
            ? 'swimming'
            : 'running',
      0.75,
      'interest.training-for',
      m,
    )
  // "i relax by knitting", "to unwind i paint"
  m =
    rx`\\bi ${ADV}(?:relax|unwind|de-stress|destress|decompress|chill) (?:by|with) ([a-z]+ing(?: [a-z]+)?)\\b`.exec(
      t,
    ) ?? rx`^(?:to (?:relax|unwind)|for fun),? i ${ADV}([a-z]+(?: [a-z]+)?)`.exec(t)
  if (m && !c.negated)
    addItems(
      interpretObject(m[1]).filter((i) => i.weight >= 0.8),
      ctx,
      0.8,
      'interest.relax-by',
      m,
    )
  // "i love spending time with my family", "i volunteer at the animal shelter"
  m =
    rx`\\bi ${ADV}(?:(?:love|like|enjoy|adore) (?:to )?)?(?:spend|spending) (?:quality |a lot of |lots of |all my |most of my |my )?(?:free |spare )?time with (?:my )?(family|friends|kids|children|grandchildren|grandkids)\\b`.exec(
      t,
    )
  if (m && !c.negated)
    ctx.acc.addInterest('hobbies', `spending time with ${m[1]}`, 0.75, 'interest.time-with-family', m)
  m =
    rx`\\bi ${ADV}(?:volunteer|help out|do volunteer work|am volunteering|help) (?:at|in) (?:a |an |the |my |our )?(?:local )?((?:[a-z]+ ){0,2}(?:shelter|bank|kitchen|hospital|church|library|school|zoo|museum|center|centre|clinic|home|pantry|rescue|hospice))\\b`.exec(
      t,
    )
  if (m && !c.negated) {
    ctx.acc.dropInterest('volunteering')
    ctx.acc.addInterest('hobbies', `volunteering at ${m[1]}`, 0.8, 'interest.volunteer-at', m)
  }
  // "i read journals about psychology": the subject is the interest
  m =
    rx`\\bi ${ADV}(?:read|like reading|love reading|enjoy reading|like to read|love to read)\\s+(?:[a-z]+ )?(?:books|novels|journals|articles|magazines|guides|stories|papers|blogs)(?: and (?:[a-z]+ )?(?:books|novels|journals|articles|magazines|guides|stories|papers|blogs))? (?:about|on|related to|regarding) ([a-z][a-z ]+)$`.exec(
      t,
    )
  if (m) {
    const topic = cutPhrase(m[1]).replace(/^(?:the|a|an)\s+/, '')
    if (topic && topic.split(' ').length <= 3) ctx.acc.addInterest('books', topic, 0.75, 'interest.read-about', m)
  }
  // "i grow tomatoes", "i grow roses in my garden"
  m =
    rx`\\bi ${ADV}(?:grow|am growing|have grown) (?:my own |our own |some |a lot of )?(?:[a-z]+ )?(?:vegetables|veggies|herbs|flowers|roses|tomatoes|plants|fruit|fruits|tulips|orchids|succulents|peppers|lettuce|potatoes|food)\\b`.exec(
      t,
    )
  if (m) {
    ctx.acc.addInterest('hobbies', 'gardening', 0.7, 'interest.grow', m)
  }
  // "i saw the rolling stones in concert"
  m =
    rx`\\bi ${ADV}(?:see|saw|have seen|went to see|go to see|love seeing) (.+?) (?:in concert|live in concert|perform live|on tour)\\b`.exec(
      t,
    )
  if (m) {
    const name = m[1].replace(/^(?:my favorite band|my favourite band)\s*/, '').trim()
    if (name && name.split(' ').length <= 5 && !/^(?:them|him|her|it|a band|bands|a show|shows|concerts)$/.test(name))
      ctx.acc.addInterest('music', ctx.cases.restore(name, true), 0.7, 'interest.saw-in-concert', m)
  }
  m = rx`\\bi ${ADV}(?:take|am taking|have been taking) (.+?) (?:lessons?|class(?:es)?|courses?)\\b`.exec(t)
  if (m) {
    const x = m[1].replace(/^(?:a|an|some)\s+/, '')
    const hit = lookup(gerund(x))
      ? { category: lookup(gerund(x))!.category, value: gerund(x) }
      : classifyNoun(x, 'hobbies', 0.8)
    if (hit) ctx.acc.addInterest(hit.category, hit.value, 0.8, 'interest.take-lessons', m)
  }
  m = rx`\\bi ${ADV}(?:am learning|have been learning|am studying|learn) (.+)$`.exec(t)
  if (m) {
    const to = /^(?:how )?to\s+([a-z]+)\s*(.*)$/.exec(m[1])
    addItems(
      to ? verbItems(to[1], cutPhrase(to[2])) : verbItems('learn', cutPhrase(m[1])),
      ctx,
      0.7,
      'interest.learning',
      m,
    )
  }
  m =
    rx`\\bi ${ADV}(?:started|began|took up|have taken up|picked up|got into|am getting into|have gotten into) (.+)$`.exec(
      t,
    )
  if (m && !/^(?:a |an |the |my |to work|working|school|college|dating)/.test(m[1]))
    addItems(
      interpretObject(m[1]).filter((i) => i.weight >= 0.8),
      ctx,
      0.7,
      'interest.took-up',
      m,
    )
  m =
    rx`\\bi ${ADV}spend (?:a lot of |most of |all of |much of |lots of |some )?(?:my )?(?:free |spare |extra |leisure )?time (?:on |doing )?(.+)$`.exec(
      t,
    )
  if (m) addItems(interpretObject(m[1]), ctx, 0.8, 'interest.spend-time', m)
  m =
    rx`\\bi ${ADV}(?:visit|travel to|have been to|have visited|have traveled to|have travelled to|love visiting)\\s+(.+)$`.exec(
      t,
    )
  if (m)
    for (const it of splitList(cutPhrase(m[1])))
      addItems(
        verbItems('visit', it).filter((i) => i.weight >= 0.9),
        ctx,
        0.75,
        'interest.visit',
        m,
      )
  m =
    rx`\\bi am ${ADV}(?:a |an |strictly |mostly |fully )?(vegan|vegetarian|pescatarian|pescetarian|keto|paleo|gluten[- ]free|plant[- ]based|raw vegan|flexitarian)\\b`.exec(
      t,
    )
  if (m) ctx.acc.addInterest('food', m[1].replace(' ', '-'), 0.85, 'interest.diet', m)
  m = rx`\\bi am ${ADV}(.+)$`.exec(t)
  if (m) {
    for (const part of m[1].split(/\s*,\s*(?:and\s+)?|\s+and\s+/)) {
      const f =
        /^(?:a |an )?(?:(?:big|huge|massive|die[- ]hard|avid|real|true|total|complete|lifelong|long[- ]time) )*([a-z][a-z '&-]*?) (?:fan|lover|enthusiast|buff|junkie|addict|fanatic|nut|aficionado)$/.exec(
          part,
        )
      if (!f || /\b(?:of|for|with|not|no)\b/.test(f[1])) continue
      const n = classifyNoun(f[1], 'other', 0.75)
      if (n)
        ctx.acc.addInterest(
          n.category,
          ['music', 'movies_tv', 'books', 'travel', 'sports'].includes(n.category)
            ? ctx.cases.restore(n.value)
            : n.value,
          0.85 * n.weight,
          'interest.fan',
          m,
        )
    }
  }
}

/** Wishes and plans are weak evidence of an interest: "I would love to visit Japan" -> travel: Japan (0.5). */
function ruleDesire(c: ClauseInfo, ctx: RuleContext): void {
  const m =
    /\bi (?:would (?:love|like) to|want to|hope to|plan to|am planning to|dream of|wish i could|am going to) (?:(?:try|start|take up|get into|learn (?:how )?to) )?(.+)$/.exec(
      c.text,
    )
  if (!m) return
  const obj = m[1].replace(/^(?:learn)\s+/, 'learning ')
  const items = /^(?:[a-z]+ing)\b/.test(obj) ? interpretObject(obj) : interpretObject(`to ${obj}`)
  addItems(
    items.filter((i) => i.weight >= 0.8),
    ctx,
    0.5,
    'interest.wish',
    m,
  )
}

export function ruleInterests(c: ClauseInfo, ctx: RuleContext): void {
  if (c.hedged) return
  if (c.desire) {
    ruleDesire(c, ctx)
    return
  }
  // "i walk dogs for a living": work, not a pastime
  if (/\bfor a living\b|\bto pay (?:the|my|for) (?:bills|rent|tuition|college|school)\b/.test(c.text)) return
  if (ruleFavorite(c, ctx)) return
  for (const [rule, re, conf] of LIKE_RULES) {
    const m = re.exec(c.text)
    if (m) {
      addItems(interpretObject(m[1]), ctx, conf, rule, m)
      break
    }
  }
  rulePets(c, ctx)
  ruleActivities(c, ctx)
}
