// Speed of the local extractor and embedder, printed (not asserted: timing belongs here, not in tests).
// npx tsx bench/extract-speed.ts
// The baseline run side by side is the same work on a 2 KB text of short facts vs. a 2 KB text of chat filler,
// printed as a ratio, so the figure can be compared across machines.
import { LocalEmbedder } from '../src/ai/local/local-embedder.js'
import { LocalExtractor } from '../src/ai/local/local-extractor.js'
import { emptyContent } from '../src/domain/profile.js'

const facts = [
  'Hi, my name is Rosa and I am 38.',
  'I grew up in Seville but I live in Valencia now.',
  'I work as a pharmacist.',
  'In my free time I love salsa dancing and I play the guitar.',
  'My favorite food is paella.',
  'I have a lazy old cat.',
  'Last year I moved to a new flat.',
  'In 2016 I graduated from university.',
  'I am outgoing but a bit impatient.',
  "Don't talk about politics with me.",
  "I don't like football anymore.",
  'My brother is a lawyer and loves golf.',
]
  .join(' ')
  .repeat(8)
  .slice(0, 2048)
const filler = 'well, you know, it is what it is, and so on and so forth, ok then, sure, right, hmm. '
  .repeat(30)
  .slice(0, 2048)

const extractor = new LocalExtractor()
const time = async (label: string, text: string, n = 20) => {
  await extractor.extract({
    profile: emptyContent(),
    submissions: [{ submissionId: 'w', inputType: 'text', data: text }],
  })
  const t0 = performance.now()
  for (let i = 0; i < n; i++) {
    await extractor.extract({
      profile: emptyContent(),
      submissions: [{ submissionId: `s${i}`, inputType: 'text', data: text + ` ${i}` }],
    })
  }
  const ms = (performance.now() - t0) / n
  console.log(`${label}: ${ms.toFixed(1)} ms per 2 KB text`)
  return ms
}
const a = await time('facts', facts)
const b = await time('filler (baseline)', filler)
console.log(`ratio facts / filler: ${(a / b).toFixed(2)}`)

const embedder = new LocalEmbedder()
await embedder.warmUp()
const texts = Array.from({ length: 100 }, (_, i) => `likes jazz and hiking number ${i} in texas with a pet turtle`)
const t0 = performance.now()
await embedder.embed(texts)
console.log(`embedder: ${(performance.now() - t0).toFixed(1)} ms for 100 short texts`)

// Scaling on hostile shapes, at the largest allowed `data` (100 KiB) and a quarter of it: the ratio of the two times
// is about 4 when extraction is linear in the input (it was 47 for 'a a a …' and 16-20 for emoji or RTL text before
// long runs and sentences were bounded).
const rep = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n)
const shapes: [string, 'text' | 'conversation', (n: number) => string][] = [
  ['one char repeated', 'text', (n) => 'a'.repeat(n)],
  ["'a ' repeated, no stop", 'text', (n) => rep('a ', n)],
  [
    'real words, no punctuation',
    'text',
    (n) => rep('my name is ann and i live in rome and i love hiking and my dog ', n),
  ],
  ['short sentences', 'text', (n) => rep('I love jazz. ', n)],
  ["'a, ' repeated", 'text', (n) => rep('a, ', n)],
  ["'a - ' repeated", 'text', (n) => rep('a - ', n)],
  ['digits', 'text', (n) => rep('1234567890 ', n)],
  ['emoji', 'text', (n) => rep('😀🎉 ', n)],
  ['RTL (Hebrew)', 'text', (n) => rep('אני אוהב ג׳אז ', n)],
  ['combining marks', 'text', (n) => rep('e\u0301\u0301\u0301 ', n)],
  ['allergy and diet clauses', 'text', (n) => rep('i am allergic to tree nuts and vegan and type 1 diabetic ', n)],
  ['pronoun sets', 'text', (n) => rep('she/they/he/him/ ', n)],
  ["'ugh worst week ' repeated", 'text', (n) => rep('ugh worst week ', n)],
  ['conversation lines', 'conversation', (n) => rep('Ann: I love jazz\nBot: ok\n', n)],
  ['conversation, one long turn', 'conversation', (n) => 'Ann: ' + rep('i love jazz and ', n)],
]
console.log('\nshape                              25 KiB    100 KiB   ratio (linear ~4)')
for (const [label, inputType, make] of shapes) {
  const ms = [25 * 1024, 100 * 1024].map((n) => {
    const data = make(n)
    const t = performance.now()
    extractor.extractOne({ inputType, data })
    return performance.now() - t
  })
  console.log(
    `${label.padEnd(32)} ${ms.map((m) => `${m.toFixed(0).padStart(6)} ms`).join('  ')}  ${(ms[1]! / ms[0]!).toFixed(1)}`,
  )
}
