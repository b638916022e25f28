import type { ScoreCalibration } from './types.js'

/** A knot of the calibration curve: raw cosine similarity -> score (0-100). */
export type CalibrationPoint = readonly [cosine: number, score: number]

const buf = new DataView(new ArrayBuffer(8))

/** The adjacent double towards +Infinity (dir 1) or -Infinity (dir -1). */
function nextDouble(value: number, dir: 1 | -1): number {
  if (value === 0) return dir * Number.MIN_VALUE
  buf.setFloat64(0, value)
  const bits = buf.getBigUint64(0)
  buf.setBigUint64(0, value > 0 === dir > 0 ? bits + 1n : bits - 1n)
  return buf.getFloat64(0)
}

/**
 * Piecewise-linear, monotone map from cosine to score, through the given points (cosines and scores both strictly
 * increasing, first score 0, last score 100). Below the first point the score is 0, above the last it is 100.
 * Full precision: callers round for display.
 */
export class PiecewiseLinearCalibration implements ScoreCalibration {
  readonly points: readonly CalibrationPoint[]

  constructor(points: readonly CalibrationPoint[]) {
    if (points.length < 2) throw new Error('calibration needs at least two points')
    for (const [c, s] of points) {
      if (!Number.isFinite(c) || !Number.isFinite(s) || c < -1 || c > 1 || s < 0 || s > 100) {
        throw new Error(`calibration point (${c}, ${s}) is outside [-1, 1] x [0, 100]`)
      }
    }
    for (let i = 1; i < points.length; i++) {
      if (!(points[i][0] > points[i - 1][0]) || !(points[i][1] > points[i - 1][1])) {
        throw new Error('calibration points must be strictly increasing in cosine and in score')
      }
    }
    if (points[0][1] !== 0 || points[points.length - 1][1] !== 100) {
      throw new Error('calibration must start at score 0 and end at score 100')
    }
    this.points = points.map(([c, s]) => [c, s] as const)
  }

  toScore(cosine: number): number {
    if (Number.isNaN(cosine)) throw new Error('cosine is NaN')
    const points = this.points
    if (cosine <= points[0][0]) return points[0][1]
    const last = points[points.length - 1]
    if (cosine >= last[0]) return last[1]
    let segment = 0
    while (cosine >= points[segment + 1][0]) segment++
    const [x0, y0] = points[segment]
    const [x1, y1] = points[segment + 1]
    const score = y0 + ((cosine - x0) * (y1 - y0)) / (x1 - x0)
    // Rounding must not step outside the segment: that keeps the whole map monotone.
    return Math.min(y1, Math.max(y0, score))
  }

  /**
   * The smallest cosine (a double in [-1, 1]) whose toScore is >= score, exactly: `cosine >= toCosine(s)` selects the
   * same rows as `toScore(cosine) >= s`. Scores <= 0 give -1; scores > 100 give +Infinity (nothing qualifies).
   */
  toCosine(score: number): number {
    if (Number.isNaN(score)) throw new Error('score is NaN')
    const points = this.points
    if (score <= points[0][1]) return -1
    const last = points[points.length - 1]
    if (score > last[1]) return Number.POSITIVE_INFINITY
    let segment = 0
    while (score > points[segment + 1][1]) segment++
    const [x0, y0] = points[segment]
    const [x1, y1] = points[segment + 1]
    let cosine = Math.min(x1, Math.max(x0, x0 + ((score - y0) * (x1 - x0)) / (y1 - y0)))
    // The formula is within a few ulps; settle on the exact smallest double.
    while (this.toScore(cosine) < score) cosine = nextDouble(cosine, 1)
    for (;;) {
      const below = nextDouble(cosine, -1)
      if (below < -1 || this.toScore(below) < score) return cosine
      cosine = below
    }
  }
}
