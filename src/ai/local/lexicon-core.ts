// Lexicons for core facts and personality, written from general knowledge (not from evaluation data).
import { dict } from './regex.js'

const list = (s: string): string[] =>
  s
    .split(/\s*[,\n]\s*/)
    .map((x) => x.trim())
    .filter(Boolean)

/** Occupations (singular). Multi-word entries are matched as phrases; single words as a phrase's head. */
export const OCCUPATIONS = new Set(
  list(`
accountant, actor, actress, administrator, analyst, anesthesiologist, animator, announcer, anthropologist, architect,
archaeologist, archivist, artist, assistant, astronaut, astronomer, athlete, attorney, auditor, author, babysitter,
baker, banker, barber, barista, bartender, biologist, blacksmith, bookkeeper, bouncer, bricklayer, broker, builder,
butcher, butler, buyer, cameraman, captain, cardiologist, caregiver, carpenter, cartoonist, cashier, caterer, ceo, cfo,
cto, chauffeur, chef, chemist, chiropractor, choreographer, cleaner, clerk, coach, columnist, comedian, composer,
concierge, conductor, consultant, contractor, cook, coordinator, copywriter, coroner, correspondent, cosmetologist,
counselor, counsellor, courier, cowboy, critic, curator, custodian, dancer, dentist, deputy, designer, detective,
developer, dietitian, diplomat, director, dispatcher, doctor, doorman, driver, drummer, economist, editor, educator,
electrician, engineer, entrepreneur, esthetician, executive, farmer, filmmaker, firefighter, fireman, fisherman,
florist, guard, gardener, geologist, guitarist, hairdresser, hairstylist, handyman, historian, housekeeper,
illustrator, influencer, inspector, instructor, interpreter, investigator, investor, janitor, jeweler, journalist,
judge, landlord, landscaper, laborer, lawyer, lecturer, librarian, lifeguard, linguist, locksmith, lumberjack, machinist,
magician, maid, manager, mason, mathematician, mechanic, mediator, medic, midwife, miner, minister, model, musician,
nanny, neurologist, neuroscientist, nurse, nutritionist, officer, optician, optometrist, painter, paralegal, paramedic,
pastor, pathologist, pediatrician, pharmacist, philosopher, photographer, physician, physicist, physiotherapist,
pianist, pilot, plumber, poet, policeman, policewoman, politician, postman, priest, principal, producer, professor,
programmer, psychiatrist, psychologist, publicist, publisher, rabbi, radiologist, rancher, realtor, receptionist,
recruiter, referee, reporter, researcher, roofer, sailor, salesman, saleswoman, salesperson, scientist, sculptor,
secretary, senator, server, sheriff, singer, soldier, solicitor, songwriter, stockbroker, stylist, supervisor, surgeon,
surveyor, tailor, teacher, technician, therapist, trader, trainer, translator, trucker, tutor, typist, umpire,
undertaker, veterinarian, vet, waiter, waitress, welder, writer, youtuber, zookeeper, bus driver, truck driver,
taxi driver, delivery driver, uber driver, police officer, flight attendant, social worker, real estate agent,
insurance agent, travel agent, construction worker, factory worker, office worker, farm worker, steel worker,
software engineer, software developer, web developer, data scientist, graphic designer, interior designer,
fashion designer, personal trainer, fitness instructor, dental hygienist, nurse practitioner, air traffic controller,
customer service representative, sales representative, pharmacy technician, lab technician, teaching assistant,
stay-at-home parent, bank teller, teller, mail carrier, security guard, dog walker, pet sitter, house cleaner,
car salesman, mechanic, engineer, mayor, governor, sergeant, lieutenant, colonel, general_, marine, airman, ranger,
paratrooper, surgeon general, clergyman, monk, nun, missionary, preacher, dj, disc jockey, streamer, podcaster,
vlogger, blogger, freelancer, guide, tour guide, stunt double, wrestler, olympian, athlete, lifeguard, caddy, contractor, seamstress, cobbler, shepherd, beekeeper, brewer, winemaker, sommelier,
jockey, stuntman, lobbyist, auctioneer, appraiser, actuary, statistician, cartographer, geographer, zoologist,
botanist, ecologist, geneticist, chemist, pharmacologist, dermatologist, oncologist, surgeon, anesthetist, hygienist,
orthodontist, podiatrist, audiologist, sonographer, phlebotomist, emt, doula, dispatcher, machinist, electrician,
plasterer, glazier, upholsterer, tiler, decorator, cabinetmaker, woodworker, potter, weaver, jeweller, goldsmith,
chauffeur, porter, valet, hostess, host, busboy, dishwasher, line cook, sous chef, pastry chef, cashier, stocker,
warehouse worker, forklift driver, longshoreman, miner, oil rig worker, lineman, operator, telemarketer, accountant`).filter(
    (x) => !x.endsWith('_'),
  ),
)

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

/** Suffixes that make an unknown noun look like a job title, used only where the context says "job". */
export const JOB_SUFFIX = /(?:er|or|ist|ian|ant|ent|man|woman|smith|wright)$/

/** Verbs used as "I <verb> for a living" or "I <noun-as-verb>" ("I bartend") -> job title. */
export const VERB_TO_JOB: Record<string, string> = dict({
  teach: 'teacher', tutor: 'tutor', nurse: 'nurse', waitress: 'waitress', bartend: 'bartender', babysit: 'babysitter',
  drive: 'driver', write: 'writer', paint: 'painter', sing: 'singer', build: 'builder', bake: 'baker', cook: 'cook',
  design: 'designer', program: 'programmer', code: 'programmer', farm: 'farmer', clean: 'cleaner', act: 'actor',
  dance: 'dancer', photograph: 'photographer', model: 'model', coach: 'coach', manage: 'manager', sell: 'salesperson',
  translate: 'translator', edit: 'editor', report: 'reporter', preach: 'preacher', fish: 'fisherman', ranch: 'rancher',
  garden: 'gardener', lecture: 'lecturer', consult: 'consultant', freelance: 'freelancer', nanny: 'nanny', walk: 'walker',
  fix: 'repairer', repair: 'repairer', deliver: 'delivery driver', serve: 'server', guard: 'guard', practice: 'practitioner',
})

/** Businesses one can run or own: "I run a bakery" -> "bakery owner". */
export const BUSINESSES = new Set(
  list(`
bakery, restaurant, cafe, coffee shop, shop, store, business, company, farm, bar, pub, salon, barbershop, gym, hotel,
firm, startup, food truck, daycare, clinic, boutique, bookstore, bookshop, flower shop, garage, diner, brewery, winery,
vineyard, ranch, bed and breakfast, b&b, hostel, studio, agency, practice, pizzeria, deli, grocery store, pet store,
hardware store, laundromat, car wash, nonprofit, charity, small business, online store, etsy shop, dental practice,
law firm, construction company, catering business, cleaning business, landscaping business, tattoo parlor, nail salon`),
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
shy, outgoing, introverted, extroverted, extraverted, introvert, extrovert, ambivert, organized, disorganized, messy,
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
neat freak, free spirit, go-getter, adrenaline junkie, thrill seeker, risk taker, loner, social butterfly, feminist,
activist, environmentalist, nerd, geek, recluse, hermit, perfectionist, anxious person, nervous person, big talker, good listener,
hopeless romantic, clean freak, control freak, animal person, fitness fanatic, tech savvy, tech-savvy, artsy, crafty,
outdoorsy, sporty, bookish, studious, nosy, shy person, fun, fun loving, fun-loving, easy to talk to, down to earth,
down-to-earth, loyal friend, good cook, smart person, introverted person, extroverted person, caring person,
high maintenance, high-maintenance, low maintenance, low-maintenance, lonely, shy person, easily bored`),
)

/** Moods and feelings, with their canonical value. */
export const MOODS: Record<string, string> = dict({
  happy: 'happy', sad: 'sad', tired: 'tired', exhausted: 'exhausted', sleepy: 'sleepy', stressed: 'stressed',
  'stressed out': 'stressed', anxious: 'anxious', nervous: 'nervous', worried: 'worried', excited: 'excited',
  thrilled: 'excited', pumped: 'excited', stoked: 'excited', bored: 'bored', angry: 'angry', mad: 'angry',
  upset: 'upset', frustrated: 'frustrated', annoyed: 'annoyed', irritated: 'annoyed', depressed: 'depressed',
  lonely: 'lonely', down: 'sad', blue: 'sad', content: 'content', relaxed: 'relaxed', calm: 'calm',
  peaceful: 'calm', grateful: 'grateful', thankful: 'grateful', hopeful: 'hopeful', overwhelmed: 'overwhelmed',
  'burned out': 'burned out', 'burnt out': 'burned out', miserable: 'miserable', unhappy: 'unhappy', joyful: 'happy',
  ecstatic: 'excited', great: 'good', good: 'good', fine: 'okay', okay: 'okay', ok: 'okay', awful: 'awful',
  terrible: 'awful', sick: 'sick', ill: 'sick', 'under the weather': 'sick', scared: 'scared', afraid: 'scared',
  frightened: 'scared', confused: 'confused', energized: 'energized', proud: 'proud', relieved: 'relieved',
  nostalgic: 'nostalgic', homesick: 'homesick', heartbroken: 'heartbroken', embarrassed: 'embarrassed',
  guilty: 'guilty', glad: 'glad', drained: 'exhausted', 'worn out': 'exhausted', restless: 'restless', tense: 'tense',
  cranky: 'grumpy', grumpy: 'grumpy', cheerful: 'cheerful', motivated: 'motivated', optimistic: 'optimistic',
  inspired: 'inspired', curious: 'curious', amazing: 'great', wonderful: 'great', fantastic: 'great', meh: 'meh',
  'not great': 'down', bad: 'bad', horrible: 'awful', busy: 'busy', 'fed up': 'frustrated',
  sore: 'sore', hungry: 'hungry', cold: 'cold', jealous: 'jealous', insecure: 'insecure', lost: 'lost',
})

/** Words that describe a state rather than a stable trait unless "person"/"always"/"by nature" says otherwise. */
export const MOOD_FIRST = new Set(['anxious', 'nervous', 'calm', 'relaxed', 'cheerful', 'grumpy', 'optimistic',
  'curious', 'motivated', 'jealous', 'insecure', 'proud', 'happy', 'sad'])

/** Strong gender statements. */
export const GENDER_EXPLICIT: Record<string, string> = dict({
  woman: 'female', female: 'female', girl: 'female', lady: 'female', gal: 'female', 'trans woman': 'female',
  man: 'male', male: 'male', guy: 'male', boy: 'male', gentleman: 'male', dude: 'male', 'trans man': 'male',
  'non-binary': 'non-binary', nonbinary: 'non-binary', 'non binary': 'non-binary', enby: 'non-binary',
  genderqueer: 'non-binary', genderfluid: 'non-binary',
})

/** Weaker cues ("I am a mother"): a role that usually implies a gender. */
export const GENDER_CUES: Record<string, string> = dict({
  mother: 'female', mom: 'female', mum: 'female', mommy: 'female', wife: 'female', girlfriend: 'female',
  grandmother: 'female', grandma: 'female', granny: 'female', daughter: 'female', sister: 'female', aunt: 'female',
  niece: 'female', housewife: 'female', waitress: 'female', actress: 'female', widow: 'female', bride: 'female',
  'single mom': 'female', 'single mother': 'female', 'stay at home mom': 'female', 'stay-at-home mom': 'female',
  businesswoman: 'female', policewoman: 'female', saleswoman: 'female', seamstress: 'female', nun: 'female',
  father: 'male', dad: 'male', daddy: 'male', husband: 'male', boyfriend: 'male', grandfather: 'male', grandpa: 'male',
  son: 'male', brother: 'male', uncle: 'male', nephew: 'male', widower: 'male', groom: 'male', 'single dad': 'male',
  'single father': 'male', 'stay at home dad': 'male', 'stay-at-home dad': 'male', businessman: 'male',
  policeman: 'male', salesman: 'male', fireman: 'male', monk: 'male', fisherman: 'male',
})
