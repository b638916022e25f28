// Characters that change how text reads without being seen (docs/guides/evidence.md). What the service derives from
// a submission to show or quote (speaker labels, evidence passages) leaves them out; the submission's own text is kept
// as it was sent.

/**
 * Invisible format characters (Unicode Cf): the bidirectional controls (U+202A-202E, U+2066-2069, U+200E/F, U+061C)
 * that make text read in another order than it is stored ("\u202Eevol I" shows as "I love"), zero-width space, word
 * joiner, soft hyphen, byte order mark, interlinear annotations and tag characters (which can spell out text no reader
 * sees). ZWNJ and ZWJ stay: Persian, Indic scripts and emoji sequences need them; so do the tags of a subdivision flag
 * (England, Scotland, Wales: the black flag, tag letters or digits, the cancel tag), captured to be put back.
 */
const FORMATS = /(\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,6}\u{E007F})|(?![\u200C\u200D])\p{Cf}/gu
/** Control characters other than the white space text is split by (tab, line feed, vertical tab, form feed, CR). */
const CONTROLS = /[^\P{Cc}\t\n\v\f\r]/gu
const ANY = /(?![\u200C\u200D])\p{Cf}|[^\P{Cc}\t\n\v\f\r]/u

/**
 * The text without invisible format characters (a subdivision flag's tags kept), and with each other control
 * character as a space (NEL, escape, bell: they separate what is around them). Linear in the text; returns it
 * unchanged when it has none.
 */
export function withoutInvisible(text: string): string {
  if (!ANY.test(text)) return text
  // Replacement patterns rather than a callback: several times faster on text full of such characters.
  return text.replace(FORMATS, '$1').replace(CONTROLS, ' ')
}
