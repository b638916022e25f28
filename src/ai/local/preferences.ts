// preferences: conversation_style ("keep it short", "I prefer detailed answers") and topics_to_avoid
// ("please don't talk about politics", "my divorce is a sensitive topic").
import { cutPhrase, splitList } from './classify.js'
import { ruleReplyLanguage } from './languages.js'
import { ADV, type ClauseInfo, type RuleContext } from './rules-common.js'
import type { RuleId } from './rules.js'
import { pattern } from './regex.js'

/** [rule, pattern, style, confidence, negation allowed inside the pattern] */
const STYLES: [RuleId, RegExp, string, number, boolean][] = [
  [
    'style.concise',
    new RegExp(pattern`
      \b(?:keep (?:it|things|your (?:answers|responses|replies)|answers|responses|replies|messages) (?:short|brief|
      concise|simple)|short (?:answers|responses|replies|messages)|be (?:brief|concise|succinct)|
      brief (?:answers|responses|replies)|concise (?:answers|responses|replies)|(?:answers|responses|replies) short|
      tl;?dr|short and sweet|fewer words|less text)\b`),
    'concise',
    0.9,
    false,
  ],
  [
    'style.detailed',
    new RegExp(pattern`
      \b(?:detailed|in-depth|in depth|thorough|long|comprehensive|lengthy) (?:answers|explanations|responses|replies)|
      \bin (?:great |more |full )?detail\b|\bmore details?\b|explain (?:things |everything )?thoroughly|step by step`),
    'detailed',
    0.9,
    false,
  ],
  [
    'style.direct',
    new RegExp(pattern`
      \b(?:be (?:(?:brutally|totally|completely|really|very) )?(?:direct|blunt|straightforward|frank|honest with me)|
      no fluff|without (?:the )?fluff|(?:do not|never) sugarcoat|
      straight talk|(?:get|straight) to the point|to the point|direct (?:answers|responses))\b`),
    'direct',
    0.85,
    true,
  ],
  [
    'style.casual',
    new RegExp(pattern`
      \b(?:casual|informal|relaxed|chill|laid[- ]back) (?:tone|style|conversations?|chats?|talk|language|vibe)|
      keep (?:it|things) (?:casual|informal|light|chill|relaxed)|talk to me like a friend|be casual`),
    'casual',
    0.85,
    false,
  ],
  [
    'style.formal',
    new RegExp(pattern`
      \b(?:formal|professional|polite) (?:tone|style|language|conversations?|manner|register)|
      keep (?:it|things) (?:formal|professional)|
      (?:^(?:(?:please|pls|just|and|but|always|so) )*|\bplease )be (?:more )?(?:formal|professional)\b`),
    'formal',
    0.85,
    false,
  ],
  [
    'style.humorous',
    new RegExp(pattern`
      \b(?:funny|humorous|playful|witty|lighthearted|light-hearted) (?:tone|style|answers|responses|conversations?)|
      make me laugh|(?:use|like|love|appreciate) (?:jokes|humor|humour) in|keep (?:it|things) (?:funny|fun|playful)`),
    'humorous',
    0.75,
    false,
  ],
  [
    'style.simple',
    new RegExp(pattern`
      \b(?:simple|plain|easy) (?:terms|language|words|english|explanations)|no jargon|without (?:the )?jargon|
      avoid (?:the )?(?:\w+ )?jargon|less jargon|eli5|explain (?:it |things |this )?(?:to me )?like i am (?:five|5|
      new to (?:this|it)|a (?:beginner|newbie|kid|child|total beginner))|
      beginner[- ]friendly (?:answers|explanations)`),
    'simple',
    0.85,
    true,
  ],
  [
    'style.technical',
    /\btechnical (?:details|answers|language|depth|explanations)|(?:do not|never) dumb (?:it|things) down/,
    'technical',
    0.8,
    true,
  ],
  [
    'style.supportive',
    new RegExp(pattern`
      \b(?:warm|friendly|kind|gentle|supportive|empathetic|encouraging) (?:tone|style|manner|conversations?)|
      be (?:gentle|kind|supportive|patient|encouraging) with me`),
    'supportive',
    0.8,
    false,
  ],
  [
    'style.lists',
    new RegExp(pattern`
      \b(?:(?:use|in|with|as|give me) (?:a |some )?(?:bullet(?:ed)? points?|bullet(?:ed)? lists?|
      numbered lists?|lists)|bullet points? (?:please|pls|plz)|no walls? of text)\b`),
    'bullet points',
    0.85,
    false,
  ],
  [
    'style.no-emoji',
    new RegExp(pattern`
      (?:\b(?:(?:stop|quit) (?:using|adding|putting)(?: all)? (?:the |those |so many )?|(?:(?:do|can you|could you) not|
      never) (?:use|add|put)(?: any)? |(?:skip|drop|lose|ditch|cut) (?:the |all the )?)|
      ^(?:(?:and|but|also|so|please|pls|plz|oh) )*(?:no more |no |without (?:the |any )?|less |fewer ))
      (?:emojis?|emoticons?)\b`),
    'no emojis',
    0.85,
    true,
  ],
]

/** Where a subject opens: the clause's start, or after a comma or "and" that leaves the person's words. */
const SUBJECT_OPENS = '(?:^|, |\\band |\\bbut )'

const AVOID: [RuleId, RegExp, number][] = [
  [
    'avoid.do-not-talk-about',
    new RegExp(pattern`
      \b(?:please |pls |and )?(?:do not|never) (?:talk|ask me|ask|speak(?= (?:to me |with me )?(?:about|on|of)\b)|
      bring up|mention|discuss|chat|joke|
      go on) (?:to me |with me )?(?:about |on )?(.+)$`),
    0.9,
  ],
  ['avoid.let-us-not', /\blet us not (?:talk about|discuss|get into|bring up|go into) (.+)$/, 0.9],
  [
    'avoid.rather-not',
    new RegExp(pattern`
      \bi (?:would rather|prefer to|would prefer to|choose to) not (?:talk about|discuss|get into|go into|bring up|
      share (?:anything )?about) (.+)$`),
    0.9,
  ],
  [
    'avoid.prefer-not-to',
    new RegExp(pattern`
      \bi (?:would rather|prefer) (?:not to|you did not|you do not) (?:talk about|discuss|get into|go into|bring up|
      mention) (.+)$`),
    0.9,
  ],
  [
    'avoid.do-not-want-to-talk',
    new RegExp(pattern`
      \bi (?:do not|never) (?:want|like|wish|care|feel comfortable|enjoy|need|love) (?:you )?to (?:talk|speak|chat|hear|
      be asked|get asked|think) about (.+)$`),
    0.9,
  ],
  [
    'avoid.do-not-want-to-discuss',
    /\bi (?:do not|never) (?:want|like) to (?:discuss|get into|bring up|go into|revisit) (.+)$/,
    0.9,
  ],
  [
    'avoid.hate-talking-about',
    new RegExp(pattern`
      \bi (?:really )?(?:hate|dislike|do not like|do not enjoy|can not stand|avoid|am tired of|am sick of) (?:talking|
      talk|speaking|hearing|discussing|conversations|questions) about (.+)$`),
    0.9,
  ],
  [
    'avoid.please-avoid',
    new RegExp(pattern`
      ^(?:(?:could|can|would|will) you )?
      (?:please )?avoid (?:talking about |discussing |the topics? of |topics like |mentioning |bringing up )?(.+)$`),
    0.85,
  ],
  [
    'avoid.sensitive-topic',
    new RegExp(pattern`
      ^(.+?) (?:is|are) (?:off[- ]limits|a sensitive (?:topic|subject|issue)|a touchy (?:subject|topic)|
      a sore (?:subject|spot)|triggering|not something i (?:talk|want to talk) about)\b`),
    0.85,
  ],
  ['avoid.no-talk-about', /\bno (?:talk|talking|discussion|questions|jokes) (?:about|of|on) (.+)$/, 0.85],
  // "i like history podcasts, nothing political", "no politics please": a topic everyone knows as one to keep out
  [
    'avoid.no-topic',
    new RegExp(pattern`(?:^|, )(?:(?:and|but|also|so|oh|just) )*(?:(?:please|pls|plz) )?(?:no|nothing|nothing too)
      \s(politics|political|religion|religious|current events|gossip|celebrity gossip)
      (?: stuff| talk| topics?)?(?: (?:please|pls|plz))?(?:$|[,.!])`),
    0.8,
  ],
  [
    'avoid.not-comfortable',
    /\bi am (?:not comfortable|uncomfortable) (?:talking|discussing|speaking) (?:about )?(.+)$/,
    0.85,
  ],
  ['avoid.stay-away-from', /\bplease (?:stay away from|skip|leave out) (.+)$/, 0.85],
  // "i get queasy at the sight of needles"
  [
    'avoid.faint-at',
    new RegExp(pattern`
      \bi (?:faint|pass out|gag|panic|freak out|cringe|shudder|get (?:sick|queasy|dizzy|nauseous)) (?:at|
      from) the (?:sight|thought|mention|smell|sound) of (.+)$`),
    0.5,
  ],
  // "crowds make me anxious", "the holidays make me sad": what upsets the person is best left alone
  [
    'avoid.makes-me-sad',
    new RegExp(pattern`
      ${SUBJECT_OPENS}(?!(?:i|you|he|she|we|they|it|this|that|there)\b)((?:[a-z'-]+ ){0,2}[a-z'-]+)
      \s(?:always |really |just |still )?(?:makes?|made|gets?) me (?:so |very |really |feel |a bit |kind of )*
      (?:sad|depressed|down|anxious|nervous|uncomfortable|upset|angry|scared|afraid|sick|miserable|cry|panic|stressed|
      uneasy|faint|queasy|nauseous|dizzy)\b|
      ${SUBJECT_OPENS}(?!(?:i|you|he|she|we|they|it|this|that|there)\b)((?:[a-z'-]+ ){0,2}[a-z'-]+)
      \s(?:always |really |just |still )?(?:(?:scares?|horrify|horrifies|terrify|terrifies|upsets?|depress|depresses)
      \sme|(?:creeps?|freaks?|gross|grosses) me out|kills? my buzz)\b|
      \bi (?:always |really |just )?find (.{2,30}?) (?:so |really |very |kind of )?(?:depressing|upsetting|
      terrifying|scary|frightening|triggering|sad)\b`),
    0.5,
  ],
  // "i have a phobia of spiders", "a real fear of heights", "dreading the holidays": weak, as a fear is
  [
    'avoid.phobia',
    new RegExp(pattern`\b(?:i (?:have|got) |my |^)(?:a |an )?(?:real |huge |big |serious |major |terrible |bad )?
      (?:phobia|fear) (?:of|over|about) (.+)$|(?:\bi ${ADV}(?:am )?|^)dread(?:ing)? (.+)$`),
    0.5,
  ],
  // "i think fashion is dumb", "sports are not for me": what the person dismisses
  [
    'avoid.dismissed',
    new RegExp(pattern`^(?:i think |honestly |personally |to me )?(?!(?:i|you|he|she|we|they|it|this|that|there|
      what|which|who|everything|nothing|life|work|today|tonight|the|his|her|their|your|its|our|my)\b)
      ((?:[a-z'-]+ ){0,2}[a-z'-]+) (?:is|are) (?:so |
      really |just |kind of |pretty |totally )?(?:dumb|stupid|pointless|overrated|a waste of time|not important to me|
      not for me|not my thing)(?:,|$| (?:though|anyway|honestly|lol|haha|to me)\b)`),
    0.5,
  ],
  // "when i see blood i faint", "i do not do well with needles", "pink is one color i do not like"
  [
    'avoid.cannot-bear',
    new RegExp(pattern`\bwhen i (?:see|hear|smell|think (?:of|about)) (.+?) i (?:faint|pass out|panic|freak out|gag|
      get (?:sick|queasy|dizzy))\b|\bi (?:do not|can not) (?:do well|deal well|cope well|handle being around) with
      \s(.+)$|^(?!(?:it|this|that|there)\b)(.{2,30}?) (?:is|are) (?:one|a|the) (?:[a-z]+ )?(?:thing|color|colour|food|
      topic|subject|smell|sound)s? i (?:do not like|hate|can not stand|dislike)\b`),
    0.5,
  ],
]

/** A topic said as an adjective ("nothing political"), and the topic it names. */
const TOPIC_OF_ADJECTIVE: Record<string, string> = { political: 'politics', religious: 'religion' }

function topics(raw: string): string[] {
  if (Object.hasOwn(TOPIC_OF_ADJECTIVE, raw)) return [TOPIC_OF_ADJECTIVE[raw]!]
  return splitList(
    cutPhrase(raw.replace(/\b(?:please|ever|again|with me|to me|anymore|at all)\b/g, ' ').replace(/\s+/g, ' ')),
  )
    .map((x) =>
      x.replace(/^(?:my|the|your|his|her|our|any|anything about|stuff about|things like|topics like)\s+/, '').trim(),
    )
    .filter(
      (x) =>
        x &&
        x.split(' ').length <= 5 &&
        !/^(?:it|that|this|them|things|stuff|anything|something|me|you|etc)$/.test(x) &&
        !/\bjargon\b/.test(x),
    )
}

export function rulePreferences(clause: ClauseInfo, ctx: RuleContext): void {
  const text = clause.text
  if (/^(?:do|does|are|is) you\b/.test(text)) return
  for (const [rule, re, style, conf, negOk] of STYLES) {
    const match = re.exec(text)
    if (!match) continue
    // "english is not my first language so keep it simple": a "not" of the statement before "so" is not the request's
    const before = text.slice(0, match.index).replace(/^.*\b(?:so|but|and|because)\s/, '')
    if (!negOk && /\b(?:not|never|no)\b/.test(before) && !/\b(?:do not|never) (?:ramble|waffle|go on)\b/.test(text))
      continue
    const explicit =
      /\b(?:prefer|please|pls|plz|stop|want|like|love|keep|be|give me|i need|appreciate|would rather)\b/.test(text)
    ctx.acc.setStyle(style, explicit ? conf : conf - 0.2, rule, match)
    break
  }
  ruleReplyLanguage(text, ctx)
  const ramble = /\b(?:do not|never) (?:ramble|waffle|write essays)\b/.exec(text)
  if (ramble) ctx.acc.setStyle('concise', 0.8, 'style.no-rambling', ramble)
  for (const [rule, re, conf] of AVOID) {
    const match = re.exec(text)
    // "no politics, no religion?": a question about someone else's life keeps nothing out
    if (!match || (rule === 'avoid.no-topic' && clause.question)) continue
    // a rule of several forms says its topic in whichever group matched
    const said = match.slice(1).find((group) => group !== undefined) ?? ''
    for (const topic of topics(said)) ctx.acc.addAvoid(ctx.cases.restore(topic), conf, rule, match)
    break
  }
}
