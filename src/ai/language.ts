// Language of what the person writes, as an ISO 639-1 code (docs/guides/the-profile.md, "What it holds").
//
// Rule: franc-min (trigrams, ISO 639-3) is unreliable on short text, so for text in Latin script we first count
// common function words of seven frequent languages (en, es, fr, de, pt, it, nl):
// - fewer than 2 letters: undefined;
// - mostly non-Latin script: franc decides (the script alone settles zh, ja, ko, el, th, ...);
// - Latin script: if one language has more function-word hits than every other (ties that include English go
//     to English: "no", "ok") and either the text is under 100 characters or those hits are >= 2 and cover >= 25%
//     of the words, that language; otherwise, under 40 characters: undefined; otherwise franc's best guess if it
//     beats the runner-up by more than 0.1 (franc's normalised score), else undefined.
import { franc, francAll } from 'franc-min'

/** franc-min's languages (ISO 639-3) that have an ISO 639-1 code. */
const ISO1: Record<string, string> = {
  eng: 'en',
  spa: 'es',
  por: 'pt',
  ind: 'id',
  fra: 'fr',
  deu: 'de',
  jav: 'jv',
  vie: 'vi',
  ita: 'it',
  tur: 'tr',
  pol: 'pl',
  swh: 'sw',
  sun: 'su',
  ron: 'ro',
  hau: 'ha',
  fuv: 'ff',
  bos: 'bs',
  hrv: 'hr',
  nld: 'nl',
  srp: 'sr',
  ckb: 'ku',
  yor: 'yo',
  uzn: 'uz',
  zlm: 'ms',
  ibo: 'ig',
  tgl: 'tl',
  hun: 'hu',
  azj: 'az',
  ces: 'cs',
  run: 'rn',
  plt: 'mg',
  qug: 'qu',
  nya: 'ny',
  zyb: 'za',
  kin: 'rw',
  zul: 'zu',
  swe: 'sv',
  lin: 'ln',
  som: 'so',
  rus: 'ru',
  ukr: 'uk',
  koi: 'kv',
  bel: 'be',
  bul: 'bg',
  kaz: 'kk',
  arb: 'ar',
  urd: 'ur',
  pes: 'fa',
  pbu: 'ps',
  hin: 'hi',
  mar: 'mr',
  npi: 'ne',
  cmn: 'zh',
  ben: 'bn',
  jpn: 'ja',
  kor: 'ko',
  tel: 'te',
  tam: 'ta',
  guj: 'gu',
  kan: 'kn',
  mal: 'ml',
  mya: 'my',
  pan: 'pa',
  amh: 'am',
  tha: 'th',
  sin: 'si',
  ell: 'el',
}
const ONLY = Object.keys(ISO1)

const FUNCTION_WORDS: Record<string, string> = {
  en: `i me my you your he she it we they the a an and or but of to in on at for with is am are was were be been have
    has had do does did not no yes this that what who how why when where hi hello hey thanks ok okay love like just so
    very really from about there here im i'm it's don't can will would my our their them him her as too also well
    if by up out all some any his its`,
  es: `yo me mi mis tu el la los las un una unos y o pero de del en con por para que es soy eres son estoy está
    estás no sí hola gracias muy también como qué cuando donde porque se lo le nos mucho tengo tiene me gusta gusta`,
  fr: `je j'ai j'aime tu il elle nous vous ils elles le la les un une des et ou mais de du en avec pour par que qui est
    suis es sont pas oui non bonjour merci très aussi comme quand où parce ce cette mon ma mes ton sa au aux c'est ne`,
  de: `ich du er sie es wir ihr der die das ein eine einen und oder aber von zu mit für auf ist bin bist sind war nicht
    ja nein hallo danke sehr auch wie wann wo weil mein meine dein im den dem des gerne habe hat`,
  pt: `eu você ele ela nós o a os as um uma e ou mas de do da dos das em no na com por para que é sou está estou não
    sim olá obrigado obrigada muito também como quando onde porque meu minha gosto tenho`,
  it: `io tu lui lei noi voi il lo la gli le un una e o ma di del della in con per che è sono sei non sì ciao grazie
    molto anche come quando dove perché mio mia mi piace ho ha`,
  nl: `ik jij je hij zij wij het de een en of maar van naar met voor op is ben bent zijn was niet ja nee hallo dank
    bedankt heel ook hoe wanneer waar omdat mijn graag heb heeft`,
}
const WORDS = Object.fromEntries(Object.entries(FUNCTION_WORDS).map(([k, v]) => [k, new Set(v.trim().split(/\s+/))]))

function vote(words: string[]): { lang?: string; hits: number; coverage: number; tiedWithEnglish: boolean } {
  const scores = Object.entries(WORDS).map(([lang, set]) => [lang, words.filter((w) => set.has(w)).length] as const)
  scores.sort((a, b) => b[1] - a[1])
  const [top, second] = scores
  const hits = top[1]
  const tiedWithEnglish = hits > 0 && hits === second[1] && scores.some(([l, h]) => l === 'en' && h === hits)
  if (hits === 0 || (hits === second[1] && !tiedWithEnglish)) return { hits, coverage: 0, tiedWithEnglish }
  const lang = tiedWithEnglish ? 'en' : top[0]
  return { lang, hits, coverage: hits / Math.max(1, words.length), tiedWithEnglish }
}

/** Share of the words of `text` that are common function words of `lang` (en, es, fr, de, pt, it, nl). */
export function functionWordShare(text: string, lang: string): number {
  const set = WORDS[lang]
  const words =
    text
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .match(/\p{L}+(?:'\p{L}+)?/gu) ?? []
  if (!set || !words.length) return 0
  return words.filter((w) => set.has(w)).length / words.length
}

/**
 * Under this many characters, a text with none of the function words is left undetermined: franc reads chat such as
 * "ugh, worst week ever" as Dutch.
 */
const SHORT_CHARS = 40

/**
 * Whether a run of non-space characters reads as an e-mail address: something, "@", something, ".", something (what
 * /\S+@\S+\.\S+/ finds in it), checked by position, in time linear in the run: that pattern, tried at every position
 * of a long run without "@", takes time quadratic in its length.
 */
function isAddress(run: string): boolean {
  const at = run.indexOf('@', 1)
  return at > 0 && run.lastIndexOf('.', run.length - 2) >= at + 2
}

/** ISO 639-1 code of the text's language, or undefined when too short or undetermined. */
export function detectLanguage(text: string): string | undefined {
  const clean = text
    .replace(/\S+/g, (run) => (isAddress(run) ? ' ' : run))
    .replace(/https?:\/\/\S+|www\.\S+|[@#]\w+/g, ' ')
    .replace(/[\d_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  const letters = clean.match(/\p{L}/gu) ?? []
  if (letters.length < 2) return undefined
  const latin = clean.match(/\p{Script=Latin}/gu) ?? []
  if (latin.length / letters.length < 0.5) {
    const code = franc(clean, { minLength: 1, only: ONLY })
    return ISO1[code]
  }
  const words =
    clean
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .match(/\p{L}+(?:'\p{L}+)?/gu) ?? []
  const votes = vote(words)
  const short = clean.length < SHORT_CHARS
  if (votes.lang && (short || clean.length < 100 ? votes.hits >= 1 : votes.hits >= 2 && votes.coverage >= 0.25))
    return votes.lang
  if (short) return undefined
  // franc's best guess counts only when it clearly beats the runner-up (a list of names fools it)
  const [best, second] = francAll(clean, { minLength: 10, only: ONLY })
  if (!best || best[0] === 'und' || (second && second[1] > 0.9)) return undefined
  return ISO1[best[0]]
}
