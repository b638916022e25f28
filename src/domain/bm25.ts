// Okapi BM25 (the memory evaluation's baseline, and the service's ranking of evidence passages).
import { tokens } from './normalise.js'

/**
 * Okapi BM25 over a small collection (one speaker's turns), k1 = 1.2, b (length normalisation) = 0.75, with the
 * non-negative idf ln(1 + (N - n + 0.5) / (n + 0.5)) (Lucene's), so a word in most turns still counts a little and
 * never against.
 * Documents and queries are tokenised like the scoring (stemmed, stop words out).
 */
export class Bm25 {
  private readonly docs: Map<string, number>[]
  private readonly lengths: number[]
  private readonly avgdl: number
  private readonly df = new Map<string, number>()

  /**
   * `options.total`: the size of the whole collection when `texts` are only the candidates that contain a query word (a
   * profile's passages matched in the database): each word's document frequency is still exact, since every passage
   * containing it is a candidate.
   */
  constructor(
    texts: readonly string[],
    private readonly k1 = 1.2,
    private readonly lengthNormalisation = 0.75,
    private readonly options: { total?: number } = {},
  ) {
    this.docs = texts.map((text) => {
      const tf = new Map<string, number>()
      for (const word of tokens(text)) tf.set(word, (tf.get(word) ?? 0) + 1)
      return tf
    })
    this.lengths = this.docs.map((d) => [...d.values()].reduce((a, b) => a + b, 0))
    this.avgdl = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length) || 1
    for (const termCounts of this.docs)
      for (const word of termCounts.keys()) this.df.set(word, (this.df.get(word) ?? 0) + 1)
  }

  idf(word: string): number {
    const docsWithWord = this.df.get(word) ?? 0
    return Math.log(
      1 + (Math.max(this.docs.length, this.options.total ?? 0) - docsWithWord + 0.5) / (docsWithWord + 0.5),
    )
  }

  /** The score of every document for the query (each distinct query word once). */
  scores(query: string): number[] {
    const queryWords = [...new Set(tokens(query))]
    return this.docs.map((termCounts, index) => {
      let score = 0
      for (const word of queryWords) {
        const tf = termCounts.get(word)
        if (!tf) continue
        score +=
          (this.idf(word) * tf * (this.k1 + 1)) /
          (tf +
            this.k1 * (1 - this.lengthNormalisation + (this.lengthNormalisation * this.lengths[index]!) / this.avgdl))
      }
      return score
    })
  }

  /** Document indexes, best first; ties (e.g. no query word anywhere) go to the later (newer) document. */
  rank(query: string): number[] {
    const scores = this.scores(query)
    return scores.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || b - a)
  }
}
