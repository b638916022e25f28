// Key-value lines of a bio ("Name: John Smith", "Age: 34", "Hobbies: hiking, chess", "Favorite food: ramen").
import { classifyNoun, cutPhrase, interpretObject, splitList } from './classify.js'
import { placeOf } from './core.js'
import { addItems } from './interests.js'
import { GENDER_EXPLICIT } from './lexicon-core.js'
import { FAVORITE_HEADS } from './lexicon-interests.js'
import { occupationFrom } from './occupation.js'
import type { ClauseInfo, RuleContext } from './rules-common.js'
import { parseNumber, singular } from './text.js'
import { dict } from './regex.js'

const CATEGORY_KEYS: Record<string, string> = dict({
  music: 'music',
  food: 'food',
  foods: 'food',
  sports: 'sports',
  sport: 'sports',
  books: 'books',
  reading: 'books',
  movies: 'movies_tv',
  films: 'movies_tv',
  tv: 'movies_tv',
  shows: 'movies_tv',
  pets: 'pets',
  pet: 'pets',
  travel: 'travel',
  hobbies: 'hobbies',
  hobby: 'hobbies',
})

/** Handles "key: value" clauses; returns true when the clause was one. */
export function ruleFieldLine(c: ClauseInfo, ctx: RuleContext): boolean {
  const m = /^([a-z][a-z ]{1,24}?)\s*:\s*(.+)$/.exec(c.text)
  if (!m) return false
  const key = m[1].replace(/^my\s+/, '').trim()
  const value = m[2].trim()
  const acc = ctx.acc
  if (/^(?:name|full name|first name)$/.test(key)) {
    const n = /^[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,2}$/.exec(value)
    if (n) acc.setCore('name', ctx.cases.restore(value, true), 0.9, 'field.name', m)
  } else if (key === 'age') {
    const n = parseNumber(value.replace(/\s*(?:years?|yrs?)(?: old)?$/, ''))
    if (n !== undefined && n > 0 && n < 120) acc.setCore('age', n, 0.9, 'field.age', m)
  } else if (key === 'gender' || key === 'sex') {
    const g = GENDER_EXPLICIT[value] ?? (value === 'f' ? 'female' : value === 'm' ? 'male' : undefined)
    if (g) acc.setCore('gender', g, 0.9, 'field.gender', m)
  } else if (/^(?:location|city|lives in|home|hometown|from|based in|country|residence)$/.test(key)) {
    const p = placeOf(value, 'loose', ctx)
    if (p) acc.setCore('location', p.value, 0.85 * p.factor, 'field.location', m)
  } else if (/^(?:job|occupation|profession|work|role|career|position)$/.test(key)) {
    const f = occupationFrom(value.replace(/^(?:a|an)\s+/, ''), false)
    if (f?.kind === 'job') acc.setCore('occupation', f.value, Math.min(0.85, f.conf), 'field.occupation', m)
  } else if (/^(?:hobbies|interests|likes|loves|passions|favorites|favourites|into)$/.test(key)) {
    addItems(interpretObject(value), ctx, 0.85, 'field.interests', m)
  } else if (/^(?:dislikes|hates|pet peeves)$/.test(key)) {
    for (const it of interpretObject(value)) acc.addAvoid(it.value, 0.5, 'field.dislikes', m)
  } else if (CATEGORY_KEYS[key] || /^favou?rite /.test(key)) {
    const head = key.replace(/^favou?rite\s+/, '')
    const cat = CATEGORY_KEYS[key] ?? FAVORITE_HEADS[singular(head.split(' ').pop() ?? '')]
    if (!cat) return false
    for (const item of splitList(cutPhrase(value))) {
      const n = classifyNoun(item, cat, 1)
      if (n)
        addItems(
          [
            {
              category: cat === 'hobbies' ? n.category : cat,
              value: cat === 'pets' ? singular(n.value) : n.value,
              weight: 1,
            },
          ],
          ctx,
          0.85,
          'field.favorite',
          m,
        )
    }
  } else {
    return false
  }
  return true
}
