// The profiled person's name as the other speakers of a conversation address them ("Hey Caroline!", "That's great,
// Caroline."): people who talk every week rarely introduce themselves, but greet each other by name. Weaker than a
// self-introduction (name.addressed), and read only from the other speakers' turns of a conversation.
import { NOT_TURNS, sameSpeaker, type ParsedConversation } from '../conversation.js'
import { nlpHas } from './nlp.js'

/** A name after a greeting or a short reply opening a sentence: "Hey Caroline", "Thanks, Mel!". */
const AFTER_OPENING = new RegExp(
  '^(?:hey|hi|hello|hiya|heya|yo|thanks|thank you|congrats|congratulations|good (?:morning|afternoon|evening|night)|' +
    'welcome back|oh|wow|yes|yeah|sure|great|nice|omg|haha|aw+)[ ,!]+([A-Z][a-z]{1,19})(?=[ ,.!?]|$)(?! here\\b)',
  'i',
)
/** How a speaker gives their own name: "my name is Tracy", "I'm Kim", "Hi, tracy here" (1 or 2). */
const OWN_NAME =
  /\b(?:my name is|i am|i'm|this is|call me) ([a-z]{2,20})\b|^(?:(?:hi|hey|hello|hiya)[ ,!]+)?([a-z]{2,20}) here\b/i
/** A name closing a sentence after a comma: "That's great, Caroline!". */
const CLOSING = /,\s*([A-Z][a-z]{1,19})[.!?]*$/

/** A sentence of a turn: split after its end mark or at a line break. */
const SENTENCE_END = /(?<=[.!?])\s+|\n+/

/** The name the others address the person by, and a sentence that does. */
export interface AddressedName {
  name: string
  said: string
}

/**
 * The name the other speakers address the profiled person by most often: a word compromise knows as a person's name
 * (an unusual name is missed). None when no word counts, when it is another speaker's own label, or when two names are
 * said as often (a group, or someone else greeted).
 */
export function addressedName(conversation: ParsedConversation): AddressedName | undefined {
  const subject = conversation.speaker
  if (subject === null) return undefined
  const found = new Map<string, AddressedName & { times: number }>()
  // a speaker's own label, and the names the other speakers give as their own ("Hi, tracy here")
  const labels = new Set<string>()
  for (const turn of conversation.turns) {
    if (sameSpeaker(turn.speaker, subject) || NOT_TURNS.has(turn.speaker)) continue
    labels.add(turn.speaker.toLowerCase())
    for (const sentence of turn.text.split(SENTENCE_END)) {
      const trimmed = sentence.trim()
      const own = OWN_NAME.exec(trimmed)
      if (own) labels.add((own[1] ?? own[2]!).toLowerCase())
      const name = (AFTER_OPENING.exec(trimmed) ?? CLOSING.exec(trimmed))?.[1]
      if (!name) continue
      const seen = found.get(name) ?? { name, said: trimmed, times: 0 }
      seen.times++
      found.set(name, seen)
    }
  }
  const names = [...found.values()]
    .filter(({ name }) => !labels.has(name.toLowerCase()) && nlpHas(name, '#Person') && !nlpHas(name, '#Place'))
    .sort((a, b) => b.times - a.times)
  const [first, second] = names
  if (!first || (second && second.times === first.times)) return undefined
  return { name: first.name, said: first.said }
}
