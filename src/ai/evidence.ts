// Evidence checks (docs/guides/ai-providers.md, "How a model extracts"): a model quotes the words each value comes
// from; the quote must be found in what the person said, or the value was not said there (a guess, the profile repeated
// back, another submission's words).
import { ConversationFormatError, evidenceTurns, transcript } from './conversation.js'
import type { ExtractionInput } from './types.js'

const WORD = /[\p{L}\p{N}]+/gu
const words = (s: string) => s.normalize('NFKC').toLowerCase().match(WORD) ?? []
const flat = (s: string) => words(s).join(' ')

/**
 * Whether a quote is supported by a submission's text: every word of it occurs there (for a conversation: the person's
 * turns and the partner turns they answer, and the speakers' labels), allowing one word in five to differ ("I am" for
 * "I'm"); or, for scripts written without spaces, the quote occurs as is. Word-level, so an ellipsis, other punctuation
 * or a reordered quote still counts, and a word the text never used does not. Linear in the text and the quote.
 */
export function evidenceCheck(input: Pick<ExtractionInput, 'inputType' | 'data'>): (quote: string) => boolean {
  let sources: string[]
  if (input.inputType === 'conversation') {
    try {
      const parsed = transcript(input.data)
      sources = [...evidenceTurns(input.data), ...(parsed.subject ? [parsed.subject] : [])]
    } catch (err) {
      if (!(err instanceof ConversationFormatError)) throw err
      sources = []
    }
  } else sources = [input.data]
  const vocab = new Set(sources.flatMap(words))
  let joined: string | undefined
  return (quote: string) => {
    const ws = words(quote)
    if (!ws.length) return false
    const missing = ws.filter((w) => !vocab.has(w)).length
    if (missing <= Math.floor(ws.length / 5)) return true
    joined ??= ` ${sources.map(flat).join(' | ')} `
    return (
      joined.includes(` ${ws.join(' ')}`) ||
      (/[^\p{Script=Latin}\p{N}\s]/u.test(quote) && joined.includes(ws.join(' ')))
    )
  }
}
