// The worker's AI work alone: extract (on the same thread pool a worker uses), merge, summarize and embed N short chat
// messages, each for a profile of its own, 32 at a time, with no database. Prints submissions per second; with
// --one-at-a-time, the time of one message on its own (the floor of a submission's latency).
// node --import tsx bench/lib/pipeline-ceiling.ts <n> [--one-at-a-time]
import { createAiProviders } from '../../src/ai/index.js'
import { profileText } from '../../src/ai/profile-text.js'
import { loadConfig } from '../../src/config.js'
import { merge } from '../../src/domain/merge.js'
import { emptyState } from '../../src/domain/profile.js'
import { MESSAGES } from './seed.js'

const n = Number(process.argv[2] ?? 2000)
const ai = createAiProviders(loadConfig(process.env))
await ai.embedder.warmUp?.()
async function one(i: number) {
  const r = await ai.extractor.extract({
    profile: emptyState().content,
    submissions: [{ submissionId: `s${i}`, inputType: 'text', data: `${MESSAGES[i % MESSAGES.length]} (${i})` }],
  })
  const merged = merge(emptyState(), r.extractions, new Date().toISOString())
  const { summary } = await ai.summarizer.summarize(merged.state.content)
  const { vectors } = await ai.embedder.embed([profileText(merged.state.content, summary)])
  JSON.stringify(merged.state)
  return vectors[0]!.length
}
// Warm up (thread start-up, JIT) before the clock starts.
await Promise.all(Array.from({ length: 64 }, (_, i) => one(i)))
if (process.argv.includes('--one-at-a-time')) {
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await one(i)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  process.stdout.write(`median ms each: ${times[Math.floor(times.length / 2)]!.toFixed(2)}\n`)
  await ai.close?.()
  process.exit(0)
}
const t0 = performance.now()
let next = 0
await Promise.all(
  Array.from({ length: 32 }, async () => {
    for (let i = next++; i < n; i = next++) await one(i)
  }),
)
const seconds = (performance.now() - t0) / 1000
process.stdout.write(`${n} in ${seconds.toFixed(2)} s, per second: ${(n / seconds).toFixed(1)}\n`)
await ai.close?.()
