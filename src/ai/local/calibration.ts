// Calibration of the local embedder (docs/guides/search.md, "Scores and sensitivity"), measured by
// bench/calibrate-local.ts --search on the persona dev data; method and figures in docs/evaluation/calibration.md.
// Re-run the bench and update these points whenever the embedder or profileText changes (and bump LOCAL_EMBEDDING_MODEL
// when stored vectors change).
import type { CalibrationPoint } from '../calibration.js'

/**
 * (cosine, score) knots, from search over profiles EXTRACTED from the dev records (tuning half: records whose id hashes
 * even), query = a gold fact, match = a record holding it:
 * - 0.029 -> 0: median of non-matching pairs (everything below also scores 0)
 * - 0.118 -> 40: 95th percentile of non-matching pairs
 * - 0.235 -> 63: 99th percentile of non-matching pairs (the default sensitivity)
 * - 0.401 -> 80: median of matching pairs
 * - 1 -> 100
 */
export const LOCAL_CALIBRATION_POINTS: readonly CalibrationPoint[] = [
  [0.029, 0],
  [0.118, 40],
  [0.235, 63],
  [0.401, 80],
  [1, 100],
]
