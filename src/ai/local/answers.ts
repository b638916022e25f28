// Answers to the other speaker's questions. People in a chat rarely repeat the question: "what do you do?" gets
// "nurse", "what's your favorite movie?" gets "mine is friday", "do you like soccer?" gets "yes! every weekend".
// Each answer is read as the statement it stands for ("i am a nurse"), made of the person's own answer words, or of
// the words of a question they said yes to. Only the field, preference, need and language rules read these
// statements (readAnswers in local-extractor.ts), at lower confidence than what the person says outright.
import { NOT_TURNS, sameSpeaker, type ParsedConversation } from '../conversation.js'
import { pattern } from './regex.js'
import { normalize } from './text.js'

/** A statement the person made by answering: the question, their reply, and what the two say together. */
export interface Answer {
  question: string
  answer: string
  statement: string
}

/** Longest answer, in words, read as a bare answer ("a nurse", "hiking and reading", "the rolling stones"). */
const MAX_ANSWER_WORDS = 4
/** Longest part of a turn read: a question ends a turn and an answer opens one. Bounds every pattern's work. */
export const MAX_TURN_CHARS = 600

/** A part of a reply that is only a greeting or a reaction: "hey!", "lol.", "oh wow!". */
const INTERJECTION = new RegExp(pattern`
  ^(?:(?:hey|hi|hello|hiya|lol|haha|hahaha|ha|wow|cool|nice|great|awesome|oh|ooh|ah|aw|well|hmm|um|yes|yeah|sure|ok|
  okay|good|thanks|thank you|congrats|congratulations|sorry|really|interesting|neat|fun|same here|me too)[ ,]*)+$`)
/** A greeting to the one who asked: "hi amanda" answers no "what is your name?". */
const GREETS_SOMEONE = /^(?:hi|hey|hello|hiya|yo|howdy|heya)(?: there)?,? [a-z'-]+$/
/** Openings of an answer that carry no content: "well, probably pizza", "mine is friday". */
const ANSWER_OPENING = new RegExp(pattern`
  ^(?:(?:yes|yeah|yep|yup|oh|ooh|well|um+|uh+|hmm+|haha|lol|honestly|probably|definitely|mostly|i guess|i think|
  i would say|i'd say|i'd have to say|that would be|it would be|it's|it is|has to be|gotta be|mine is|mine's|
  my favorite is|my favorite would be|my favourite is|right now|currently|at the moment)[,!.]?\s+)+`)
/**
 * Words after an answer that add nothing to it: "sushi for sure", "toronto, born and raised", "politics please",
 * "nursing, second year".
 */
const ANSWER_TAIL = new RegExp(pattern`(?:,?\s+(?:for sure|for now|i guess|i think|haha|lol|please|tbh|honestly|anyway|
  at the moment|these days|right now|born and raised|mostly|probably|everything|
  (?:first|second|third|fourth|final|last) year))+$`)
/** A sentence after a comma, which the rules read on their own: "mostly woodworking, i built a workbench". */
const SENTENCE_AFTER = /,\s*(?=(?:i|i'm|my|we|it|it's|that|this|so|but|which)\b)/
/** An answer that says no, or nothing in particular: never a statement. */
const NON_ANSWER = new RegExp(pattern`
  ^(?:no|nope|nah|not|none|nothing|never|idk|dunno|same|me too|you|what|why|how|who|where|when|i don't|i do not|
  i'm not|i am not|neither|both|lots|many|every|everything|anything|a lot|all|any)\b`)
/** Words that make the first part of a reply a sentence rather than a bare answer (the rules read sentences). */
const SENTENCE_WORD = new RegExp(pattern`
  \b(?:i|i'm|me|my|you|your|he|she|we|they|it|is|am|are|was|were|be|been|do|does|did|have|has|had|can|will|would|
  not|don't|to)\b`)
/**
 * A "yes" opening a reply: the person agrees with the question before it ("i do not" is no), or names what it asks
 * about a favourite ("do you like hockey?" "it is my favorite sport!").
 */
const YES = new RegExp(pattern`
  ^(?:yes|yeah|yep|yup|yea|sure|of course|absolutely|definitely|totally|i (?:sure |really |certainly )?do(?! not)|
  i love (?:it|them)|love (?:it|them)|(?:it is|they are|that is) (?:so |really |totally |definitely )?
  (?:my|one of my) (?:all[- ]time )?(?:fav|favou?rite)s?)\b`)
/**
 * What a question asks about: a few words, no pronoun, no choice ("or"), nothing vague ("anything", "to do"), and
 * not the conversation itself: an assistant's "do you like the idea?" is about its answer, not about the person.
 */
const OBJECT = new RegExp(pattern`
  ^(?!.*\b(?:or|you|your|that|this|it|them|those|these|there|anything|something|any|ever|favorite|her|him|his|their|
  we|us|our|me|my|idea|ideas|option|options|plan|answer|answers|suggestions?|versions?|one|ones|examples?|approach|
  format|response|explanation|solution|list|draft|changes?|results?|summary|way|sound|look)\b)(?!.*\bdo$)
  [a-z' -]{2,40}$`)

/** Categories a "what kind of X" question names, kept after the answer ("rock music", "horror movies"). */
const KINDS = /^(?:music|movies|films|books|food|shows|tv shows|games|video games|sports|animals|art)$/

const withArticle = (answer: string) =>
  /^(?:a|an|the)\s/.test(answer) ? answer : `${/^[aeiou]/.test(answer) ? 'an' : 'a'} ${answer}`

/** A question an answer completes: `bare` turns a few words into a statement, `yes` a "yes". */
interface QuestionKind {
  /** Matches the question; group 1, when present, is the category or the thing asked about. */
  asks: RegExp
  /** What a bare answer may hold: its commas ("two rabbits, mochi and bean"), "my" first ("my weight"). */
  answers?: { commas?: boolean; mine?: boolean }
  bare?: (answer: string, asked: string) => string | undefined
  yes?: (asked: string) => string
}

/** First match wins: the specific questions come before "do you like X?". */
const QUESTIONS: readonly QuestionKind[] = [
  {
    // "what's your favorite food?", and chat's "favorite food?"
    asks: new RegExp(pattern`
      (?:\b(?:what(?:'s| is| are)|whats|do you have a|got a|any) (?:your|ur|a) |^(?:and |so )?(?:your )?)
      fav(?:ou?rite|e)? ([a-z]+(?: [a-z]+)?)\?$`),
    bare: (answer, category) => `my favorite ${category} is ${answer}`,
  },
  {
    asks: /\bwhat (?:kinds?|types?|sort|genre) of ([a-z]+(?: [a-z]+)?) do you have\?$/,
    bare: (answer, kind) => `i have ${answer} ${kind}`,
  },
  {
    asks: new RegExp(pattern`
      \bwhat (?:kinds?|types?|sort|genre) of ([a-z]+(?: [a-z]+)?) (?:do you (?:like|love|enjoy|listen to|watch|read|
      play|eat)|are you into)\?$`),
    answers: { commas: true },
    bare: (answer, kind) => (KINDS.test(kind) ? `i like ${answer} ${kind}` : `i like ${answer}`),
  },
  {
    asks: /\b(?:what do you do(?: for (?:work|a living))?|what(?:'s| is) your (?:job|occupation|profession))\?$/,
    bare: (answer) => `i am ${withArticle(answer)}`,
  },
  {
    asks: /\bwhere (?:are you from|do you live|are you located|are you based|do you call home|is home)\?$/,
    bare: (answer) => `i live in ${answer.replace(/^(?:in|from)\s+/, '')}`,
  },
  {
    asks: new RegExp(pattern`
      \b(?:what do you (?:like to )?do (?:for fun|in your (?:spare|free) time|on (?:the )?weekends?|after work|
      in the evenings?)|what do you like to do|what are your hobbies|(?:do you have )?any hobbies|
      what are you (?:into|interested in)|what are your interests)\?$`),
    bare: (answer) => `i like ${answer}`,
  },
  {
    // "any dietary restrictions?" "gluten free and no dairy": each part a diet of its own
    asks: /\b(?:dietary (?:restrictions|requirements|needs|preferences)|diet restrictions)\b[^?]*\?$/,
    answers: { commas: true },
    bare: (answer) =>
      answer
        .split(/,\s*(?:and\s+)?|\s+and\s+/)
        .map((part) => (/^no /.test(part) ? `i do not eat ${part.slice(3)}` : `i am ${part}`))
        .join('. '),
  },
  {
    asks: /\b(?:any (?:food )?allergies|(?:are you|you) allergic to anything|what are you allergic to)\b[^?]*\?$/,
    bare: (answer) => `i am allergic to ${answer}`,
  },
  {
    asks: /\bwhat languages? do you speak\b[^?]*\?$/,
    bare: (answer) => `i speak ${answer}`,
  },
  {
    // "how old are you, if you don't mind me asking?"
    asks: /\bhow old are you\b[^?]*\?$/,
    bare: (answer) => (/^\d{1,3}$/.test(answer) ? `i am ${answer} years old` : undefined),
  },
  {
    asks: /\bwhat(?:'s| is) your name\?$/,
    bare: (answer) => (/^[a-z]+(?: [a-z]+)?$/.test(answer) ? `my name is ${answer}` : undefined),
  },
  {
    asks: new RegExp(pattern`\b(?:(?:do you have|have you got|got) (?:any )?(?:other )?pets|any (?:other )?pets|
      what (?:kind of )?pets? do you have)\?$`),
    answers: { commas: true },
    bare: (answer) => `i have ${answer}`,
  },
  {
    asks: /\bwhat (?:are you studying|do you study|is your major|are you majoring in)\?$/,
    bare: (answer) => (/^[a-z]+(?: [a-z]+)?$/.test(answer) ? `i am ${withArticle(`${answer} student`)}` : undefined),
  },
  {
    // "any topics you'd rather avoid?", "anything i should avoid?"
    asks: new RegExp(pattern`\b(?:any(?:thing| topics?| subjects?)|what(?: topics?| subjects?)?)
      \s(?:you(?:'d| would)? (?:rather|like to|prefer to|want to) (?:avoid|not (?:talk about|discuss))|i should avoid|
      (?:i|we) should not (?:talk about|bring up)|to avoid|(?:(?:are|is) )?off(?:-| )limits|
      you(?:'d| would)? prefer (?:i|we) (?:not|don't|didn't) (?:bring up|talk about|mention|discuss))\b[^?]*\?$`),
    answers: { mine: true },
    bare: (answer) => `i would rather not talk about ${answer}`,
  },
  {
    // "how should i format my answers?", "what style do you prefer?"
    asks: new RegExp(pattern`\b(?:how (?:should|do you want|would you like) (?:i |me to )?(?:format|write|structure|
      phrase|keep)|(?:what|which) (?:style|format|tone|kind of (?:answers|responses)))\b[^?]*\?$`),
    bare: (answer) =>
      /^(?:short|brief|concise|detailed|long|in-depth|thorough|simple|casual|formal|technical|direct)$/.test(answer)
        ? `please give me ${answer} answers`
        : undefined,
  },
  { asks: /\bdo you (?:like|love|enjoy) ((?:to )?[a-z' -]+?)\?$/, yes: (liked) => `i like ${liked}` },
  { asks: /\bdo you ((?:play|watch|listen to) [a-z' -]+?)\?$/, yes: (done) => `i ${done}` },
  { asks: /\bdo you (?:have|own) (an? [a-z' -]+?)\?$/, yes: (had) => `i have ${had}` },
  { asks: /\bare you (an? [a-z' -]+?)\?$/, yes: (what) => `i am ${what}` },
]

/** A question of a turn: the words after the last sentence end before a question mark. */
const QUESTION = /[^.!?]*\?/g

/** The last question of a turn, normalised: the one a reply answers. */
function lastQuestion(turn: string): string | undefined {
  return normalize(turn.slice(-MAX_TURN_CHARS)).match(QUESTION)?.at(-1)?.trim()
}

/** A part of a reply and the marks that end it. */
const SEGMENT = /([^.!?;]+)([.!?;]*)/g
/** The question a reply hands back: "19, you?", "arizona, what about you?". */
const HANDED_BACK = /,\s*(?:and |how about |what about )?you\b|\b(?:what|how) about you\b/

/**
 * The first part of a reply that is more than a greeting, without an opening that carries nothing: the answer when
 * it is a few words and not a sentence of its own. A part asked back ("pole dancing?") is no answer.
 */
function bareAnswer(reply: string, may: QuestionKind['answers'] = {}): string | undefined {
  for (const [, whole = '', stop = ''] of reply.matchAll(SEGMENT)) {
    const text = whole.split(SENTENCE_AFTER)[0]!.trim()
    if (!text || INTERJECTION.test(text) || GREETS_SOMEONE.test(text)) continue
    const [head = '', ...handedBack] = text.split(HANDED_BACK)
    if (stop.includes('?') && !handedBack.length) return undefined
    const answer = head
      .replace(ANSWER_OPENING, '')
      .replace(ANSWER_TAIL, '')
      // "pizza, not soda though": what it is not is no part of the answer
      .replace(/\s*,\s*(?:but |and )?not\b.*$/, '')
      .replace(/\s*,\s*(?:and\s+)?/g, may.commas ? ', ' : ' and ')
      .replace(/\s+/g, ' ')
      .trim()
    const own = may.mine ? answer.replace(/^my /, '') : answer
    if (!own || NON_ANSWER.test(own) || SENTENCE_WORD.test(own)) return undefined
    return answer.split(' ').length <= MAX_ANSWER_WORDS + (may.commas ? 2 : 0) ? answer : undefined
  }
  return undefined
}

/** The statement a reply makes with the question before it (both as given), if it makes one. */
export function answerTo(questionText: string, replyText: string): string | undefined {
  const question = lastQuestion(questionText)
  return question ? statementOf(question, replyText) : undefined
}

/** Where a question asks a second thing: "how old are you, and where do you live?". */
const SECOND_QUESTION = /,?\s+and\s+(?=(?:what|where|how|who|which|do|are)\b)|,\s*(?=(?:what|where|how)\b)/

/**
 * "how old are you, and where do you live?" "34, leeds": each question of two or three answered in turn, when the
 * reply gives as many parts, one a comma, in the same order.
 */
function statementsOfEach(question: string, replyText: string): string | undefined {
  const asked = question.replace(/\?$/, '').split(SECOND_QUESTION)
  if (asked.length < 2 || asked.length > 3) return undefined
  const parts = normalize(replyText.slice(0, MAX_TURN_CHARS))
    .split(/[.!?\n]/)[0]!
    .split(/\s*,\s*(?:and\s+)?/)
  if (parts.length !== asked.length) return undefined
  const said = asked.map((one, i) => statementOfOne(`${one.trim()}?`, parts[i]!))
  return said.every(Boolean) ? said.join('. ') : undefined
}

/** The statement a reply makes with a question (the last one of its turn, normalised), if it makes one. */
function statementOf(question: string, replyText: string): string | undefined {
  return statementsOfEach(question, replyText) ?? statementOfOne(question, replyText)
}

/** The statement a reply makes with one question, if it makes one. */
function statementOfOne(question: string, replyText: string): string | undefined {
  for (const kind of QUESTIONS) {
    const matched = kind.asks.exec(question)
    if (!matched) continue
    const asked = matched[1]?.trim() ?? ''
    const reply = normalize(replyText.slice(0, MAX_TURN_CHARS))
    if (kind.yes) return YES.test(reply) && OBJECT.test(asked) ? kind.yes(asked) : undefined
    const answer = bareAnswer(reply, kind.answers)
    return answer ? kind.bare?.(answer, asked) : undefined
  }
  return undefined
}

/** Each of the profiled person's turns that follows a question of the other speakers, with that question. */
function* answeringTurns(conversation: ParsedConversation): Generator<{ question: string; text: string }> {
  const subject = conversation.speaker
  if (subject === null) return
  let question: string | undefined
  for (const turn of conversation.turns) {
    if (NOT_TURNS.has(turn.speaker)) continue
    if (!sameSpeaker(turn.speaker, subject)) {
      question = lastQuestion(turn.text)
      continue
    }
    if (question) yield { question, text: turn.text }
    question = undefined
  }
}

/** The statements the profiled person made by answering the other speakers' questions, in order. */
export function answersOf(conversation: ParsedConversation): Answer[] {
  const out: Answer[] = []
  for (const { question, text } of answeringTurns(conversation)) {
    const statement = statementOf(question, text)
    if (statement) out.push({ question, answer: text.slice(0, MAX_TURN_CHARS), statement })
  }
  return out
}

/**
 * The other speakers' last question before each of the person's turns, by the turn's first line as normalised:
 * what "them" in the answer may point to ("where did you get your dogs?" "i got them from a breeder").
 */
export function questionsBefore(conversation: ParsedConversation): Map<string, string> {
  const out = new Map<string, string>()
  for (const { question, text } of answeringTurns(conversation)) {
    const opening = text.split(/\n+/).find((line) => line.trim())
    // the other speaker's "my" and "our" are theirs: none of their things is what the person's "them" means
    if (opening) out.set(normalize(opening).trim(), question.replace(/\b(?:my|our)\b/g, "someone's"))
  }
  return out
}
