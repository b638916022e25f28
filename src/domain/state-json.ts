// A profile state as its writers store it: each part serialized once, the history snapshot assembled from the same parts.
import type { ProfileState } from './profile.js'

/** A state as the writers store it: its parts as JSON text, and the history snapshot built from them. */
export interface StateJson {
  content: string
  fieldTimestamps: string
  internals: string
  /** The update_log entry's changes (meaningful when the merge changed something). */
  changes: string
  /** src/domain/forget.ts snapshotOf(state), as JSON. */
  snapshot: string
}

/** The JSON a writer stores for a state, each part serialized once (the snapshot is made of the same parts). */
export function stateJson(state: ProfileState, changes: unknown): StateJson {
  const content = JSON.stringify(state.content)
  const fieldTimestamps = JSON.stringify(state.field_timestamps)
  const internals = JSON.stringify(state.internals)
  const language = state.language !== undefined ? `,"language":${JSON.stringify(state.language)}` : ''
  return {
    content,
    fieldTimestamps,
    internals,
    changes: JSON.stringify(changes),
    snapshot: `{"content":${content},"field_timestamps":${fieldTimestamps},"internals":${internals}${language}}`,
  }
}
