// The adverbs that may sit between a subject and its verb ("i really love", "we finally moved"), as patterns the
// rules build on. Kept apart from rules-common.ts so that text.ts can use them without importing the rules.
import { pattern } from './regex.js'

/** Adverbs that may sit between "i" and its verb without changing the meaning ("i really love"). */
const ADVERBS = [
  'really',
  'also',
  'absolutely',
  'just',
  'totally',
  'truly',
  'still',
  'actually',
  'do',
  'definitely',
  'especially',
  'mostly',
  'usually',
  'often',
  'always',
  'sometimes',
  'simply',
  'so',
  'too',
  'only',
  'mainly',
  'generally',
  'genuinely',
  'deeply',
  'particularly',
  'currently',
  'now',
  'personally',
  'kind of',
  'sort of',
  'pretty much',
  'very much',
  'seriously',
  'honestly',
  'literally',
  'even',
  'already',
  'occasionally',
  'frequently',
  'regularly',
  'typically',
  'normally',
  'certainly',
  'surely',
  'obviously',
  'basically',
  'recently',
  'finally',
  'mostly',
  'both',
  'all',
  'again',
  'secretly',
  'slightly',
  'quite',
  'rather',
  'happily',
  'proudly',
  'officially',
  'originally',
  'still',
]
/** Verbs and nouns that end in "ly" and are no adverb: "i apply", "i fly", "my family". */
const LY_NOT_ADVERBS = pattern`apply|reply|rely|supply|comply|imply|multiply|fly|ally|rally|bully|tally|family|italy|
  july|holly|jelly|belly|lily|lonely|lovely|friendly|unfriendly|silly|ugly|lively|elderly|curly|holy|jolly|chilly|
  smelly|costly|deadly|cuddly|bubbly|burly|surly|sickly|homely|manly|motherly|fatherly|orderly|worldly|lowly|
  heavenly|prickly|sparkly|grizzly|hilly|woolly`
/** Any "-ly" adverb reads as one too: "i vigorously enjoy tacos", "i secretly love jazz". */
const LY_ADVERB = `(?!(?:${LY_NOT_ADVERBS})\\b)[a-z]{2,}ly`
// each word one way only: a listed adverb that ends in "ly" is left to LY_ADVERB, or "really really ..." backtracks
// through every split of the run
/** One adverb of ADVERBS or any "-ly" adverb. */
export const ADVERB_WORD = `(?:${ADVERBS.filter((word) => !word.endsWith('ly')).join('|')}|${LY_ADVERB})`
export const ADV = `(?:${ADVERB_WORD}\\s+)*`
