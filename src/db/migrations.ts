import { InitialSchema1763700000000 } from '../../migrations/1763700000000-InitialSchema.js'

/** Every migration, in order. Listed explicitly so the same code runs under tsx, vitest and tsc output. */
export const MIGRATIONS = [InitialSchema1763700000000]
