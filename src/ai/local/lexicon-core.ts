// Lexicons for core facts and personality, written from general knowledge (not from evaluation data).
import { HOBBY_AGENTS } from './lexicon-interests.js'
import { OCCUPATION_NAMES } from './occupation-data.js'
import { dict } from './regex.js'

const list = (s: string): string[] =>
  s
    .split(/\s*[,\n]\s*/)
    .map((x) => x.trim())
    .filter(Boolean)

/**
 * Occupations that WordNet's list (occupation-data.ts) lacks or leaves to the hand lists: jobs of the last decades,
 * compounds, short forms, and words whose most frequent sense is no job ("model", "host"). Multi-word entries are
 * matched as phrases; single words as a phrase's head.
 */
const MORE_OCCUPATIONS = list(`
analyst, animator, announcer, archivist, artist, astronaut, athlete, auditor, babysitter, baker, banker, barista,
bouncer, builder, buyer, cashier, ceo, cfo, cto, cleaner, coach, concierge, contractor, cook, coordinator, coroner,
correspondent, cosmetologist, counsellor, courier, curator, custodian, dancer, designer, dietitian, dispatcher,
doorman, fireman, guard, gardener, historian, influencer, interpreter, investor, janitor, landlord, mason, mediator,
marine, medic, model, musician, nanny, nutritionist, optometrist, painter, philosopher, photographer, politician,
principal, publicist, publisher, rabbi, realtor, referee, secretary, senator, singer, solicitor, supervisor, trainer,
translator, umpire, writer, youtuber, zookeeper, taxi driver, delivery driver, uber driver, office worker,
steel worker, software developer, web developer, data scientist, graphic designer, interior designer,
personal trainer, fitness instructor, air traffic controller, customer service representative, pharmacy technician,
lab technician, teaching assistant, stay-at-home parent, bank teller, security guard, dog walker, pet sitter,
house cleaner, car salesman, mayor, governor, surgeon general, monk, nun, dj, streamer, podcaster, vlogger, blogger,
tour guide, stunt double, wrestler, olympian, caddy, jockey, stuntman, lobbyist, appraiser, actuary, cartographer,
geographer, audiologist, sonographer, emt, decorator, hostess, host, dishwasher, line cook, sous chef, pastry chef,
stocker, warehouse worker, forklift driver, oil rig worker, lineman, operator, telemarketer`)

/** Nouns that end like jobs but are not jobs ("I am a mother", "I am a big fan"). */
export const NOT_JOBS = new Set(
  list(`
mother, father, brother, sister, daughter, son, lover, fan, member, beginner, believer, user, person, parent, wife,
husband, partner, grandmother, grandfather, grandparent, mom, dad, mum, twin, owner, leader, follower, listener,
watcher, viewer, customer, consumer, foodie, thinker, dreamer, worrier, overthinker, optimist, pessimist, realist,
idealist, introvert, extrovert, perfectionist, procrastinator, fighter, survivor, winner, loser, player, newcomer,
stranger, neighbor, neighbour, friend, roommate, grandma, grandpa, aunt, uncle, niece, nephew, cousin, widow, widower,
bachelor, spinster, vegetarian, vegan, christian, catholic, muslim, jew, buddhist, hindu, atheist, agnostic, native,
citizen, immigrant, resident, descendant, collector, supporter, activist, feminist, volunteer, homeowner, renter,
retiree, veteran, senior, teenager, teen, adult, kid, child, baby, toddler, man, woman, guy, girl, boy, lady, gentleman,
male, female, dude, nerd, geek, bookworm, recluse, loner, hermit, survivor, addict, alcoholic, smoker, nonsmoker`),
)

/**
 * Occupations (singular): WordNet's (occupation-data.ts, built by scripts/build-vocabularies.mjs) and the hand list
 * above. A word that reads here as no job (NOT_JOBS) or as a pastime ("a knitter": HOBBY_AGENTS) stays out.
 */
export const OCCUPATIONS = new Set([
  ...MORE_OCCUPATIONS,
  ...OCCUPATION_NAMES.split(/[|\n]/).filter((name) => name && !NOT_JOBS.has(name) && !(name in HOBBY_AGENTS)),
])

/** Suffixes that make an unknown noun look like a job title, used only where the context says "job". */
export const JOB_SUFFIX = /(?:er|or|ist|ian|ant|ent|man|woman|smith|wright)$/

/** Verbs used as "I <verb> for a living" or "I <noun-as-verb>" ("I bartend") -> job title. */
export const VERB_TO_JOB: Record<string, string> = dict({
  teach: 'teacher',
  tutor: 'tutor',
  nurse: 'nurse',
  waitress: 'waitress',
  bartend: 'bartender',
  babysit: 'babysitter',
  drive: 'driver',
  write: 'writer',
  paint: 'painter',
  sing: 'singer',
  build: 'builder',
  bake: 'baker',
  cook: 'cook',
  design: 'designer',
  program: 'programmer',
  code: 'programmer',
  farm: 'farmer',
  clean: 'cleaner',
  act: 'actor',
  dance: 'dancer',
  photograph: 'photographer',
  model: 'model',
  coach: 'coach',
  manage: 'manager',
  sell: 'salesperson',
  translate: 'translator',
  edit: 'editor',
  report: 'reporter',
  preach: 'preacher',
  fish: 'fisherman',
  ranch: 'rancher',
  garden: 'gardener',
  lecture: 'lecturer',
  consult: 'consultant',
  freelance: 'freelancer',
  nanny: 'nanny',
  walk: 'walker',
  fix: 'repairer',
  repair: 'repairer',
  deliver: 'delivery driver',
  serve: 'server',
  guard: 'guard',
  practice: 'practitioner',
})

/** Businesses one can run or own: "I run a bakery" -> "bakery owner". */
export const BUSINESSES = new Set(
  list(`
bakery, restaurant, cafe, coffee shop, shop, store, business, company, farm, bar, pub, salon, barbershop, gym, hotel,
firm, startup, food truck, daycare, clinic, boutique, bookstore, bookshop, flower shop, garage, diner, brewery, winery,
vineyard, ranch, bed and breakfast, b&b, hostel, studio, agency, practice, pizzeria, deli, grocery store, pet store,
hardware store, laundromat, car wash, nonprofit, charity, small business, online store, etsy shop, dental practice,
law firm, construction company, catering business, cleaning business, landscaping business, tattoo parlor, nail salon,
service`),
)

/** Generic locations accepted after "I live in" ("a small town", "the suburbs"). */
export const GENERIC_PLACES = new Set(
  list(`
city, town, small town, big city, village, country, countryside, suburbs, suburb, the suburbs, the city, the country,
farm, neighborhood, state, capital, coast, east coast, west coast, midwest, south, north, east,
west, mountains, desert, island, rural area, small village, the south, the north,
the midwest, the countryside, a farm, the mountains, the coast, downtown, the valley, the bay area, big apple`),
)

/** Personality traits (adjectives and a few nouns). */
export const TRAITS = new Set(
  list(`
shy, strong, fit, outgoing, introverted, extroverted, extraverted, introvert, extrovert, ambivert, organized,
disorganized, messy,
neat, tidy, lazy, hardworking, hard-working, hard working, friendly, kind, caring, funny, humorous, witty, sarcastic,
creative, artistic, ambitious, driven, motivated, curious, patient, impatient, honest, loyal, stubborn, optimistic,
pessimistic, positive, competitive, adventurous, independent, quiet, talkative, chatty, social, sociable, antisocial,
energetic, laid back, laid-back, easygoing, easy going, easy-going, sensitive, emotional, generous, responsible,
reliable, dependable, disciplined, spontaneous, practical, logical, analytical, romantic, nerdy, geeky, clumsy,
forgetful, punctual, perfectionist, open-minded, open minded, confident, insecure, reserved, polite, humble, brave,
cautious, careful, picky, frugal, thrifty, spiritual, religious, bubbly, cheerful, grumpy, moody, loud, private,
active, athletic, sporty, resilient, empathetic, compassionate, intelligent, smart, clever, goofy, silly, weird, quirky,
eccentric, old fashioned, old-fashioned, traditional, detail oriented, detail-oriented, introspective, thoughtful,
considerate, respectful, passionate, enthusiastic, determined, persistent, focused, impulsive, indecisive, decisive,
assertive, bossy, timid, bold, fearless, loving, affectionate, nice, sweet, gentle, tough, wise, mature, immature,
playful, serious, intense, chill, mellow, imaginative, inventive, resourceful, handy, helpful, supportive, outspoken,
opinionated, blunt, straightforward, genuine, modest, vain, jealous, selfish, materialistic, minimalist,
health conscious, health-conscious, night owl, morning person, early bird, homebody, workaholic, people person,
team player, leader, procrastinator, optimist, pessimist, realist, idealist, dreamer, overthinker, worrier,
neat freak, free spirit, free spirited, free-spirited, strong willed, strong-willed, kind hearted, go-getter,
adrenaline junkie, thrill seeker, risk taker, loner, social butterfly, feminist,
activist, environmentalist, nerd, geek, recluse, hermit, perfectionist, anxious person, nervous person, big talker,
good listener, hopeless romantic, clean freak, control freak, animal person, fitness fanatic, tech savvy, tech-savvy,
artsy, crafty, outdoorsy, sporty, bookish, studious, nosy, shy person, fun, fun loving, fun-loving, easy to talk to,
down to earth, down-to-earth, loyal friend, good cook, smart person, introverted person, extroverted person,
caring person, high maintenance, high-maintenance, low maintenance, low-maintenance, lonely, shy person, easily bored`),
)

/** Moods and feelings, with their canonical value. */
export const MOODS: Record<string, string> = dict({
  happy: 'happy',
  sad: 'sad',
  tired: 'tired',
  exhausted: 'exhausted',
  sleepy: 'sleepy',
  stressed: 'stressed',
  'stressed out': 'stressed',
  anxious: 'anxious',
  nervous: 'nervous',
  worried: 'worried',
  excited: 'excited',
  thrilled: 'excited',
  pumped: 'excited',
  stoked: 'excited',
  bored: 'bored',
  angry: 'angry',
  mad: 'angry',
  upset: 'upset',
  frustrated: 'frustrated',
  annoyed: 'annoyed',
  irritated: 'annoyed',
  depressed: 'depressed',
  lonely: 'lonely',
  down: 'sad',
  blue: 'sad',
  content: 'content',
  relaxed: 'relaxed',
  calm: 'calm',
  peaceful: 'calm',
  grateful: 'grateful',
  thankful: 'grateful',
  hopeful: 'hopeful',
  overwhelmed: 'overwhelmed',
  'burned out': 'burned out',
  'burnt out': 'burned out',
  miserable: 'miserable',
  unhappy: 'unhappy',
  joyful: 'happy',
  ecstatic: 'excited',
  great: 'good',
  good: 'good',
  fine: 'okay',
  okay: 'okay',
  ok: 'okay',
  awful: 'awful',
  terrible: 'awful',
  sick: 'sick',
  ill: 'sick',
  'under the weather': 'sick',
  scared: 'scared',
  afraid: 'scared',
  frightened: 'scared',
  confused: 'confused',
  energized: 'energized',
  proud: 'proud',
  relieved: 'relieved',
  nostalgic: 'nostalgic',
  homesick: 'homesick',
  heartbroken: 'heartbroken',
  devastated: 'devastated',
  gutted: 'devastated',
  crushed: 'devastated',
  disappointed: 'disappointed',
  discouraged: 'discouraged',
  hopeless: 'hopeless',
  grieving: 'grieving',
  furious: 'angry',
  terrified: 'scared',
  elated: 'excited',
  overjoyed: 'happy',
  embarrassed: 'embarrassed',
  guilty: 'guilty',
  glad: 'glad',
  drained: 'exhausted',
  'worn out': 'exhausted',
  restless: 'restless',
  tense: 'tense',
  cranky: 'grumpy',
  grumpy: 'grumpy',
  cheerful: 'cheerful',
  motivated: 'motivated',
  optimistic: 'optimistic',
  inspired: 'inspired',
  curious: 'curious',
  amazing: 'great',
  wonderful: 'great',
  fantastic: 'great',
  meh: 'meh',
  'not great': 'down',
  bad: 'bad',
  horrible: 'awful',
  busy: 'busy',
  'fed up': 'frustrated',
  sore: 'sore',
  hungry: 'hungry',
  cold: 'cold',
  jealous: 'jealous',
  insecure: 'insecure',
  lost: 'lost',
})

/** Words that describe a state rather than a stable trait unless "person"/"always"/"by nature" says otherwise. */
export const MOOD_FIRST = new Set([
  'anxious',
  'nervous',
  'calm',
  'relaxed',
  'cheerful',
  'grumpy',
  'optimistic',
  'curious',
  'motivated',
  'jealous',
  'insecure',
  'proud',
  'happy',
  'sad',
])

/** Strong gender statements. */
export const GENDER_EXPLICIT: Record<string, string> = dict({
  woman: 'female',
  female: 'female',
  girl: 'female',
  lady: 'female',
  gal: 'female',
  'trans woman': 'trans woman',
  man: 'male',
  male: 'male',
  guy: 'male',
  boy: 'male',
  gentleman: 'male',
  dude: 'male',
  'trans man': 'trans man',
  'non-binary': 'non-binary',
  nonbinary: 'non-binary',
  'non binary': 'non-binary',
  enby: 'non-binary',
  genderqueer: 'genderqueer',
  genderfluid: 'genderfluid',
})

/** Relatives whose word says their gender: cues to the person's own gender, and people a clause can be about. */
export const RELATIVES: Record<string, 'female' | 'male'> = {
  mother: 'female',
  mom: 'female',
  mum: 'female',
  mommy: 'female',
  wife: 'female',
  girlfriend: 'female',
  grandmother: 'female',
  grandma: 'female',
  granny: 'female',
  daughter: 'female',
  sister: 'female',
  aunt: 'female',
  niece: 'female',
  father: 'male',
  dad: 'male',
  daddy: 'male',
  husband: 'male',
  boyfriend: 'male',
  grandfather: 'male',
  grandpa: 'male',
  son: 'male',
  brother: 'male',
  uncle: 'male',
  nephew: 'male',
}

/** Weaker cues ("I am a mother"): a role that usually implies a gender. */
export const GENDER_CUES: Record<string, string> = dict({
  ...RELATIVES,
  housewife: 'female',
  waitress: 'female',
  actress: 'female',
  widow: 'female',
  bride: 'female',
  'single mom': 'female',
  'single mother': 'female',
  'stay at home mom': 'female',
  'stay-at-home mom': 'female',
  businesswoman: 'female',
  policewoman: 'female',
  saleswoman: 'female',
  seamstress: 'female',
  nun: 'female',
  widower: 'male',
  groom: 'male',
  'single dad': 'male',
  'single father': 'male',
  'stay at home dad': 'male',
  'stay-at-home dad': 'male',
  businessman: 'male',
  policeman: 'male',
  salesman: 'male',
  fireman: 'male',
  monk: 'male',
  fisherman: 'male',
})
