// Speed of the local extractor and embedder, printed (not asserted: timing belongs here, not in tests).
//   npx tsx bench/extract-speed.ts
// The baseline run side by side is the same work on a 2 KB text of short facts vs. a 2 KB text of chat filler,
// printed as a ratio, so the figure can be compared across machines.
import { LocalEmbedder } from '../src/ai/local/local-embedder.js'
import { LocalExtractor } from '../src/ai/local/local-extractor.js'
import { emptyContent } from '../src/domain/profile.js'

const facts = [
  'Hi, my name is Rosa and I am 38.', 'I grew up in Seville but I live in Valencia now.', 'I work as a pharmacist.',
  'In my free time I love salsa dancing and I play the guitar.', 'My favorite food is paella.', 'I have a lazy old cat.',
  'Last year I moved to a new flat.', 'In 2016 I graduated from university.', 'I am outgoing but a bit impatient.',
  "Don't talk about politics with me.", "I don't like football anymore.", 'My brother is a lawyer and loves golf.',
].join(' ').repeat(8).slice(0, 2048)
const filler = 'well, you know, it is what it is, and so on and so forth, ok then, sure, right, hmm. '.repeat(30).slice(0, 2048)

const extractor = new LocalExtractor()
const time = async (label: string, text: string, n = 20) => {
  await extractor.extract({ profile: emptyContent(), submissions: [{ submissionId: 'w', inputType: 'text', data: text }] })
  const t0 = performance.now()
  for (let i = 0; i < n; i++) {
    await extractor.extract({ profile: emptyContent(), submissions: [{ submissionId: `s${i}`, inputType: 'text', data: text + ` ${i}` }] })
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
