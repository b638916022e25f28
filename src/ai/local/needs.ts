// What an assistant must respect about the person, said in their own words: diet ("I'm pescatarian"), allergies
// ("allergic to tree nuts"), health conditions ("type 1 diabetic"), gender identity ("non-binary"), pronouns
// ("she/they") and orientation ("i'm bi"). The profile has no field of its own for these (docs/guides/the-profile.md,
// "Diet, health and identity"): a diet is an interest of the category `food`, beside the foods the person likes, since
// it changes and can be negated like one; allergies, conditions and pronouns are undated high-importance memories,
// which the context ranks first among memories, and an orientation one of medium importance.
// Only the person's own clauses count: "my son is allergic to eggs" and "my boss is vegan" say nothing about them,
// except a condition a clinician found ("my doctor says i have asthma").
import type { ClauseInfo, RuleContext } from './rules-common.js'
import { ADV } from './rules-common.js'
import type { RuleId } from './rules.js'
import { dict, pattern, re } from './regex.js'

/** Where a diet goes: the food interests, so that a reader of food finds it. */
const DIET_CATEGORY = 'food'
const DIETS = pattern`vegan|vegetarian|veggie(?! (?:lover|fan|burger|pizza|patch|garden|[a-z]+s)\b)|
  pescatarian|pescetarian|flexitarian|plant-based|plant based|gluten-free|
  gluten free|dairy-free|dairy free|lactose intolerant|lactose-intolerant|keto|paleo|carnivore|raw vegan|
  lacto-ovo vegetarian`
const DIET_WORDS = new RegExp(`^(?:${DIETS})$`)
const SPECIAL_DIETS = pattern`${DIETS}|low[- ]carb|low[- ]fodmap|low[- ]sugar|low[- ]fat|high[- ]protein|raw food|raw|
  whole food|mediterranean|halal|kosher`
/** A clause whose subject is the person ("i ...", "am ..."), after an interjection the clause splitter left. */
const OWN_SUBJECT = /^(?:(?:yeah|well|so|also|and|but|oh|honestly|ok|okay)\s+)?(?:i\b|am\b)/
/** A clause that opens with someone else, or with a thing, as its subject. */
const OTHER_SUBJECT = /^(?:my|our|your|his|her|their|the|a|an|he|she|they|we|you|it|this|that|everyone|someone)\b/

const DIET_RULES: [RuleId, RegExp, number][] = [
  [
    'diet.i-am',
    re(`^i am ${ADV}(?:a |an )?(?:strict |strictly |fully |full[- ]time |mostly |now |still )?(${DIETS})\\b`),
    0.85,
  ],
  [
    'diet.i-am',
    re(`^i ${ADV}(?:have been|went|turned|became|have gone|have become) (?:a |an )?(?:strict |mostly )?(${DIETS})\\b`),
    0.85,
  ],
  ['diet.i-am', re(`^i ${ADV}(?:am|have been) (?:doing|on|eating) (?:a |the )?(${DIETS})\\b(?! diet)`), 0.85],
  ['diet.bare', re(`^(${DIETS})(?: here| btw| by the way| now| these days| (?:since|for) [a-z0-9 ]+)?$`), 0.75],
  [
    'diet.follow',
    re(`^i ${ADV}(?:follow|eat|am on|do|stick to|keep to) (?:a |an |the |mostly )?(${SPECIAL_DIETS}) diet\\b`),
    0.85,
  ],
  [
    'diet.kosher-halal',
    re(`^i ${ADV}(?:keep|eat|only eat|eat only|can only eat|will only eat) (kosher|halal)\\b`),
    0.85,
  ],
  // "i have to, being vegan": the person's own clause that goes on to say their diet
  // ("i like my sister being vegan" is the sister's)
  [
    'diet.i-am',
    re(`^i (?:(?!(?:my|his|her|their|your|our|him|them|you)\\b)[a-z']+ ){0,4}being (?:a |an )?(${DIETS})\\b`),
    0.7,
  ],
  // "kosher is the only way i eat", "vegan is how i cook"
  ['diet.only-way', re(`^(${SPECIAL_DIETS}) is (?:the only way|how|all) i ${ADV}(?:eat|cook)\\b`), 0.8],
  // "i have been eating healthy since", "i try to eat clean": a way of eating, not a food
  [
    'diet.eat-healthy',
    re(`^i ${ADV}(?:have been |try to |am trying to |like to )?eat(?:ing)? (healthy|healthier|clean)\\b`),
    0.6,
  ],
  [
    'diet.no-food',
    re(`^i ${ADV}(?:do not|never|cannot|can not) eat (meat|pork|beef|fish|seafood|dairy|gluten|eggs)\\b`),
    0.7,
  ],
]

const ALLERGY_RULES: [RuleId, RegExp][] = [
  [
    'health.allergic-to',
    re(pattern`(?:^|\bi am |\band |, )(?:i have always been |i have been )?${ADV}
      (?:severely |very |highly |deathly |mildly )?allergic to (.+)$`),
  ],
  [
    'health.allergy',
    new RegExp(pattern`^i (?:have|got) (?:a |an |some )?(?:severe |mild |bad |serious |life-threatening )?
      ([a-z][a-z -]{1,30}?) (?:allergy|allergies)\b`),
  ],
]
/** Words before "allergic to" that make it someone else's allergy ("i think my son is allergic to eggs"). */
const OTHER_PERSON = /\b(?:my|our|his|her|their|your|he|she|they|you|we)\b/

/** Conditions said with "I have ..." (a closed list: "I have a cold" and "I have a dog" are not conditions). */
const CONDITIONS = pattern`type 1 diabetes|type 2 diabetes|type one diabetes|type two diabetes|diabetes|asthma|
  celiac disease|coeliac disease|celiac|coeliac|epilepsy|adhd|add|autism|ptsd|ocd|depression|anxiety|
  an anxiety disorder|bipolar disorder|bipolar|chronic migraines|migraines|rheumatoid arthritis|arthritis|
  crohn's disease|crohns|ibs|high blood pressure|hypertension|cancer|fibromyalgia|lupus|multiple sclerosis|copd|
  dyslexia|insomnia|sleep apnea|long covid|chronic fatigue syndrome|chronic pain|tinnitus|endometriosis|pcos|
  hypothyroidism|psoriasis|eczema|a heart condition|a bad back|scoliosis|parkinson's disease|parkinson's|hiv|
  hearing loss|low vision|tourette syndrome|tourette's|an eating disorder|anemia|gout|
  (?:lower |upper )?back pain|neck pain|knee pain|joint pain|
  (?:a )?(?:bad|weak|busted|dodgy) (?:left |right )?(?:knee|knees|back|hip|hips|shoulder|ankle|wrist)`
const CONDITION_RULE = re(pattern`^(?:i ${ADV}(?:have|live with|suffer from|struggle with|deal with|get|
  (?:am|have been) (?:living with|suffering from|struggling with|dealing with))|(?:living|struggling|dealing) with)
  \s(?:a |an )?
  (?:mild |severe |chronic |bad |really bad )?(${CONDITIONS})(?=$|[ ,;])`)
/** "chronic lower back pain from years of warehouse work", "adhd here": a condition said on its own. */
const CONDITION_FRAGMENT = re(pattern`^(?:mild |severe |chronic |bad |really bad )?(${CONDITIONS})
  (?:,? (?:here|btw|too|as well))*(?:,? (?:from|since|for) .+)?$`)
/** "my arthritis keeps me off the court", "my asthma is acting up": a condition the person calls theirs. */
const MY_CONDITION = re(pattern`(?:^|\s)my (?:mild |severe |chronic |bad )?(${CONDITIONS})(?=$|,| (?:is|was|has|had|
  keeps|kept|makes|made|gets|got|acts|acting|flares|flared|sometimes|always|really|never|still|can|will|does|did)\b)`)
/** "i went gluten free because of celiac", "i quit running due to my bad knee": a condition given as a reason. */
const BECAUSE_OF_CONDITION = re(pattern`^i [^,;]{0,80}?\b(?:because of|due to) (?:my |having |having a )?
  (?:mild |severe |chronic |bad |really bad )?(${CONDITIONS})(?=$|[,;!?]| (?:and|but|so|too|lol)\b)`)
/** "my cholesterol is high", "my iron levels are low": a measure (1) of the person's body and how it is (2). */
const MY_LEVEL = re(pattern`(?:^|\s)my (cholesterol|blood pressure|blood sugar|a1c|iron|vitamin d|thyroid)
  (?: levels?)? (?:is|are|was|were|has been|have been|came back|runs|keeps being) (?:(?:too|very|really|a bit|
  kind of|pretty|super|way too|a little|still|always|quite) )*(high|low)\b`)
/** "I am diabetic": an adjective for a condition, and the condition it names. */
const CONDITION_ADJECTIVES: Record<string, string> = dict({
  diabetic: 'diabetes',
  'type 1 diabetic': 'type 1 diabetes',
  'type 2 diabetic': 'type 2 diabetes',
  'type one diabetic': 'type 1 diabetes',
  'type two diabetic': 'type 2 diabetes',
  asthmatic: 'asthma',
  epileptic: 'epilepsy',
  autistic: 'autism',
  dyslexic: 'dyslexia',
  anemic: 'anemia',
  celiac: 'celiac disease',
  coeliac: 'coeliac disease',
  'hard of hearing': 'hearing loss',
  deaf: 'deafness',
  blind: 'blindness',
  colorblind: 'color blindness',
  'color blind': 'color blindness',
  'colour blind': 'color blindness',
})
/** Conditions a person says they are, and a reader keeps in those words: "is deaf", not "has deafness". */
const SAID_AS_IS = new Set(['deaf', 'blind', 'colorblind', 'color blind', 'colour blind', 'hard of hearing'])
const ADJECTIVES = Object.keys(CONDITION_ADJECTIVES)
  .sort((a, b) => b.length - a.length)
  .join('|')
const CONDITION_ADJECTIVE_RULE = re(pattern`^(?:i am ${ADV}(?:a )?)?(${ADJECTIVES})(?: here| btw| myself| too| lol)?
  (?:\s*[,;]|$| so\b| and\b| since\b)`)

/** Gender identities said in the person's own words; kept as said ("trans man", not "male"). */
const IDENTITIES = pattern`non-binary|nonbinary|non binary|enby|genderqueer|gender queer|genderfluid|gender fluid|
  agender|bigender|two-spirit|trans man|trans woman|transgender man|transgender woman|trans guy|trans girl|
  trans masc|trans femme|transmasc|transfem|transgender|trans|intersex`
const I_AM = `(?:i am ${ADV}(?:a |an )?|i identify as (?:a |an )?)`
const IDENTITY_ALONE = re(`^${I_AM}?(${IDENTITIES})(?: here| btw| person| and proud)?(?=,|$)`)
const IDENTITY_IN_CLAUSE = re(`^${I_AM}(${IDENTITIES})\\b`)
const SPELLINGS: Record<string, string> = dict({
  nonbinary: 'non-binary',
  'non binary': 'non-binary',
  enby: 'non-binary',
  'gender queer': 'genderqueer',
  'gender fluid': 'genderfluid',
  'trans guy': 'trans man',
  'trans girl': 'trans woman',
  transmasc: 'trans masc',
  transfem: 'trans femme',
})

/** Sexual orientations as people say them of themselves, and the word a reader keeps ("bi" -> "bisexual"). */
const ORIENTATIONS: Record<string, string> = dict({
  bi: 'bisexual',
  bisexual: 'bisexual',
  gay: 'gay',
  lesbian: 'lesbian',
  'a lesbian': 'lesbian',
  queer: 'queer',
  pan: 'pansexual',
  pansexual: 'pansexual',
  ace: 'asexual',
  asexual: 'asexual',
  demisexual: 'demisexual',
  aromantic: 'aromantic',
})
/**
 * "i am bi", "gay btw", "i'm ace and ...": an orientation said as what the person is, and nothing after it but "and"
 * or a chat tag ("i am gay for this song" and "i am pan frying" are no such statement).
 */
const ORIENTATION = re(pattern`^(?:i am ${ADV}(?:also |openly |proudly )?)?(${Object.keys(ORIENTATIONS).join('|')})
  (?:,? (?:btw|here|too|myself|lol|fwiw|and proud))*(?=$|,| and | so | but )`)

const PRONOUN = 'she|he|they|xe|ze|fae|it|her|him|them|hers|his|theirs|xem|zir|faer|any'
const PRONOUN_SET = `(?:${PRONOUN})(?:/(?:${PRONOUN})){1,2}`
/** "my pronouns are she/her", "i use they/them": a statement, so a single pronoun counts ("i go by they"). */
const PRONOUN_STATEMENT = re(`\\b(?:my pronouns are|i use|i go by|pronouns:?) (${PRONOUN_SET}|they)\\b`)
/** A bare set ("she/they"), by itself or after an identity ("non-binary, she/they"): never inside a sentence. */
const PRONOUN_ALONE = re(`^(?:(?:${IDENTITIES})\\s*,?\\s*)?\\(?(${PRONOUN_SET})\\)?(?: pronouns)?(?: please| pls)?$`)

/**
 * "my doctor says i have ...": a condition found by whoever treats the person is the person's own (not "might", nor
 * what they only think before a test: "my therapist thinks i have adhd, getting tested next week").
 */
const CLINICIAN_SAYS = new RegExp(pattern`^(?:my|the|a) (?:doctor|doc|therapist|psychiatrist|psychologist|gp|
  neurologist|cardiologist|dermatologist|specialist|physio|physiotherapist|dentist|counselor|counsellor)
  \s(?:says|said|told me|confirmed)(?: that)? (?=i (?:have|am)\b|my [a-z]+)`)

const isOwnClause = (text: string): boolean => !OTHER_SUBJECT.test(text) || OWN_SUBJECT.test(text)

/** Cuts a free object ("tree nuts and shellfish, which sucks") at the first clause boundary. */
function objectPhrase(raw: string): string | undefined {
  const cut = raw
    .replace(/\s+(?:so|but|which|because|since|when|if|though|although|lol|haha|btw)\b.*$/, '')
    .replace(/[,.;:!?()].*$/, '')
    .replace(/^(?:like |basically |literally )/, '')
    .trim()
  if (!cut || cut.split(' ').length > 6 || /^(?:it|that|this|them|everything|anything|something)$/.test(cut)) {
    return undefined
  }
  return cut
}

function dietRules(clause: ClauseInfo, ctx: RuleContext): void {
  for (const [rule, regex, confidence] of DIET_RULES) {
    const match = regex.exec(clause.text)
    if (!match) continue
    const said = match[1]!.replace(/\s+/g, ' ')
    const value =
      rule === 'diet.no-food'
        ? `no ${said}`
        : said.replace(/^plant based$/, 'plant-based').replace(/^veggie$/, 'vegetarian')
    if (rule !== 'diet.no-food' && !DIET_WORDS.test(said) && !/^(?:kosher|halal)$/.test(said)) {
      // "i try to eat clean" -> "eating clean", in the person's words; "a low-carb diet" -> "low-carb diet"
      const way = rule === 'diet.eat-healthy' ? `eating ${said}` : `${ctx.cases.restore(said)} diet`
      ctx.acc.addInterest(DIET_CATEGORY, way, confidence, rule, match)
      return
    }
    // the food rules may have read "pescatarian" already, with another confidence: the diet rule's stands
    ctx.acc.dropInterest(value)
    ctx.acc.addInterest(DIET_CATEGORY, value, confidence, rule, match)
    return
  }
}

function allergyRules(clause: ClauseInfo, ctx: RuleContext): void {
  for (const [rule, regex] of ALLERGY_RULES) {
    const match = regex.exec(clause.text)
    if (!match) continue
    if (OTHER_PERSON.test(clause.text.slice(0, match.index))) return
    const what = objectPhrase(match[1]!)
    if (!what) return
    const event = `is allergic to ${ctx.cases.restore(what)}`
    ctx.acc.addMemory({ event, importance: 'high', confidence: 0.85 }, rule, match)
    return
  }
}

function conditionRules(clause: ClauseInfo, ctx: RuleContext): void {
  // "was diagnosed with X last year" is a dated event: the memory rules keep it with its date
  if (/\bdiagnosed (?:with|as)\b/.test(clause.text)) return
  const level = MY_LEVEL.exec(clause.text)
  if (level && !clause.negated) {
    const event = `has ${level[2]} ${level[1] === 'a1c' ? 'A1C' : level[1] === 'vitamin d' ? 'vitamin D' : level[1]}`
    ctx.acc.addMemory({ event, importance: 'high', confidence: 0.8 }, 'health.condition', level)
    return
  }
  const stated =
    CONDITION_RULE.exec(clause.text) ?? CONDITION_FRAGMENT.exec(clause.text) ?? MY_CONDITION.exec(clause.text)
  const adjective = stated ? null : CONDITION_ADJECTIVE_RULE.exec(clause.text)
  const match = stated ?? adjective
  if (match) addCondition(match, !!stated, ctx)
}

/** A condition named as the reason for what the person did, whether or not they stopped doing it. */
function conditionAsReason(clause: ClauseInfo, ctx: RuleContext): void {
  const match = BECAUSE_OF_CONDITION.exec(clause.text)
  if (match) addCondition(match, true, ctx)
}

/** The memory of a condition (1 in `match`): stated by its name, or said by its adjective ("diabetic"). */
function addCondition(match: RegExpExecArray, stated: boolean, ctx: RuleContext): void {
  const said = match[1]!
  let condition = stated ? said : CONDITION_ADJECTIVES[said]!
  condition = condition.replace(/\btype one\b/, 'type 1').replace(/\btype two\b/, 'type 2')
  if (condition === 'add') condition = 'ADD'
  if (/^(?:adhd|ptsd|ocd|ibs|copd|pcos|hiv)$/.test(condition)) condition = condition.toUpperCase()
  const named = ctx.cases.restore(condition).replace(/^(?:a|an) /, '')
  // "a bad knee" keeps its article, as "bad knees" has none
  const counted = /^(?:bad|weak|busted|dodgy) /.test(named) && !/s$/.test(named) ? `a ${named}` : named
  const event = SAID_AS_IS.has(said) ? `is ${said.replace(/^colou?r blind$/, 'colorblind')}` : `has ${counted}`
  ctx.acc.addMemory({ event, importance: 'high', confidence: stated ? 0.85 : 0.8 }, 'health.condition', match)
}

function orientationRule(clause: ClauseInfo, ctx: RuleContext): void {
  const match = ORIENTATION.exec(clause.text)
  // a bare word alone is a reply or a label ("gay" may answer anything): only with "i am" or a chat tag after it
  if (!match || (!/^i am\b/.test(clause.text) && match[0] === match[1])) return
  const event = `is ${ORIENTATIONS[match[1]!]}`
  ctx.acc.addMemory({ event, importance: 'medium', confidence: 0.85 }, 'identity.orientation', match)
}

function genderRules(clause: ClauseInfo, ctx: RuleContext): void {
  const whole = IDENTITY_ALONE.exec(clause.text)
  const match = whole ?? IDENTITY_IN_CLAUSE.exec(clause.text)
  if (match) {
    const said = match[1]!
    // "trans" alone is a fragment of many phrases; taken only when it is the whole statement
    if (!(said === 'trans' && !whole)) {
      const value = SPELLINGS[said] ?? said
      ctx.acc.setCore('gender', value, whole && !/^i /.test(clause.text) ? 0.8 : 0.95, 'gender.identity', match)
    }
  }
}

/** Pronouns are read before the subject test: "my pronouns are ..." and a bare "she/they" are the person's. */
function pronounRules(clause: ClauseInfo, ctx: RuleContext): void {
  const pronouns = PRONOUN_STATEMENT.exec(clause.text) ?? PRONOUN_ALONE.exec(clause.text)
  if (pronouns) {
    const event = `uses ${pronouns[1]} pronouns`
    ctx.acc.addMemory({ event, importance: 'high', confidence: 0.9 }, 'identity.pronouns', pronouns)
  }
}

/** "i am not vegan anymore", "i am no longer vegetarian", "i stopped being vegan": the diet is removed. */
const DIET_DROPPED = re(pattern`^i ${ADV}(?:am (?:not (?:a |an )?(${DIETS}) (?:anymore|any more)|no longer (?:a |an )?
  (${DIETS}))|(?:stopped|quit) being (?:a |an )?(${DIETS}))\b`)

function dietDropped(clause: ClauseInfo, ctx: RuleContext): void {
  const match = DIET_DROPPED.exec(clause.text)
  const said = match && (match[1] ?? match[2] ?? match[3])
  if (said) ctx.acc.remove('interests', said, DIET_CATEGORY, 'diet.no-longer', match)
}

/** Diet, allergies, health conditions, gender identity and pronouns from one of the person's clauses. */
export function ruleNeeds(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.question || clause.hedged || clause.desire) return
  pronounRules(clause, ctx)
  // "my asthma is acting up" opens with "my", and the condition named is the person's whatever is said of it
  if (!isOwnClause(clause.text)) {
    if (MY_CONDITION.test(clause.text) || MY_LEVEL.test(clause.text)) conditionRules(clause, ctx)
    return
  }
  dietDropped(clause, ctx)
  conditionAsReason(clause, ctx)
  if (clause.negated && !/\b(?:do not|never|cannot|can not) eat\b/.test(clause.text)) return
  dietRules(clause, ctx)
  allergyRules(clause, ctx)
  conditionRules(clause, ctx)
  genderRules(clause, ctx)
  orientationRule(clause, ctx)
}

/** A condition of the person's that someone who treats them reported: "my doctor says i have high blood pressure". */
export function ruleConditionReported(clause: ClauseInfo, ctx: RuleContext): void {
  const clinician = CLINICIAN_SAYS.exec(clause.text)
  if (clinician && !clause.question && !clause.negated)
    conditionRules({ ...clause, text: clause.text.slice(clinician[0].length) }, ctx)
}
