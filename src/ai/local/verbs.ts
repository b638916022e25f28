// What doing something says about interests: "play" + "the guitar" -> music: guitar, "go" + "hiking" -> hiking.
import { INSTRUMENTS } from './lexicon-interests.js'
import { classifyNoun, lookup, lookupExact, splitGerund, stripFiller, type Item } from './phrase.js'
import { gerund, singular } from './text.js'

/** Verbs whose gerund is no pastime ("I like to think that ..."). */
const NON_HOBBY_VERBS = new Set(
  `think say believe know keep imagine pretend consider call tell ask wonder hope guess remember forget feel need want
  mention use stay work prepare care mind sleep_ talk chat help get put give pay buy spend own live sit wait start stop finish try
  let find show seem become leave bring hear mean understand agree argue complain worry laugh cry smile eat_ be have
  do make take see go`
    .split(/\s+/)
    .filter((w) => w && !w.endsWith('_')),
)

/** Interest items implied by doing `verb` with `obj` ("play" + "the guitar" -> music: guitar). */
export function verbItems(verb: string, obj: string): Item[] {
  // "grill outdoors", "paint at home": where or how, not what
  const o = stripFiller(obj).replace(
    /^(?:outdoors|outside|indoors|inside|at home|alone|together|daily|a lot|here|there)$/,
    '',
  )
  const noun = (fb: string, w = 0.9) => (o ? classifyNoun(o, fb, w) : undefined)
  switch (verb) {
    case 'play': {
      if (!o || /^(?:with|in)\b/.test(o))
        return /^in (?:a|the)? ?band/.test(o) ? [{ category: 'music', value: 'band', weight: 1 }] : []
      const n = classifyNoun(o, 'hobbies', 0.8)
      if (!n) return []
      if (INSTRUMENTS.has(singular(n.value)) || INSTRUMENTS.has(n.value))
        return [{ category: 'music', value: n.value, weight: 1 }]
      if (n.category === 'pets' || n.category === 'other' || n.category === 'travel')
        return [{ ...n, category: 'hobbies' }]
      return [n]
    }
    case 'listen': {
      if (!o || /^to (?:music|songs)$/.test(o)) return [{ category: 'music', value: 'music', weight: 0.9 }]
      const c = classifyNoun(o.replace(/^to\s+/, ''), 'music', 0.85)
      if (!c) return []
      return [['music', 'books', 'hobbies'].includes(c.category) ? c : { ...c, category: 'music' }]
    }
    case 'watch': {
      if (!o) return []
      const c = classifyNoun(o, 'movies_tv', 0.85)
      if (!c) return []
      return [c.category === 'sports' || c.category === 'movies_tv' ? c : { ...c, category: 'movies_tv' }]
    }
    case 'read': {
      if (
        !o ||
        /^(?:(?:a|\d+|some|many|few|good|great|lots of|several|one|two|three|four|five|ten|twenty|fifty|hundred) )?(?:books?|novels?)$/.test(
          o,
        )
      )
        return [{ category: 'books', value: 'reading', weight: 1 }]
      const c = classifyNoun(o, 'books', 0.85)
      return c ? [{ ...c, category: 'books' }] : [{ category: 'books', value: 'reading', weight: 0.9 }]
    }
    case 'eat':
    case 'drink':
    case 'taste':
    case 'try': {
      if (!o) return []
      if (/^out\b/.test(o)) return [{ category: 'hobbies', value: 'eating out', weight: 0.9 }]
      const c = classifyNoun(o, 'food', 0.8)
      return c && (c.category === 'food' || c.weight < 1 || verb !== 'try')
        ? [{ ...c, category: c.category === 'travel' ? 'travel' : 'food' }]
        : []
    }
    case 'cook':
    case 'bake':
    case 'grill': {
      const out: Item[] = [{ category: 'hobbies', value: gerund(verb), weight: 1 }]
      const c = o ? classifyNoun(o, 'food', 0.8) : undefined
      if (c) out.push({ ...c, category: 'food' })
      return out
    }
    case 'go': {
      if (!o) return []
      if (/^out\b/.test(o)) return [{ category: 'hobbies', value: 'going out', weight: 0.9 }]
      const gm = splitGerund(o)
      if (gm) return verbItems(gm[0], gm[1])
      const x = stripFiller(o.replace(/^(?:to|on)\s+/, ''))
      if (/^(?:the )?(?:movies?|cinema|theaters?)$/.test(x))
        return [{ category: 'movies_tv', value: 'movies', weight: 1 }]
      if (/^(?:the )?gym$/.test(x)) return [{ category: 'sports', value: 'gym', weight: 1 }]
      const c = classifyNoun(x, 'travel', 0.5)
      if (!c || c.weight < 0.9) return []
      return [c.category === 'other' || c.category === 'pets' ? { ...c, category: 'travel' } : c]
    }
    case 'visit':
    case 'travel':
    case 'explore':
    case 'tour':
    case 'see': {
      if (!o)
        return verb === 'travel' || verb === 'explore' ? [{ category: 'travel', value: 'traveling', weight: 1 }] : []
      const c = classifyNoun(o.replace(/^(?:to|around)\s+/, ''), 'travel', 0.8)
      if (!c) return verb === 'travel' ? [{ category: 'travel', value: 'traveling', weight: 1 }] : []
      return [c.category === 'travel' || verb === 'see' ? c : { ...c, category: 'travel' }]
    }
    case 'collect':
      return o && o.split(' ').length <= 3
        ? [{ category: 'hobbies', value: `collecting ${o}`, weight: 1 }]
        : [{ category: 'hobbies', value: 'collecting', weight: 0.9 }]
    case 'do':
    case 'practice':
    case 'practise': {
      const c = noun('hobbies', 0.8)
      return c ? [c.category === 'other' ? { ...c, category: 'hobbies' } : c] : []
    }
    case 'work':
    case 'spend':
    case 'be':
    case 'take':
    case 'have':
    case 'get':
    case 'make':
    case 'hang':
    case 'meet':
    case 'help':
    case 'talk':
    case 'chat':
    case 'learn':
    case 'study': {
      if (verb === 'learn' || verb === 'study') {
        if (!o) return []
        const c = classifyNoun(o, 'other', 0.8)
        if (!c) return []
        if (INSTRUMENTS.has(singular(c.value))) return [{ category: 'music', value: c.value, weight: 0.9 }]
        return [
          { category: c.category === 'other' ? 'hobbies' : c.category, value: `learning ${c.value}`, weight: 0.8 },
        ]
      }
      if (verb === 'work' && /^out\b/.test(o)) return [{ category: 'sports', value: 'working out', weight: 1 }]
      if (verb === 'take' && o) {
        if (/^(?:pictures|photos|photographs)\b/.test(o))
          return [{ category: 'hobbies', value: 'photography', weight: 1 }]
        const c = lookupExact(o)
        if (c === 'hobbies' || c === 'sports') return [{ category: c, value: o, weight: 0.9 }]
        if (/^(?:walks?|hikes?|long walks|bike rides|road trips?|trips?)$/.test(o))
          return [{ category: c ?? 'hobbies', value: o, weight: 0.9 }]
        return []
      }
      if (verb === 'spend' && /\b(?:outdoors|outside|nature)\b/.test(o))
        return [{ category: 'hobbies', value: 'outdoors', weight: 0.9 }]
      if (verb === 'be' && /^(?:outdoors|outside|in nature)$/.test(o))
        return [{ category: 'hobbies', value: 'outdoors', weight: 0.9 }]
      if (verb === 'make' && o) {
        const c = classifyNoun(o, 'hobbies', 0.7)
        return c
          ? [{ ...c, value: c.category === 'food' || c.category === 'music' ? c.value : `making ${c.value}` }]
          : []
      }
      return []
    }
    case 'ride': {
      if (/^(?:a |my |the )?(?:horses?|ponies|pony)$/.test(o))
        return [{ category: 'sports', value: 'horseback riding', weight: 1 }]
      if (/^(?:a |my |the )?(?:bikes?|bicycles?)$/.test(o)) return [{ category: 'sports', value: 'cycling', weight: 1 }]
      if (/^(?:a |my |the )?(?:motorcycles?|motorbikes?|harley)$/.test(o))
        return [{ category: 'hobbies', value: 'motorcycles', weight: 1 }]
      return o ? [] : [{ category: 'hobbies', value: 'riding', weight: 0.7 }]
    }
    default: {
      if (NON_HOBBY_VERBS.has(verb)) return []
      const ger = gerund(verb)
      const known = lookup(ger)
      if (!o || o.split(' ').length > 2)
        return [{ category: known?.category ?? 'hobbies', value: ger, weight: known ? 1 : 0.75 }]
      const c = lookup(o)
      if (c && (c.category === 'food' || c.category === 'music'))
        return [
          { category: known?.category ?? 'hobbies', value: ger, weight: 0.9 },
          { category: c.category, value: o, weight: 0.8 },
        ]
      return [{ category: known?.category ?? 'hobbies', value: known ? ger : `${ger} ${o}`, weight: known ? 1 : 0.7 }]
    }
  }
}
