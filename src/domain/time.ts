/** A stored time (a Date from pg, or the text PGlite may give) as ISO 8601, as every response and export writes it. */
export const isoTime = (d: Date | string): string => new Date(d).toISOString()

/** `isoTime` for a time that may be absent (null stays null). */
export const isoTimeOrNull = (time: Date | string | null): string | null => (time ? isoTime(time) : null)
