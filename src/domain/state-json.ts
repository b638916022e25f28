// A profile state as its writers store it: each part serialized once, where it was computed.
import type { ProfileState } from './profile.js'

/** A state as the writers store it: its parts as JSON text, and the history snapshot built from them. */
export interface StateJson {
  content: string
  fieldTimestamps: string
  internals: string
  /** The update_log entry's changes (meaningful when the merge changed something). */
  changes: string
}

/** The JSON a writer stores for a state, each part serialized once. */
export function stateJson(state: ProfileState, changes: unknown): StateJson {
  return {
    content: JSON.stringify(state.content),
    fieldTimestamps: JSON.stringify(state.field_timestamps),
    internals: JSON.stringify(state.internals),
    changes: JSON.stringify(changes),
  }
}
