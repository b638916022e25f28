// What doing something says about interests: "play" + "the guitar" -> music: guitar, "go" + "hiking" -> hiking.
import { INSTRUMENTS } from './lexicon-interests.js'
import { classifyNoun, lookup, lookupExact, splitGerund, stripFiller, type Item } from './phrase.js'
import { isPeopleNoun } from './others.js'
import { gerund, singular } from './text.js'
import { pattern } from './regex.js'

/** What is explored that is no place: "career options", "new ideas", "my feelings". */
const EXPLORED_IDEA = new RegExp(pattern`\b(?:options?|opportunit(?:y|ies)|possibilit(?:y|ies)|ideas?|careers?|paths?|
  choices|alternatives|topics?|concepts?|feelings?|emotions?|identity|sexuality|faith|spirituality|themes?|fields?|
  subjects?|interests?|hobbies)\b`)

/** Verbs whose gerund is no pastime ("I like to think that ..."). */
const NON_HOBBY_VERBS = new Set(
  `think say believe know keep imagine pretend consider call tell ask wonder hope guess remember forget feel need want
  mention use stay work prepare care mind sleep_ talk chat help get put give pay buy spend own live sit wait start stop
  finish try let find show seem become leave bring hear mean understand agree argue complain worry laugh cry smile eat_
  be have do make take see go look come check send hold lose open turn move`
    .split(/\s+/)
    .filter((w) => w && !w.endsWith('_')),
)

/** "books", "a lot of novels", "about two books a month": reading matter without a topic or a title. */
export const BOOKS_ONLY = new RegExp(pattern`
  ^(?:(?:about|around|like|over|at least|almost|nearly|maybe|up to) )?(?:
  (?:(?:a|\d+|some|many|few|good|great|lots of|several|one|two|three|four|five|ten|twenty|fifty|hundred) )?
  (?:(?:really |very |pretty |new |good |great |long |old )+)?(?:books?|novels?)
  (?: (?:in )?(?:a|per|every|each|this|last) (?:day|week|month|year))?|
  (?:\d+|one|two|three|four|five|ten|twenty|fifty|hundred)(?: (?:in )?(?:a|per|every|each|this|last)
  \s(?:day|week|month|year))?)$`)

/** What is watched outdoors, not on a screen: "the sunset", "birds", "the stars". */
const WATCHED_SIGHT = new RegExp(pattern`^(?:the )?(birds?|stars|sunsets?|sunrises?|waves|clouds|ocean|sea|rain|snow|
  storms?|wildlife|nature|trains)\b`)
/** A person watched doing something: "my kids play soccer", "people go by". */
const WATCHED_PEOPLE = /^(?:people|(?:my|our|the) [a-z]+ (?:play|playing|do|doing|grow|growing)\b)/

/**
 * What watching says when it is not a screen's: a sight as a pastime ("birds" -> bird watching, "the stars" ->
 * stargazing, "the sunset" -> watching the sunset), nothing for people ("my kids play soccer"); undefined for a show.
 */
export function watchedOffScreen(watched: string): Item[] | undefined {
  const sight = WATCHED_SIGHT.exec(watched)?.[1]
  if (sight) {
    const the = /^(?:sunsets?|sunrises?|ocean|sea|rain|snow|waves|clouds)$/.test(sight) ? 'the ' : ''
    const value = /^birds?$/.test(sight)
      ? 'bird watching'
      : sight === 'stars'
        ? 'stargazing'
        : `watching ${the}${sight}`
    return [{ category: 'hobbies', value, weight: 1 }]
  }
  const who = watched.replace(/^(?:my|our|the) /, '').split(' ')[0]!
  return WATCHED_PEOPLE.test(watched) || isPeopleNoun(singular(who)) ? [] : undefined
}

/** Where people go for what they share: "car shows", "hockey games", "live action role playing events" (1 the kind). */
const GATHERING = new RegExp(
  "^(?:the |a |an )?((?:[a-z'-]+ ){1,4}?)" +
    '(?:events?|shows?|festivals?|conventions?|games|matches|races|meetups?|fairs?|tournaments?)$',
)
/** A band seen on stage: "the who in concert", "metallica live" (1). */
const SEEN_LIVE = /^(.+?) (?:in concert|live|on tour|perform)\b/

/** A gathering gone to: its kind when the lexicons know it ("hockey games" -> hockey), else the whole ("car shows"). */
function gatheringItem(kind: string, gathering: string): Item {
  const item = classifyNoun(kind.trim(), 'hobbies', 0.5)
  if (item && item.weight >= 1 && /^(?:sports|music|food)$/.test(item.category)) return item
  // "role playing events": the events are what is gone to, not what is liked; "car shows" keeps its kind
  const value = / events?$/.test(gathering) ? kind.trim() : gathering.replace(/^(?:the|a|an) /, '')
  return { category: 'hobbies', value, weight: 0.9 }
}

/** Where travel goes when it goes everywhere: "the world", "abroad". */
const WIDE_WORLD = /^(?:(?:all )?(?:around |across )?(?:the )?(?:world|globe)|abroad|overseas|internationally)$/

/** "the internet", "the web": what is surfed when it is no sea. */
export const ON_THE_WEB = /^(?:the )?(?:internet|web|net)\b/

/** Interest items implied by doing `verb` with `obj` ("play" + "the guitar" -> music: guitar). */
export function verbItems(verb: string, obj: string): Item[] {
  // "grill outdoors", "paint at home": where or how, not what
  const thing = stripFiller(obj).replace(
    /^(?:outdoors|outside|indoors|inside|at home|alone|together|daily|a lot|here|there)$/,
    '',
  )
  const noun = (fb: string, w = 0.9) => (thing ? classifyNoun(thing, fb, w) : undefined)
  switch (verb) {
    case 'play': {
      // "i play several": how many of what was said before, no game of its own
      if (/^(?:several|many|some|a few|all|both|a lot|lots|one|two|three|four|them|it)$/.test(thing)) return []
      if (!thing || /^(?:with|in)\b/.test(thing))
        return /^in (?:a|the)? ?band/.test(thing) ? [{ category: 'music', value: 'band', weight: 1 }] : []
      const item = classifyNoun(thing, 'hobbies', 0.8)
      if (!item) return []
      if (INSTRUMENTS.has(singular(item.value)) || INSTRUMENTS.has(item.value))
        return [{ category: 'music', value: item.value, weight: 1 }]
      if (item.category === 'pets' || item.category === 'other' || item.category === 'travel')
        return [{ ...item, category: 'hobbies' }]
      return [item]
    }
    case 'listen': {
      if (!thing || /^to (?:music|songs)$/.test(thing)) return [{ category: 'music', value: 'music', weight: 0.9 }]
      const item = classifyNoun(thing.replace(/^to\s+/, ''), 'music', 0.85)
      if (!item) return []
      return [['music', 'books', 'hobbies'].includes(item.category) ? item : { ...item, category: 'music' }]
    }
    case 'watch': {
      if (!thing) return []
      const offScreen = watchedOffScreen(thing)
      if (offScreen) return offScreen
      const item = classifyNoun(thing, 'movies_tv', 0.85)
      if (!item) return []
      return [item.category === 'sports' || item.category === 'movies_tv' ? item : { ...item, category: 'movies_tv' }]
    }
    case 'read': {
      if (!thing || BOOKS_ONLY.test(thing)) return [{ category: 'books', value: 'reading', weight: 1 }]
      // "i read about horchata": what the reading is about, a topic of its own
      const about = /^about (.+)$/.exec(thing)
      if (about) {
        const topic = classifyNoun(about[1]!, 'books', 0.85)
        return topic ? [{ ...topic, category: 'books', value: about[1]! }] : []
      }
      const item = classifyNoun(thing, 'books', 0.85)
      return item ? [{ ...item, category: 'books' }] : [{ category: 'books', value: 'reading', weight: 0.9 }]
    }
    case 'eat':
    case 'drink':
    case 'taste':
    case 'try': {
      if (!thing) return []
      if (/^out\b/.test(thing)) return [{ category: 'hobbies', value: 'eating out', weight: 0.9 }]
      const item = classifyNoun(thing, 'food', 0.8)
      return item && (item.category === 'food' || item.weight < 1 || verb !== 'try')
        ? [{ ...item, category: item.category === 'travel' ? 'travel' : 'food' }]
        : []
    }
    case 'cook':
    case 'bake':
    case 'grill': {
      const out: Item[] = [{ category: 'hobbies', value: gerund(verb), weight: 1 }]
      // "grilling my food outdoors", "cooking out side": where, and food that names no dish
      const dish = thing
        .replace(/\s+(?:outdoors|outside|out side|indoors|inside|at home|when .*)$/, '')
        .replace(/^(?:out side|out|food|meals?|stuff|things|dinner|lunch|breakfast)$/, '')
      const item = dish ? classifyNoun(dish, 'food', 0.8) : undefined
      if (item) out.push({ ...item, category: 'food' })
      return out
    }
    case 'go': {
      if (!thing) return []
      if (/^out\b/.test(thing)) return [{ category: 'hobbies', value: 'going out', weight: 0.9 }]
      const gm = splitGerund(thing)
      if (gm) return verbItems(gm[0], gm[1])
      const place = stripFiller(thing.replace(/^(?:to|on)\s+/, ''))
      const gathering = GATHERING.exec(place)
      if (gathering) return [gatheringItem(gathering[1]!, place)]
      if (/^(?:the )?(?:movies?|cinema|theaters?)$/.test(place))
        return [{ category: 'movies_tv', value: 'movies', weight: 1 }]
      if (/^(?:the )?gym$/.test(place)) return [{ category: 'sports', value: 'gym', weight: 1 }]
      const item = classifyNoun(place, 'travel', 0.5)
      if (!item || item.weight < 0.9) return []
      return [item.category === 'other' || item.category === 'pets' ? { ...item, category: 'travel' } : item]
    }
    case 'visit':
    case 'travel':
    case 'explore':
    case 'tour':
    case 'see': {
      const live = SEEN_LIVE.exec(thing)
      if (live) {
        if (/^(?:bands|music|shows|artists)$/.test(live[1]!))
          return [{ category: 'music', value: 'live music', weight: 1 }]
        const band = classifyNoun(live[1]!, 'music', 0.85)
        return band ? [{ ...band, category: 'music' }] : []
      }
      // "travel the world", "see the world": travel itself, no place
      if (WIDE_WORLD.test(thing)) return [{ category: 'travel', value: 'traveling', weight: 1 }]
      if (!thing)
        return verb === 'travel' || verb === 'explore' ? [{ category: 'travel', value: 'traveling', weight: 1 }] : []
      // "exploring career options", "explore my feelings": no place
      if (verb === 'explore' && EXPLORED_IDEA.test(thing)) return []
      const item = classifyNoun(thing.replace(/^(?:to|around)\s+/, ''), 'travel', 0.8)
      if (!item) return verb === 'travel' ? [{ category: 'travel', value: 'traveling', weight: 1 }] : []
      return [item.category === 'travel' || verb === 'see' ? item : { ...item, category: 'travel' }]
    }
    case 'collect':
      return thing && thing.split(' ').length <= 3
        ? [{ category: 'hobbies', value: `collecting ${thing}`, weight: 1 }]
        : [{ category: 'hobbies', value: 'collecting', weight: 0.9 }]
    case 'do':
    case 'practice':
    case 'practise': {
      const item = noun('hobbies', 0.8)
      return item ? [item.category === 'other' ? { ...item, category: 'hobbies' } : item] : []
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
        // "study french next": when, after what is studied
        const studied = thing.replace(/\s+(?:next|now|soon|too|again|someday|one day)$/, '')
        if (!studied) return []
        const item = classifyNoun(studied, 'other', 0.8)
        if (!item) return []
        if (INSTRUMENTS.has(singular(item.value))) return [{ category: 'music', value: item.value, weight: 0.9 }]
        return [
          {
            category: item.category === 'other' ? 'hobbies' : item.category,
            value: `learning ${item.value}`,
            weight: 0.8,
          },
        ]
      }
      if (verb === 'work' && /^out\b/.test(thing)) return [{ category: 'sports', value: 'working out', weight: 1 }]
      if (verb === 'take' && thing) {
        if (/^(?:[a-z]+ )?(?:pictures|photos|photographs|photography)\b/.test(thing))
          return [{ category: 'hobbies', value: 'photography', weight: 1 }]
        const category = lookupExact(thing)
        if (category === 'hobbies' || category === 'sports') return [{ category, value: thing, weight: 0.9 }]
        if (/^(?:walks?|hikes?|long walks|bike rides|road trips?|trips?)$/.test(thing))
          return [{ category: category ?? 'hobbies', value: thing, weight: 0.9 }]
        return []
      }
      if (verb === 'spend' && /\b(?:outdoors|outside|nature)\b/.test(thing))
        return [{ category: 'hobbies', value: 'outdoors', weight: 0.9 }]
      if (verb === 'be' && /^(?:outdoors|outside|in nature)$/.test(thing))
        return [{ category: 'hobbies', value: 'outdoors', weight: 0.9 }]
      if (verb === 'make' && thing) {
        const item = classifyNoun(thing, 'hobbies', 0.7)
        return item
          ? [
              {
                ...item,
                value: item.category === 'food' || item.category === 'music' ? item.value : `making ${item.value}`,
              },
            ]
          : []
      }
      return []
    }
    case 'ride': {
      if (/^(?:a |my |the )?(?:horses?|ponies|pony)$/.test(thing))
        return [{ category: 'sports', value: 'horseback riding', weight: 1 }]
      if (/^(?:a |my |the )?(?:bikes?|bicycles?)$/.test(thing))
        return [{ category: 'sports', value: 'cycling', weight: 1 }]
      if (/^(?:a |my |the )?(?:motorcycles?|motorbikes?|harley)$/.test(thing))
        return [{ category: 'hobbies', value: 'motorcycles', weight: 1 }]
      return thing ? [] : [{ category: 'hobbies', value: 'riding', weight: 0.7 }]
    }
    default: {
      // "looking at the stars" is stargazing, as watching them is; looking at anything else says nothing
      if (verb === 'look') return /^at /.test(thing) ? (watchedOffScreen(thing.slice(3)) ?? []) : []
      if (NON_HOBBY_VERBS.has(verb)) return []
      // "surf the web" is no water sport
      if (verb === 'surf' && ON_THE_WEB.test(thing))
        return [{ category: 'hobbies', value: 'surfing the internet', weight: 0.9 }]
      const ger = gerund(verb)
      const known = lookup(ger)
      if (!thing || thing.split(' ').length > 2)
        return [{ category: known?.category ?? 'hobbies', value: ger, weight: known ? 1 : 0.75 }]
      const hit = lookup(thing)
      if (hit && (hit.category === 'food' || hit.category === 'music'))
        return [
          { category: known?.category ?? 'hobbies', value: ger, weight: 0.9 },
          { category: hit.category, value: thing, weight: 0.8 },
        ]
      return [
        { category: known?.category ?? 'hobbies', value: known ? ger : `${ger} ${thing}`, weight: known ? 1 : 0.7 },
      ]
    }
  }
}
