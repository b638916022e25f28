// Okapi BM25 (the memory evaluation's baseline, and the service's ranking of evidence passages).
import { tokens } from './normalise.js'

/**
 * Okapi BM25 over a small collection (one speaker's turns), k1 = 1.2, b = 0.75, with the non-negative idf
 * ln(1 + (N - n + 0.5) / (n + 0.5)) (Lucene's), so a word in most turns still counts a little and never against.
 * Documents and queries are tokenised like the scoring (stemmed, stop words out).
 */
export class Bm25 {
  private readonly docs: Map<string, number>[]
  private readonly lengths: number[]
  private readonly avgdl: number
  private readonly df = new Map<string, number>()

  /**
   * `o.total`: the size of the whole collection when `texts` are only the candidates that contain a query word (a
   * profile's passages matched in the database): each word's document frequency is still exact, since every passage
   * containing it is a candidate.
   */
  constructor(
    texts: readonly string[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
    private readonly o: { total?: number } = {},
  ) {
    this.docs = texts.map((t) => {
      const tf = new Map<string, number>()
      for (const w of tokens(t)) tf.set(w, (tf.get(w) ?? 0) + 1)
      return tf
    })
    this.lengths = this.docs.map((d) => [...d.values()].reduce((a, b) => a + b, 0))
    this.avgdl = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length) || 1
    for (const d of this.docs) for (const w of d.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1)
  }

  idf(word: string): number {
    const n = this.df.get(word) ?? 0
    return Math.log(1 + (Math.max(this.docs.length, this.o.total ?? 0) - n + 0.5) / (n + 0.5))
  }

  /** The score of every document for the query (each distinct query word once). */
  scores(query: string): number[] {
    const q = [...new Set(tokens(query))]
    return this.docs.map((d, i) => {
      let s = 0
      for (const w of q) {
        const tf = d.get(w)
        if (!tf) continue
        s +=
          (this.idf(w) * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * this.lengths[i]!) / this.avgdl))
      }
      return s
    })
  }

  /** Document indexes, best first; ties (e.g. no query word anywhere) go to the later (newer) document. */
  rank(query: string): number[] {
    const s = this.scores(query)
    return s.map((_, i) => i).sort((a, b) => s[b]! - s[a]! || b - a)
  }
}
