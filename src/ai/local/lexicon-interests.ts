// Interest lexicons, written from general knowledge (not from any evaluation data). Each entry maps a
// lower-case term to an interest category. Look-ups also try the singular form, so most entries are singular.
import { BREED_NAMES } from './breed-data.js'
import { FOOD_NAMES, GAMES_NAMES, INSTRUMENTS_NAMES, MUSIC_NAMES, SPORTS_NAMES } from './interest-data.js'
import { dict } from './regex.js'

const list = (s: string): string[] =>
  s
    .split(/\s*[,\n]\s*/)
    .map((x) => x.trim())
    .filter(Boolean)

const MUSIC = list(`
jazz, rock, pop, pop music, hip hop, hip-hop, rap, country, country music, classical, classical music, blues, metal,
heavy metal, punk, punk rock, reggae, r&b, rnb, r and b, r n b, soul, soul music, funk, disco, edm, techno, house music,
electronic music, folk, folk music, indie, indie rock, opera, gospel, k-pop, kpop, j-pop, salsa music, latin music,
alternative, alternative rock, grunge, emo, ska, bluegrass, dubstep, trance, swing, rock and roll, rock n roll,
classic rock, hard rock, soft rock, rockabilly, motown, oldies, big band, bossa nova, flamenco, reggaeton, trap music,
lo-fi, lofi, ambient music, new age music, show tunes, christian music, worship music, a cappella, instrumental music,
orchestral music, symphony, chamber music, baroque music, 80s music, 90s music, 70s music, 60s music, boy band,
smooth jazz, death metal, hardcore, synthwave, drum and bass, dance music, pop punk, americana, polka, mariachi,
afrobeat, afrobeats, dancehall, cumbia, bachata, fado, celtic music, world music, soundtrack, film score, music, song,
singing, karaoke, concert, live music, band, choir, vinyl, vinyl record, album, dj, djing, rapping, composing music,
songwriting, making music, music festival, orchestra, guitar, electric guitar, acoustic guitar, bass, bass guitar,
piano, keyboard, drum, drums, violin, viola, cello, double bass, saxophone, sax, trumpet, trombone, tuba, french horn,
flute, piccolo, clarinet, oboe, bassoon, harmonica, ukulele, banjo, mandolin, harp, accordion, organ, synthesizer,
xylophone, marimba, bagpipes, sitar, bongo, djembe, the beatles, beatles, elvis, elvis presley, michael jackson,
madonna, queen, taylor swift, beyonce, adele, drake, eminem, kanye west, rihanna, lady gaga, bruno mars, ed sheeran,
justin bieber, ariana grande, billie eilish, bts, coldplay, u2, the rolling stones, rolling stones, led zeppelin,
pink floyd, nirvana, metallica, ac/dc, guns n roses, bon jovi, bob dylan, bob marley, johnny cash, dolly parton,
garth brooks, frank sinatra, david bowie, whitney houston, mariah carey, celine dion, shakira, jay-z, kendrick lamar,
tupac, snoop dogg, mozart, beethoven, bach, chopin, vivaldi, tchaikovsky, abba, bee gees, the eagles, aerosmith,
green day, linkin park, foo fighters, red hot chili peppers, radiohead, oasis, pearl jam, imagine dragons, maroon 5,
one direction, the weeknd, katy perry, miley cyrus, lana del rey, harry styles, post malone, nicki minaj,
carrie underwood, shania twain, willie nelson, jimi hendrix, john lennon, freddie mercury, stevie wonder,
aretha franklin, ray charles, louis armstrong, miles davis, john coltrane, ella fitzgerald, nina simone, the doors,
black sabbath, the who, iron maiden, megadeth, blink 182, weezer, the killers, arctic monkeys, gorillaz, daft punk,
backstreet boys, spice girls, britney spears, kelly clarkson, alicia keys, usher, justin timberlake, dua lipa,
olivia rodrigo, bad bunny`)

const SPORTS = list(`
sport, soccer, football, american football, basketball, baseball, softball, tennis, golf, hockey, ice hockey,
field hockey, volleyball, beach volleyball, rugby, cricket, lacrosse, badminton, squash, racquetball, table tennis,
ping pong, pickleball, handball, water polo, swimming, running, jogging, sprinting, marathon, half marathon, triathlon,
cycling, biking, mountain biking, bmx, boxing, kickboxing, wrestling, mma, ufc, martial arts, karate, judo, jiu jitsu,
jiu-jitsu, taekwondo, kung fu, krav maga, fencing, archery, skiing, snowboarding, surfing, skateboarding, rollerblading,
roller skating, ice skating, skating, figure skating, climbing, rock climbing, bouldering, mountaineering, gymnastics,
track, track and field, cross country, diving, scuba diving, rowing, canoeing, kayaking, sailing, windsurfing,
kitesurfing, horseback riding, horse riding, equestrian, bowling, darts, billiards, pool, snooker, curling,
weightlifting, powerlifting, bodybuilding, lifting, lifting weights, crossfit, working out, workout, exercise,
exercising, fitness, gym, yoga, pilates, zumba, aerobics, spinning, nascar, racing, formula 1, formula one, f1,
car racing, motocross, nfl, nba, mlb, nhl, premier league, olympics, dodgeball, kickball, frisbee, ultimate frisbee,
disc golf, paintball, parkour, skydiving, bungee jumping, paragliding, wakeboarding, snorkeling, hunting sports,
golfing, the yankees, yankees, the lakers, lakers, red sox, the patriots, manchester united, real madrid, wimbledon,
super bowl`)

const FOOD = list(`
food, cuisine, dish, meal, snack, dessert, drink, beverage, pizza, pasta, spaghetti, lasagna, sushi, ramen, noodle,
taco, burrito, nacho, enchilada, quesadilla, burger, hamburger, cheeseburger, hot dog, fries, french fries, sandwich,
steak, chicken, fried chicken, wing, chicken wing, bbq, barbecue, rib, bacon, egg, pancake, waffle, cereal, oatmeal,
salad, soup, curry, rice, fried rice, dumpling, pho, pad thai, kebab, falafel, hummus, paella, fish and chips, seafood,
shrimp, lobster, crab, oyster, salmon, tuna, cheese, bread, cake, cupcake, cookie, brownie, pie, apple pie, donut,
doughnut, ice cream, chocolate, candy, sweet, pastry, croissant, muffin, bagel, popcorn, chip, pretzel, peanut butter,
nutella, fruit, apple, banana, strawberry, blueberry, raspberry, grape, mango, pineapple, watermelon, peach, cherry,
lemon, lime, oranges, avocado, vegetable, veggie, broccoli, carrot, potato, mashed potatoes, tomato, spinach, kale,
mushroom, onion, garlic, spicy food, junk food, fast food, healthy food, organic food, comfort food, street food,
home cooking, italian food, mexican food, chinese food, japanese food, thai food, indian food, french food, greek food,
korean food, vietnamese food, mediterranean food, soul food, cajun food, southern food, vegan food, vegetarian food,
coffee, tea, green tea, espresso, latte, cappuccino, hot chocolate, milk, milkshake, smoothie, juice, orange juice,
soda, coke, pepsi, lemonade, wine, red wine, white wine, beer, craft beer, whiskey, whisky, bourbon, vodka, tequila,
rum, gin, cocktail, margarita, champagne, sake, cider, kombucha, meat, pork, beef, lamb, turkey, ham, sausage, salami,
pepperoni, veal, venison, duck breast, mac and cheese, macaroni and cheese, grilled cheese, peanut butter and jelly,
cheesecake, tiramisu, pudding, gelato, frozen yogurt, yogurt, honey, nut, almond, peanut, cashew, olive, pickle,
kimchi, tofu, dim sum, sauce, hot sauce, bbq sauce, vegan, vegetarian, pescatarian, keto, paleo, gluten free,
gluten-free, plant based, plant-based, kosher, halal, brunch, breakfast, dinner, lunch, candy bar, chocolate cake,
chocolate chip cookie, caramel, vanilla, cinnamon roll, gummy bear, licorice, jelly bean, marshmallow, s'more, pretzel`)

const BOOKS = list(`
book, reading, novel, fiction, non-fiction, nonfiction, poetry, poem, literature, classic literature, mystery novel,
mystery, thriller, romance novel, fantasy, fantasy novel, science fiction, sci-fi, scifi, comic, comic book,
graphic novel, manga, magazine, newspaper, biography, autobiography, memoir, history book, self help, self-help book,
audiobook, short story, crime novel, detective story, harry potter, the lord of the rings, lord of the rings,
the hobbit, twilight, the hunger games, hunger games, stephen king, j.k. rowling, jk rowling, tolkien, jane austen,
shakespeare, charles dickens, agatha christie, mark twain, ernest hemingway, hemingway, george orwell, edgar allan poe,
dr seuss, nicholas sparks, james patterson, john grisham, dan brown, neil gaiman, terry pratchett, isaac asimov,
ray bradbury, tolstoy, dostoevsky, the bible, bible, creative writing, journaling, library, bookstore,
young adult novel, ya novel`)

const MOVIES_TV = list(`
movie, film, cinema, the movies, tv, television, tv show, show, series, tv series, netflix, hulu, hbo, disney,
disney movie, pixar, marvel, marvel movie, anime, cartoon, animation, documentary, sitcom, reality tv, reality show,
soap opera, drama, comedy, stand-up comedy, stand up comedy, horror, horror movie, horror film, action movie,
romantic comedy, rom-com, rom com, romcom, western, musical, theater, theatre, broadway, play, star wars, star trek,
game of thrones, the office, breaking bad, stranger things, the simpsons, simpsons, family guy, south park, doctor who,
the walking dead, walking dead, grey's anatomy, supernatural, sherlock, the sopranos, seinfeld, true crime, youtube,
binge watching, old movie, classic movie, foreign film, indie film, k-drama, kdrama, bollywood, hallmark movie,
james bond, the godfather, jurassic park, batman, superman, spider-man, spiderman, avengers, the avengers,
sesame street, scooby doo, spongebob, game show, talk show, crime show, cooking show, sci-fi movie, film noir`)

const PETS = list(`
pet, dog, puppy, cat, kitten, kitty, fish, goldfish, betta fish, bird, parrot, parakeet, budgie, cockatiel, canary,
hamster, gerbil, guinea pig, rabbit, bunny, mouse, rat, ferret, chinchilla, hedgehog, turtle, tortoise, snake, python,
lizard, gecko, iguana, bearded dragon, frog, horse, pony, donkey, goat, pig, cow, sheep, duck, llama, alpaca, labrador,
golden retriever, german shepherd, poodle, beagle, bulldog, pug, husky, chihuahua, dachshund, corgi, terrier,
pit bull, pitbull, rottweiler, shih tzu, yorkie, border collie, collie, great dane, doberman, maltese, maine coon,
tabby, lab, black lab, animal, wildlife, lion, tiger, elephant, giraffe, dolphin, whale, penguin, monkey, bear, panda,
koala, wolf, fox, owl, eagle, shark, otter, sloth, zebra, kangaroo, butterfly, bee, unicorn, dinosaur, cheetah,
leopard, deer`)

const TRAVEL = list(`
travel, traveling, travelling, trip, road trip, vacation, cruise, beach, the beach, mountain, the mountains, ocean,
the ocean, sea, island, lake, backpacking, sightseeing, exploring new places, new places, new cities, abroad, overseas,
europe, asia, africa, south america, north america, australia, antarctica, the caribbean, caribbean, hawaii, paris,
london, rome, tokyo, new york, disneyland, disney world, national park, park, the park, theme park, amusement park,
zoo, the zoo, aquarium, countryside, road tripping, world travel, flying`)

const HOBBIES = list(`
hobby, hiking, camping, fishing, hunting, gardening, painting, drawing, sketching, knitting, crocheting, sewing,
quilting, embroidery, photography, woodworking, pottery, ceramics, sculpting, dancing, ballet, salsa dancing,
ballroom dancing, tap dancing, writing, blogging, vlogging, video game, gaming, game, board game, card game, chess,
checkers, puzzle, jigsaw puzzle, crossword puzzle, crossword, sudoku, cards, poker, lego, scrapbooking,
bird watching, birdwatching, astronomy, stargazing, meditation, shopping, thrifting, volunteering, walking, long walk,
walk, bike ride, craft, arts and crafts, diy, calligraphy, origami, magic, magic trick, cooking, baking, grilling,
coding, programming, genealogy, antique, car, classic car, fixing cars, tinkering, cosplay, dungeons and dragons, d&d,
dnd, tabletop game, role playing game, rpg, ttrpg, nature, the outdoors, outdoors, being outdoors,
being outside, plant, houseplant, bonsai, fashion, makeup, nail art, tattoo, podcast, learning languages, partying,
clubbing, going out, gambling, betting, sports betting,
socializing, art, museum, computer, technology, tech, beekeeping, home brewing, wine tasting, model train,
model building, rc car, drone, metal detecting, geocaching, foraging, canning, birding, stamp, coin, stamp collecting,
coin collecting, collecting, sunbathing, people watching, playing games, minecraft, fortnite, pokemon, nintendo,
playstation, xbox, the sims, world of warcraft, call of duty, zelda, mario`)

const OTHER = list(`
red, blue, green, yellow, orange, purple, pink, black, white, gray, grey, brown, teal, turquoise, navy blue, maroon,
beige, gold, silver, violet, lavender, spring, summer, fall, autumn, winter, christmas, halloween, thanksgiving, easter,
new year, hanukkah, diwali, valentine's day, fourth of july, math, mathematics, science, history, biology, chemistry,
physics, geography, english, economics, psychology, philosophy, sociology, computer science, spanish, french, german,
italian, japanese, chinese, mandarin, korean, russian, portuguese, arabic, latin, sign language, politics, religion,
space, the environment, social media, facebook, instagram, twitter, tiktok, reddit, the internet, internet, shoes,
clothes, jewelry, flower, sunset, rain, snow`)

/** Category of each known term (lower case). */
export const CATEGORY_OF = new Map<string, string>()
const add = (terms: string[], cat: string) => {
  for (const t of terms) if (!CATEGORY_OF.has(t)) CATEGORY_OF.set(t, cat)
}
// Order matters for terms listed twice: the first category wins.
add(MUSIC, 'music')
add(SPORTS, 'sports')
add(
  PETS.filter((t) => t !== 'fish'),
  'pets',
)
add(FOOD, 'food')
add(BOOKS, 'books')
add(MOVIES_TV, 'movies_tv')
add(TRAVEL, 'travel')
add(HOBBIES, 'hobbies')
add(OTHER, 'other')
// WordNet's interest words (interest-data.ts, built by scripts/build-vocabularies.mjs), where the hand lists are silent
const wordNetNames = (names: string): string[] => names.split(/[|\n]/).filter(Boolean)
add(wordNetNames(MUSIC_NAMES), 'music')
add(wordNetNames(INSTRUMENTS_NAMES), 'music')
add(wordNetNames(SPORTS_NAMES), 'sports')
add(wordNetNames(FOOD_NAMES), 'food')
add(wordNetNames(GAMES_NAMES), 'hobbies')
// WordNet's dog and cat breeds (breed-data.ts): pets too, as "labrador" and "tabby" of the hand list are
const BREEDS = wordNetNames(BREED_NAMES)
add(BREEDS, 'pets')
CATEGORY_OF.set('fish', 'food') // "I love fish" is food; "I have a fish" goes through the pet rule.

/** Pets (animals people keep). Used by the "I have a dog" rule. */
export const PET_WORDS = new Set([...PETS.slice(0, PETS.indexOf('animal')), ...BREEDS])
export const ANIMAL_WORDS = new Set([...PETS, ...BREEDS])

/** Musical instruments: "I play the guitar" is music. */
export const INSTRUMENTS = new Set([
  ...MUSIC.slice(MUSIC.indexOf('guitar'), MUSIC.indexOf('the beatles')),
  ...wordNetNames(INSTRUMENTS_NAMES),
])

/** Terms that contain " and " and must not be split as lists. */
export const AND_TERMS = [...CATEGORY_OF.keys()].filter((t) => t.includes(' and '))

/** "favorite X" head words -> category. */
export const FAVORITE_HEADS: Record<string, string> = dict({
  food: 'food',
  meal: 'food',
  dish: 'food',
  snack: 'food',
  dessert: 'food',
  drink: 'food',
  beverage: 'food',
  cuisine: 'food',
  fruit: 'food',
  vegetable: 'food',
  candy: 'food',
  restaurant: 'food',
  pizza: 'food',
  treat: 'food',
  cereal: 'food',
  ice: 'food',
  breakfast: 'food',
  dinner: 'food',
  lunch: 'food',
  beer: 'food',
  wine: 'food',
  coffee: 'food',
  tea: 'food',
  soda: 'food',
  cocktail: 'food',
  flavor: 'food',
  cake: 'food',
  cookie: 'food',
  band: 'music',
  singer: 'music',
  song: 'music',
  artist: 'music',
  genre: 'music',
  album: 'music',
  musician: 'music',
  music: 'music',
  rapper: 'music',
  instrument: 'music',
  composer: 'music',
  group: 'music',
  tune: 'music',
  book: 'books',
  author: 'books',
  novel: 'books',
  writer: 'books',
  poet: 'books',
  poem: 'books',
  series: 'books',
  movie: 'movies_tv',
  film: 'movies_tv',
  show: 'movies_tv',
  tv: 'movies_tv',
  actor: 'movies_tv',
  actress: 'movies_tv',
  director: 'movies_tv',
  character: 'movies_tv',
  cartoon: 'movies_tv',
  anime: 'movies_tv',
  sitcom: 'movies_tv',
  channel: 'movies_tv',
  youtuber: 'movies_tv',
  comedian: 'movies_tv',
  superhero: 'movies_tv',
  sport: 'sports',
  team: 'sports',
  player: 'sports',
  athlete: 'sports',
  exercise: 'sports',
  workout: 'sports',
  animal: 'pets',
  pet: 'pets',
  dog: 'pets',
  breed: 'pets',
  cat: 'pets',
  bird: 'pets',
  place: 'travel',
  city: 'travel',
  country: 'travel',
  destination: 'travel',
  vacation: 'travel',
  trip: 'travel',
  beach: 'travel',
  spot: 'travel',
  state: 'travel',
  island: 'travel',
  park: 'travel',
  holiday: 'other',
  hobby: 'hobbies',
  activity: 'hobbies',
  pastime: 'hobbies',
  game: 'hobbies',
  thing: 'hobbies',
  videogame: 'hobbies',
  toy: 'other',
  color: 'other',
  season: 'other',
  subject: 'other',
  class: 'other',
  number: 'other',
  day: 'other',
  month: 'other',
  flower: 'other',
  car: 'other',
  brand: 'other',
  quote: 'other',
  word: 'other',
  language: 'other',
  store: 'other',
  shop: 'other',
  website: 'other',
  app: 'other',
})

/** Names of a pastime said as another: a child's league plays baseball ("my son's little league team"). */
export const ACTIVITY_ALIASES: ReadonlyMap<string, string> = new Map([
  ['little league', 'baseball'],
  ['t-ball', 'baseball'],
  ['tee ball', 'baseball'],
  ['dnd', 'd&d'],
])

/** Agent nouns that describe a pastime: "I am an avid reader" -> books: reading. */
export const HOBBY_AGENTS: Record<string, [string, string]> = dict({
  'party animal': ['hobbies', 'partying'],
  reader: ['books', 'reading'],
  bookworm: ['books', 'reading'],
  runner: ['sports', 'running'],
  jogger: ['sports', 'jogging'],
  swimmer: ['sports', 'swimming'],
  hiker: ['hobbies', 'hiking'],
  cyclist: ['sports', 'cycling'],
  biker: ['sports', 'biking'],
  gamer: ['hobbies', 'video games'],
  golfer: ['sports', 'golf'],
  surfer: ['sports', 'surfing'],
  skier: ['sports', 'skiing'],
  snowboarder: ['sports', 'snowboarding'],
  climber: ['sports', 'climbing'],
  kayaker: ['sports', 'kayaking'],
  knitter: ['hobbies', 'knitting'],
  traveler: ['travel', 'traveling'],
  traveller: ['travel', 'traveling'],
  foodie: ['food', 'food'],
  'movie buff': ['movies_tv', 'movies'],
  'film buff': ['movies_tv', 'movies'],
  cinephile: ['movies_tv', 'movies'],
  'music lover': ['music', 'music'],
  'animal lover': ['pets', 'animals'],
  'dog lover': ['pets', 'dog'],
  'dog person': ['pets', 'dog'],
  'cat lover': ['pets', 'cat'],
  'cat person': ['pets', 'cat'],
  'coffee lover': ['food', 'coffee'],
  // the names fans of one artist or work call themselves: "a huge swiftie" likes Taylor Swift
  swiftie: ['music', 'Taylor Swift'],
  potterhead: ['books', 'Harry Potter'],
  trekkie: ['movies_tv', 'Star Trek'],
  whovian: ['movies_tv', 'Doctor Who'],
  directioner: ['music', 'One Direction'],
  belieber: ['music', 'Justin Bieber'],
  deadhead: ['music', 'Grateful Dead'],
  parrothead: ['music', 'Jimmy Buffett'],
  arianator: ['music', 'Ariana Grande'],
  brony: ['movies_tv', 'My Little Pony'],
  'coffee addict': ['food', 'coffee'],
  'nature lover': ['hobbies', 'nature'],
  'history buff': ['other', 'history'],
  'sports fan': ['sports', 'sports'],
  'gym rat': ['sports', 'gym'],
  'bird watcher': ['hobbies', 'bird watching'],
  birder: ['hobbies', 'bird watching'],
  angler: ['hobbies', 'fishing'],
  collector: ['hobbies', 'collecting'],
  'book lover': ['books', 'reading'],
  'wine lover': ['food', 'wine'],
  'beer lover': ['food', 'beer'],
  audiophile: ['music', 'music'],
  gardener: ['hobbies', 'gardening'],
  photographer: ['hobbies', 'photography'],
  baker: ['hobbies', 'baking'],
  cook: ['hobbies', 'cooking'],
  painter: ['hobbies', 'painting'],
  dancer: ['hobbies', 'dancing'],
  singer: ['music', 'singing'],
  writer: ['hobbies', 'writing'],
  musician: ['music', 'music'],
  artist: ['hobbies', 'art'],
  blogger: ['hobbies', 'blogging'],
  'video gamer': ['hobbies', 'video games'],
  volunteer: ['hobbies', 'volunteering'],
  camper: ['hobbies', 'camping'],
  hunter: ['hobbies', 'hunting'],
  skater: ['sports', 'skating'],
  skateboarder: ['sports', 'skateboarding'],
  'marathon runner': ['sports', 'running'],
})

/** The interest category of a kind of title: "(the) show", "(a great) book", "(the band) queen". */
export const TITLE_KINDS: Record<string, string> = {
  show: 'movies_tv',
  'tv show': 'movies_tv',
  series: 'movies_tv',
  sitcom: 'movies_tv',
  movie: 'movies_tv',
  film: 'movies_tv',
  anime: 'movies_tv',
  book: 'books',
  novel: 'books',
  manga: 'books',
  game: 'hobbies',
  'video game': 'hobbies',
  song: 'music',
  album: 'music',
  band: 'music',
  podcast: 'other',
}
