// Synthetic profiles for the search benchmark: drawn from word lists with a seeded generator (the same data every run),
// summarized and embedded by the service's own code, and written straight into the profiles table in batches: the
// pipeline would take minutes for 100,000 profiles and measures nothing the search benchmark is about.
import type pg from 'pg'
import { toSql } from 'pgvector'
import { summarizeProfile } from '../../src/ai/local/local-summarizer.js'
import { profileText } from '../../src/ai/profile-text.js'
import { profileLexemes } from '../../src/domain/lexical.js'
import { emptyContent, type ProfileContent, type Scored } from '../../src/domain/profile.js'
import { rng } from '../../eval/score.js'

const FIRST = [
  'Anna',
  'Bruno',
  'Carla',
  'David',
  'Elena',
  'Felix',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Klara',
  'Lukas',
  'Marta',
  'Nils',
  'Olga',
  'Paul',
  'Rosa',
  'Simon',
  'Tina',
  'Omar',
  'Vera',
  'Walter',
  'Priya',
  'Yusuf',
  'Zoe',
  'Adam',
  'Mei',
  'Carl',
  'Dora',
  'Emil',
  'Frida',
  'Georg',
  'Hanna',
  'Igor',
  'Julia',
  'Kofi',
  'Lena',
  'Mateo',
  'Nora',
  'Otto',
  'Aisha',
  'Ben',
  'Chloe',
  'Diego',
  'Emma',
  'Farid',
  'Gina',
  'Hiro',
]
const CITIES = [
  'Lisbon',
  'Porto',
  'Madrid',
  'Valencia',
  'Berlin',
  'Munich',
  'Hamburg',
  'Vienna',
  'Zurich',
  'Paris',
  'Lyon',
  'Marseille',
  'Rome',
  'Milan',
  'Turin',
  'Naples',
  'Athens',
  'Istanbul',
  'Warsaw',
  'Krakow',
  'Prague',
  'Budapest',
  'Oslo',
  'Bergen',
  'Stockholm',
  'Helsinki',
  'Copenhagen',
  'Dublin',
  'Cork',
  'London',
  'Leeds',
  'Glasgow',
  'Edinburgh',
  'Boston',
  'Chicago',
  'Austin',
  'Denver',
  'Seattle',
  'Toronto',
  'Montreal',
  'Vancouver',
  'Mexico City',
  'Bogota',
  'Lima',
  'Santiago',
  'Buenos Aires',
  'Lagos',
  'Nairobi',
  'Cairo',
  'Mumbai',
  'Delhi',
  'Bangalore',
  'Tokyo',
  'Osaka',
  'Seoul',
  'Sydney',
  'Melbourne',
  'Auckland',
]
const JOBS = [
  'nurse',
  'teacher',
  'software engineer',
  'pharmacist',
  'accountant',
  'chef',
  'baker',
  'plumber',
  'electrician',
  'architect',
  'lawyer',
  'doctor',
  'paramedic',
  'journalist',
  'photographer',
  'graphic designer',
  'data analyst',
  'librarian',
  'farmer',
  'pilot',
  'mechanic',
  'carpenter',
  'dentist',
  'veterinarian',
  'physiotherapist',
  'translator',
  'musician',
  'barista',
  'police officer',
  'firefighter',
]
const INTERESTS: Record<string, string[]> = {
  hobbies: [
    'hiking',
    'climbing',
    'cycling',
    'running',
    'swimming',
    'sailing',
    'gardening',
    'knitting',
    'painting',
    'photography',
    'chess',
    'board games',
    'woodworking',
    'pottery',
    'birdwatching',
    'fishing',
    'camping',
    'yoga',
    'surfing',
    'skiing',
  ],
  music: [
    'jazz',
    'blues',
    'classical music',
    'rock',
    'punk',
    'hip hop',
    'techno',
    'folk music',
    'opera',
    'soul',
    'reggae',
    'salsa',
  ],
  food: [
    'sushi',
    'pasta',
    'curry',
    'tacos',
    'ramen',
    'vegetarian cooking',
    'baking bread',
    'barbecue',
    'dumplings',
    'paella',
  ],
  sports: ['football', 'tennis', 'basketball', 'rugby', 'cricket', 'volleyball', 'boxing', 'golf', 'table tennis'],
  books: ['science fiction', 'crime novels', 'poetry', 'history books', 'fantasy novels', 'biographies'],
  pets: ['dog', 'cat', 'parrot', 'horse', 'rabbit'],
}
const TRAITS = [
  'patient',
  'curious',
  'outgoing',
  'shy',
  'organised',
  'creative',
  'calm',
  'ambitious',
  'funny',
  'impatient',
  'generous',
]

/** The seeded generator of the evaluation (mulberry32): the same data every run. */
export const seeded = rng

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
const scored = <T>(value: T, r: () => number): Scored<T> => ({
  value,
  confidence: Math.round((0.6 + r() * 0.4) * 100) / 100,
})

export function syntheticProfile(r: () => number): ProfileContent {
  const c = emptyContent()
  c.core_info.name = scored(pick(r, FIRST), r)
  c.core_info.age = scored(18 + Math.floor(r() * 60), r)
  c.core_info.location = scored(pick(r, CITIES), r)
  c.core_info.occupation = scored(pick(r, JOBS), r)
  const categories = Object.keys(INTERESTS)
  for (let i = 0, n = 1 + Math.floor(r() * 4); i < n; i++) {
    const cat = pick(r, categories)
    const v = pick(r, INTERESTS[cat]!)
    const list = (c.interests[cat] ??= [])
    if (!list.some((x) => x.value === v)) list.push(scored(v, r))
  }
  c.personality.traits = [scored(pick(r, TRAITS), r)]
  return c
}

/** Search queries in the same vocabulary: an interest, a job, a place, or two of them. */
export function syntheticQueries(n: number, seed = 7): string[] {
  const r = seeded(seed)
  const all = Object.values(INTERESTS).flat()
  const shapes = [
    () => `likes ${pick(r, all)}`,
    () => `${pick(r, JOBS)} in ${pick(r, CITIES)}`,
    () => `${pick(r, all)} and ${pick(r, all)}`,
    () => `lives in ${pick(r, CITIES)}`,
    () => `a ${pick(r, TRAITS)} ${pick(r, JOBS)} who loves ${pick(r, all)}`,
  ]
  return Array.from({ length: n }, (_, i) => shapes[i % shapes.length]!())
}

/**
 * Writes `count` ready profiles of a tenant, ids `${prefix}0..`, embedded by `embed` (one text at a time, the text the
 * worker would embed), in batches of 500.
 */
export async function writeProfiles(
  c: pg.Client,
  o: {
    tenantId: string
    prefix: string
    count: number
    seed: number
    model: string
    embed: (text: string) => number[] | Promise<number[]>
  },
): Promise<void> {
  const r = seeded(o.seed)
  for (let start = 0; start < o.count; start += 500) {
    const rows: unknown[][] = [[], [], [], [], [], [], [], [], [], []]
    for (let i = start; i < Math.min(o.count, start + 500); i++) {
      const content = syntheticProfile(r)
      const summary = summarizeProfile(content)
      const ci = content.core_info
      const values = [
        `${o.prefix}${i}`,
        JSON.stringify(content),
        summary,
        ci.name!.value,
        ci.age!.value,
        ci.location!.value,
        toSql(await o.embed(profileText(content, summary))),
        'en',
        new Date(Date.now() - Math.floor(r() * 90 * 86400_000)).toISOString(),
        profileLexemes(content, summary),
      ]
      values.forEach((v, k) => rows[k]!.push(v))
    }
    await c.query(
      `INSERT INTO profiles (tenant_id, profile_id, status, content, summary, name, age, location, embedding, embedding_model, language,
                             last_updated, created_at, version, history_seq, lexemes)
       SELECT $1, x.id, 'ready', x.content::jsonb, x.summary, x.name, x.age, x.location, x.embedding::vector, $2, x.language, x.at, x.at, 1, 0,
              array_to_tsvector(string_to_array(x.lexemes, ' '))
         FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::text[])
              AS x(id, content, summary, name, age, location, embedding, language, at, lexemes)`,
      [o.tenantId, o.model, ...rows],
    )
  }
}
