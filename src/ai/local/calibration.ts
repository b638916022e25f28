// Calibration of the local embedder (CONTRACT §8), measured by bench/calibrate-local.ts on the persona dev data;
// method and figures in docs/calibration.md. Re-run the bench and update these points whenever the embedder or
// profileText changes (and bump LOCAL_EMBEDDING_MODEL when stored vectors change).
import type { CalibrationPoint } from '../calibration.js'

/**
 * (cosine, score) knots, from the distributions pooled over profiles of 1, 2 and 4 personas
 * (about 3, 6 and 12 profile facts):
 * - 0.035 -> 0: median of non-matching pairs (everything below also scores 0)
 * - 0.144 -> 40: 95th percentile of non-matching pairs
 * - 0.248 -> 63: 99th percentile of non-matching pairs (the default sensitivity)
 * - 0.384 -> 80: median of matching pairs
 * - 1 -> 100
 */
export const LOCAL_CALIBRATION_POINTS: readonly CalibrationPoint[] = [
  [0.035, 0],
  [0.144, 40],
  [0.248, 63],
  [0.384, 80],
  [1, 100],
]
