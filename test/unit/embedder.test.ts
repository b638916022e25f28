import { beforeAll, describe, expect, it } from 'vitest'
import {
  LOCAL_EMBEDDING_DIMENSION,
  LOCAL_EMBEDDING_MODEL,
  LocalEmbedder,
  contentTokens,
  wordVectorLoadMs,
  wordVectors,
} from '../../src/ai/local/local-embedder.js'
import { profileText } from '../../src/ai/profile-text.js'
import { emptyContent } from '../../src/domain/profile.js'

const embedder = new LocalEmbedder()
const dot = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i], 0)
const norm = (a: number[]): number => Math.sqrt(dot(a, a))

async function cos(a: string, b: string): Promise<number> {
  const { vectors } = await embedder.embed([a, b])
  return dot(vectors[0], vectors[1])
}

beforeAll(async () => {
  const ms = await embedder.warmUp()
  console.log(`word vectors loaded in ${ms.toFixed(0)} ms`)
})

describe('LocalEmbedder', () => {
  it('describes itself: name, model, a fixed dimension within the pgvector HNSW limit', async () => {
    expect(embedder.name).toBe('local')
    expect(embedder.model).toBe(LOCAL_EMBEDDING_MODEL)
    expect(embedder.dimension).toBe(LOCAL_EMBEDDING_DIMENSION)
    expect(LOCAL_EMBEDDING_DIMENSION).toBe(1024)
    expect(LOCAL_EMBEDDING_DIMENSION).toBeLessThanOrEqual(2000)
    const { vectors } = await embedder.embed(['likes jazz'])
    expect(vectors[0]).toHaveLength(LOCAL_EMBEDDING_DIMENSION)
    expect(wordVectorLoadMs()).toBeGreaterThan(0)
  })

  it('other settings get another model id (their vectors are not comparable)', () => {
    expect(new LocalEmbedder({ semanticShare: 0.5 }).model).not.toBe(LOCAL_EMBEDDING_MODEL)
    expect(new LocalEmbedder({ hashBuckets: 155 }).dimension).toBe(256)
  })

  it('is deterministic: same text, same vector, across calls, batches and instances', async () => {
    const texts = ['has a pet turtle', 'Maria is a nurse who lives in Lisbon.', 'Zorblax', '']
    const a = (await embedder.embed(texts)).vectors
    const b = (await new LocalEmbedder().embed([...texts].reverse())).vectors.reverse()
    const c = await Promise.all(texts.map(async (t) => (await embedder.embed([t])).vectors[0]))
    expect(b).toEqual(a)
    expect(c).toEqual(a)
  })

  it('returns L2-normalised vectors, one per text, in order', async () => {
    const texts = ['likes jazz', 'lives in texas', 'is a teacher', 'Qwxzt Vlorp', 'the and of', '', '   ', '!!!']
    const { vectors } = await embedder.embed(texts)
    expect(vectors).toHaveLength(texts.length)
    for (const v of vectors) {
      expect(norm(v)).toBeCloseTo(1, 10)
      expect(v.every(Number.isFinite)).toBe(true)
    }
    expect((await embedder.embed([])).vectors).toEqual([])
  })

  it('gives text without content (empty, blanks, stop words) one fixed vector, unrelated to any content', async () => {
    const { vectors } = await embedder.embed(['', '  \n ', 'is a', 'has the', 'likes jazz', 'Zorblax'])
    expect(vectors[1]).toEqual(vectors[0])
    expect(vectors[2]).toEqual(vectors[0])
    expect(vectors[3]).toEqual(vectors[0])
    expect(dot(vectors[0], vectors[4])).toBe(0)
    expect(dot(vectors[0], vectors[5])).toBe(0)
  })

  it('treats query filler as noise: "likes jazz" == "jazz", "is a teacher" == "teacher"', async () => {
    expect(contentTokens('Has a pet turtle')).toEqual(['pet', 'turtle'])
    expect(contentTokens('lives in Texas')).toEqual(['texas'])
    expect(await cos('likes jazz', 'jazz')).toBeCloseTo(1, 10)
    expect(await cos('is a teacher', 'teacher')).toBeCloseTo(1, 10)
    expect(await cos('works as a nurse', 'Nurse.')).toBeCloseTo(1, 10)
  })

  it('gives frame words ("pet", "watching", "favorite") little weight: the object decides the match', async () => {
    const owners = 'Pets: dog, cat. Movies tv: comedy.'
    // The fact's object is what must match, not the kind of fact: no pet owner holds an axolotl.
    expect(await cos('has a pet axolotl', owners)).toBeLessThan(0.15)
    expect(await cos('has a pet dog', owners)).toBeGreaterThan((await cos('has a pet axolotl', owners)) + 0.3)
    expect(await cos('likes watching horror', 'Movies tv: comedy. Watches comedy.')).toBeLessThan(0.15)
    // A query of frame words only still matches its word (with a lower score: the word weighs little in a profile).
    expect(await cos('enjoys reading', 'reading')).toBeCloseTo(1, 10)
    expect(await cos('enjoys reading', 'Hobbies: reading, chess.')).toBeGreaterThan(
      (await cos('enjoys reading', 'Hobbies: chess.')) + 0.15,
    )
  })

  it('matches inflections through stems: "hiking" ~ "hikes", "pets" ~ "pet"', async () => {
    expect(await cos('hiking', 'hikes')).toBeGreaterThan(0.75)
    expect(await cos('has a pet', 'pets: turtle')).toBeGreaterThan(await cos('has a pet', 'music: jazz'))
  })

  it('puts related texts closer than unrelated ones', async () => {
    const c = (value: string) => ({ value, confidence: 0.8 })
    const turtle = profileText({
      ...emptyContent(),
      core_info: { name: c('Tomas'), location: c('Austin, Texas'), occupation: c('mechanic') },
      interests: { pets: [c('turtle')], hobbies: [c('fishing')] },
    })
    const jazz = profileText({
      ...emptyContent(),
      core_info: { name: c('Aiko'), location: c('Osaka'), occupation: c('teacher') },
      interests: { music: [c('jazz'), c('piano')] },
    })
    expect(await cos('has a pet turtle', turtle)).toBeGreaterThan((await cos('has a pet turtle', jazz)) + 0.2)
    expect(await cos('lives in texas', turtle)).toBeGreaterThan((await cos('lives in texas', jazz)) + 0.2)
    expect(await cos('likes jazz', jazz)).toBeGreaterThan((await cos('likes jazz', turtle)) + 0.2)
    expect(await cos('is a teacher', jazz)).toBeGreaterThan((await cos('is a teacher', turtle)) + 0.2)
  })

  it('relates words through the word vectors even without a shared stem', async () => {
    // No common stem: only the word vectors (a quarter of the squared norm) can tell that these are near.
    expect(await cos('reptile', 'turtle')).toBeGreaterThan((await cos('reptile', 'saxophone')) + 0.05)
    expect(await cos('saxophone', 'jazz')).toBeGreaterThan((await cos('saxophone', 'turtle')) + 0.05)
    expect(await cos('doctor', 'nurse')).toBeGreaterThan((await cos('doctor', 'guitar')) + 0.05)
  })

  it('matches words the vectors do not know exactly, through hashing', async () => {
    const { index } = await wordVectors()
    expect(index.has('zorblax')).toBe(false)
    expect(index.has('quuxville')).toBe(false)
    expect(await cos('Zorblax', 'Zorblax from Quuxville')).toBeGreaterThan(0.6)
    expect(await cos('zorblax', 'ZORBLAX')).toBeCloseTo(1, 10)
    expect(Math.abs(await cos('Zorblax', 'Vlimpt from Droxford'))).toBeLessThan(0.1)
    expect(await cos('lives in Quuxville', 'Location: Quuxville.')).toBeGreaterThan(0.9)
  })

  it('strips accents and case: "Café" == "cafe"', async () => {
    expect(await cos('Café São Paulo', 'cafe sao paulo')).toBeCloseTo(1, 10)
  })

  it('honours an aborted signal', async () => {
    const ac = new AbortController()
    ac.abort()
    await expect(embedder.embed(['likes jazz'], ac.signal)).rejects.toThrow()
  })

  it('embeds a batch of 100 texts, one normalised vector each (speed: bench/extract-speed.ts)', async () => {
    const texts = Array.from({ length: 100 }, (_, i) => `likes jazz and hiking number ${i} in texas with a pet turtle`)
    const { vectors } = await embedder.embed(texts)
    expect(vectors).toHaveLength(100)
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 6)
  })
})
