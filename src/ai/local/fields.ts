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
export function ruleFieldLine(clause: ClauseInfo, ctx: RuleContext): boolean {
  const match = /^([a-z][a-z ]{1,24}?)\s*:\s*(.+)$/.exec(clause.text)
  if (!match) return false
  const key = match[1].replace(/^my\s+/, '').trim()
  const value = match[2].trim()
  const acc = ctx.acc
  if (/^(?:name|full name|first name)$/.test(key)) {
    const nameMatch = /^[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,2}$/.exec(value)
    if (nameMatch) acc.setCore('name', ctx.cases.restore(value, true), 0.9, 'field.name', match)
  } else if (key === 'age') {
    const age = parseNumber(value.replace(/\s*(?:years?|yrs?)(?: old)?$/, ''))
    if (age !== undefined && age > 0 && age < 120) acc.setCore('age', age, 0.9, 'field.age', match)
  } else if (key === 'gender' || key === 'sex') {
    const gender = GENDER_EXPLICIT[value] ?? (value === 'f' ? 'female' : value === 'm' ? 'male' : undefined)
    if (gender) acc.setCore('gender', gender, 0.9, 'field.gender', match)
  } else if (/^(?:location|city|lives in|home|hometown|from|based in|country|residence)$/.test(key)) {
    const place = placeOf(value, 'loose', ctx)
    if (place) acc.setCore('location', place.value, 0.85 * place.factor, 'field.location', match)
  } else if (/^(?:job|occupation|profession|work|role|career|position)$/.test(key)) {
    const finding = occupationFrom(value.replace(/^(?:a|an)\s+/, ''), false)
    if (finding?.kind === 'job')
      acc.setCore('occupation', finding.value, Math.min(0.85, finding.conf), 'field.occupation', match)
  } else if (/^(?:hobbies|interests|likes|loves|passions|favorites|favourites|into)$/.test(key)) {
    addItems(interpretObject(value), ctx, 0.85, 'field.interests', match)
  } else if (/^(?:dislikes|hates|pet peeves)$/.test(key)) {
    for (const it of interpretObject(value)) acc.addAvoid(it.value, 0.5, 'field.dislikes', match)
  } else if (CATEGORY_KEYS[key] || /^favou?rite /.test(key)) {
    const head = key.replace(/^favou?rite\s+/, '')
    const cat = CATEGORY_KEYS[key] ?? FAVORITE_HEADS[singular(head.split(' ').pop() ?? '')]
    if (!cat) return false
    for (const item of splitList(cutPhrase(value))) {
      const noun = classifyNoun(item, cat, 1)
      if (noun)
        addItems(
          [
            {
              category: cat === 'hobbies' ? noun.category : cat,
              value: cat === 'pets' ? singular(noun.value) : noun.value,
              weight: 1,
            },
          ],
          ctx,
          0.85,
          'field.favorite',
          match,
        )
    }
  } else {
    return false
  }
  return true
}
