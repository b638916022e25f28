import type { Memory } from '../../domain/profile.js'

/** A value's identity within one extraction: case and spacing do not count (the Acc's and the trace's). */
export const key = (v: string) => v.toLowerCase().replace(/\s+/g, ' ').trim()
/** Memories are one when their event and date are. */
export const memoryKey = (m: Memory) => `${key(m.event)}\u0000${m.date ?? ''}`
