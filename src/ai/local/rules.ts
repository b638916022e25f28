// The registry of the local extractor's rules: every pattern or function that produces a value has a stable id and a
// short description here, in one table. A rule passes its id with each value it finds (see Acc), so a traced
// extraction (`profiler extract --explain`) names the rule behind every value; `profiler extract --list-rules`
// prints this table. Ids are `<section>.<name>`; keep them stable, since they appear in bug reports.
// Quoted forms are examples in the normalised text the rules read: lower case, "I'm" as "i am".

const RULES = {
  // core_info.name
  'name.my-name-is': '"my name is X", "my full name is X", "name\'s X"',
  'name.call-me': '"call me X", "I go by X", "everyone calls me X" (first name only)',
  'name.here': '"alan here", "hey girl, chelsea here": a first name compromise knows, opening a message',
  'name.i-am': '"hi, I am X", "this is X": a word that reads as a person\'s name',
  'name.third-person': 'the name opening a text about one person ("Maria is a nurse ...")',
  'name.addressed': 'the name the other speakers of a conversation greet the person by ("Hey Caroline!") (weak)',
  // core_info.age
  'age.born-in': '"I was born in 1990": age from the reference year',
  'age.years-old': '"I am 34 years old", "I am 34 yrs of age"',
  'age.year-old': '"I am a 34-year-old ..."',
  'age.bare-end': '"I am 34" at the end of a clause',
  'age.turned': '"I just turned 40"',
  'age.my-age-is': '"my age is 34", "I am aged 34"',
  'age.i-comma-n': '"i, 34, ...", "Maria (34), ..." at the start of a clause',
  'age.almost': '"I am almost / about 40" (weak)',
  'age.turn': '"I am turning 40", "I turn 40 tomorrow": a year less until that birthday (weak)',
  'age.adjective-years-old': '"I am a male 45 year old"',
  'age.my-n-year-old-body': '"my 56 year old knees"',
  'age.bare': '"I am 45 now", "I am only 24, so": a number after "I am" that is no measure',
  'age.comma-age': '", age 60"',
  'age.birthday': '"my 40th birthday", plus the years since when it says "ten years ago" (weak)',
  'age.at-n': '"at 24 I ..." at the start of a clause (weak)',
  'age.being-n': '"being 13 and all" (weak)',
  'age.turning': '"turning 40 is ..." at the start of a clause: a year less (weak)',
  // core_info.gender
  'gender.identify-as': '"my gender is X", "I identify as X"',
  'gender.i-am-a': '"I am a woman", "I am a young man", "I am female"',
  'gender.as-a': '"as a woman", "as a mother" (a family role is weak evidence)',
  'gender.cue': '"I am a mother", "I am a grandpa": a gendered role (weak)',
  'gender.third-person': 'the pronouns of a text about one person: more she/her or he/him',
  'gender.identity': '"I am non-binary", "trans man here", "I identify as genderfluid": kept in the person\'s words',
  // diet (interests.food), allergies, conditions and pronouns (undated high-importance memories)
  'diet.i-am': '"I am pescatarian", "I\'m vegan now"',
  'diet.bare': '"pescatarian here", "vegan btw": a diet said by itself',
  'diet.follow': '"I follow a keto diet", "I am on a low-carb diet"',
  'diet.kosher-halal': '"I keep kosher", "I only eat halal"',
  'diet.no-food': '"I don\'t eat pork" -> "no pork" (weaker)',
  'diet.no-longer': '"I am not vegan anymore", "I stopped being vegetarian": removes the diet',
  'health.allergic-to': '"I am allergic to tree nuts", "allergic to cats": a memory "is allergic to X"',
  'health.allergy': '"I have a severe peanut allergy": a memory "is allergic to peanut"',
  'health.condition': '"I have asthma", "type 1 diabetic here", "I live with ADHD": a memory "has X"',
  'identity.pronouns': '"my pronouns are they/them", "she/they" said by itself: a memory "uses X pronouns"',
  // core_info.location
  'location.live-in': '"I live in X", "I am based in X", "I reside near X"',
  'location.we-live-in': '"we live in X", "my family and I live in X": a place the lexicon knows (0.75)',
  'location.never-been-outside': '"I have never been outside of X"',
  'location.moved-to': '"I moved to X", "I moved from Y to X", "I just relocated to X"',
  'location.am-from': '"I am (originally) from X"',
  'location.come-from': '"I come from X"',
  'location.a-x-from': '"I am a <description> from X"',
  'location.my-city-is': '"my hometown / city is X"',
  'location.grew-up-in': '"I grew up in X", "I was raised in X" (weak)',
  'location.moved-from': '"I moved here from X", "I came from X", with no place moved to (weak)',
  'location.born-in': '"I was born in X" (weak)',
  'location.am-in': '"I am (now) in X": only what reads as a place',
  'location.here-in': '"here in X"',
  'location.hello-from': '"hello from X"',
  'location.where-i-live': '"X is where I live"',
  'location.we-are-from': '"we are from X"',
  'location.never-left': '"I have never left X"',
  'location.job-in':
    '"I am Chiamaka, 23, a software engineer in Lagos", "I am a teacher based in Leeds", ' +
    '"I work as a nurse in Nairobi"',
  'location.job-at-place-in': '"I am a nurse at a clinic in Leeds": where the workplace is (weak)',
  'location.work-at-in': '"I work at a clinic in Leeds", "I work for a bank in Lisbon": a known place only (weak)',
  'location.been-in-for':
    '"I have been in Toronto for two years now", "been here in Leeds since 2019": a stay of months or more, ' +
    'not a trip (weak)',
  'location.working-from': '"working from Lisbon these days", "I work remotely from Lisbon": a known place only (weak)',
  'location.back-home-in': '"back home in Manila", "I miss my family back home in Manila" (weak)',
  // core_info.occupation (and interests for pastime nouns: "I am an avid reader")
  'occupation.studying-to-be': '"I am studying to become a nurse" -> student (aspiring nurse)',
  'occupation.want-to-be':
    '"I want to be a lawyer", "I am going to be a nurse", "my dream is to become X" -> aspiring X (weak)',
  'occupation.work-as': '"I work as a X", "I have been working at Y as a X" (a pastime noun gives an interest)',
  'occupation.my-job-is': '"my job / profession is X"',
  'occupation.by-profession': '"I am a X by profession / trade"',
  'occupation.retired': '"I am retired", "I retired"',
  'occupation.unemployed': '"I am unemployed / out of work"',
  'occupation.job-seeker': '"I am looking for a job"',
  'occupation.self-employed': '"I am self-employed"',
  'occupation.military': '"I am / serve in the army" -> military (army)',
  'occupation.i-am-a':
    '"I am a nurse", "I have always been a teacher"; a pastime noun ("an avid reader") gives an interest',
  'occupation.school': '"I am in college", "I attend high school", "doing my masters" -> student',
  'occupation.coach': '"I coach swimming" -> swimming coach (and the sport as an interest)',
  'occupation.professionally': '"I am a tennis player professionally"',
  'occupation.teach': '"I teach (math)" -> (math) teacher',
  'occupation.business': '"I run / own / manage a bakery" -> bakery owner / manager',
  'occupation.for-a-living': '"I drive trucks for a living" -> truck driver',
  'occupation.noun-verb': '"I bartend", "I tutor", "I nanny"',
  'occupation.work-at': '"I work at X" -> works at X (weak)',
  'occupation.where-i-work': '"the museum where I work": works at the museum',
  'occupation.got-a-job': '"I got a job as a X" -> X; "... at Y" -> works at Y',
  'occupation.used-to-be': '"I used to be a X" -> former X, when nothing else is known (weak)',
  'occupation.promoted-to': '"I just got promoted to head chef": the new job, surer than the old one',
  'occupation.my-students': '"my students were wild today" -> teacher, when no job is named (weak)',
  // interests
  'interest.my-favorite-is': '"my favorite food is X", "my favorite thing to do is X"',
  'interest.is-my-favorite': '"X is my favorite (band)"',
  'interest.is-my-passion': '"X is my passion / hobby / guilty pleasure", "my hobby is X"',
  'interest.love': '"I love / adore / live for X"',
  'interest.like': '"I like / enjoy / dig / have a soft spot for X"',
  'interest.am-passionate-about': '"I am obsessed with / crazy about / passionate about X"',
  'interest.am-into': '"I am into / fond of / a big fan of X"',
  'interest.pet-have-a': '"I have two cats (and a dog)": pets counted after "have / own / adopted"',
  'interest.pet-have': '"I have / rescued / foster a (young) X" (a pet word)',
  'interest.pet-lives-with-me': '"two cats live with me"',
  'interest.pet-have-pet-x': '"I have a pet X"',
  'interest.pet-my': '"my (old) dog" (weak)',
  'interest.pet-mention': '"can you watch my cats?", "i can not leave my cats alone": a pet named in passing (0.6)',
  'interest.play': '"I play X": instruments -> music, games and sports',
  'interest.listen-to': '"I listen to X" -> music',
  'interest.watch': '"I watch X" -> movies/tv or sports',
  'interest.watch-title': '"been watching The Bear": a title written as one -> movies/tv (weak)',
  'interest.read': '"I read (X)" -> books',
  'interest.collect': '"I collect X" -> collecting X',
  'interest.eat-drink': '"I eat / drink X" -> food (weak)',
  'interest.go': '"I go hiking", "I go to the movies"',
  'interest.do': '"I do yoga": known sports and hobbies only',
  'interest.activity-verb': '"I hike", "I knit", "I paint landscapes": a pastime verb',
  'interest.can-do': '"I can sew", "I know how to surf"',
  'interest.have-been-doing': '"I have been knitting"',
  'interest.training-for': '"I am training for a marathon" -> running',
  'interest.relax-by': '"I relax by knitting", "to unwind I paint"',
  'interest.time-with-family': '"I love spending time with my family"',
  'interest.volunteer-at': '"I volunteer at the animal shelter"',
  'interest.read-about': '"I read books about psychology" -> books: psychology',
  'interest.grow': '"I grow tomatoes" -> gardening',
  'interest.saw-in-concert': '"I saw X in concert" -> music: X',
  'interest.take-lessons': '"I take piano lessons"',
  'interest.learning': '"I am learning (to) X"',
  'interest.took-up': '"I took up / got into X"',
  'interest.spend-time': '"I spend my free time (doing) X"',
  'interest.visit': '"I have been to X", "I love visiting X" -> travel',
  'interest.diet': '"I am vegan / vegetarian / keto" -> food',
  'interest.fan': '"I am a huge X fan / lover / buff"',
  'interest.taught-activity': '"a swim coach", "a yoga instructor": the activity taught',
  'interest.play-title': '"been replaying Baldur\'s Gate": a title written with capitals that no lexicon knows (0.6)',
  'interest.out-doing': '"most Saturdays I am out bouldering": a known sport or hobby',
  'interest.nothing-beats': '"nothing beats a bowl of pho": a known food, sport, game, ... (not "other")',
  'interest.wish': '"I would love to visit Japan", "I want to learn guitar", "I am going to start piano" (weak)',
  // personality
  'personality.consider-myself': '"I consider myself / tend to be / would describe myself as X"',
  'personality.people-say': '"people say I am X", "my friends call me X", "my dad says I am X" (weak)',
  'personality.activist': '"I am an animal rights activist"',
  'personality.social': '"I love meeting new people" -> social',
  'personality.lonely': '"I do not have many friends" -> lonely (weak)',
  'personality.trait-marked': '"I am a shy person", "I am always shy", "I can be stubborn"',
  'personality.mood': '"I am tired today", "I feel happy" -> mood',
  'personality.informal-mood':
    '"ugh, worst week ever" -> frustrated, "best day ever" -> happy: a whole clause; "ugh" alone -> annoyed (weak)',
  'personality.am-trait': '"I am shy and organized"',
  'personality.afraid-of': '"I am afraid of X" -> a topic to avoid (weak)',
  // memories
  'memory.family-event': '"my son was born ...", "my father passed away ..."',
  'memory.past-event': 'a past-tense event ("I graduated in 2015", "we got married"), importance from its words',
  'memory.used-to': '"I used to X" (low importance)',
  'memory.expecting': '"we are expecting twins", "I am pregnant": dated at the time said',
  'memory.under-way': '"I am getting a divorce", "we are moving to Denver": a life event under way, dated when said',
  'memory.dated-plan': '"I am getting married next June": a dated milestone not in the past tense',
  'memory.lasting':
    '"I have worked as a nurse for 15 years": something done for a while up to now (no date: a duration is none)',
  'memory.has': '"I have two jobs", "I have no kids": what the person has (undated, low importance)',
  'memory.habit': '"I stay at home", "I drive a big truck": a habit in the present (undated, low importance)',
  'memory.is':
    '"I am in remission", "I am an old man": what the person is, when no field rule read it (low importance)',
  'memory.likes': '"I like to go to the playground with friends": a liking no interest rule places (undated, low)',
  'memory.ongoing': '"I am working on a robot": something the person is in the middle of (undated, low importance)',
  'memory.goal': '"I want to go to culinary school" -> "wants to go to culinary school" (0.5, undated, low importance)',
  'memory.languages':
    '"I speak English and French", "I am fluent in German", "I do not speak French" (undated, medium importance)',
  'memory.faith':
    '"I am a Buddhist", "I was raised Catholic", "I do not believe in God" (a known faith; undated, medium importance)',
  'memory.never-done': '"I have never been to Spain" -> "has never been to Spain" (undated, low importance)',
  'memory.kin': '"my sister went there" -> "has a sister": a relative named in passing (0.5, undated, low importance)',
  'memory.family-fact': '"my son is in junior high" -> "their son is in junior high" (undated, low importance)',
  // preferences.conversation_style
  'style.concise': '"keep it short", "short answers", "be brief"',
  'style.detailed': '"detailed answers", "in detail", "step by step"',
  'style.direct': '"be direct", "no fluff", "get to the point"',
  'style.casual': '"casual tone", "keep it chill", "talk to me like a friend"',
  'style.formal': '"formal tone", "be professional"',
  'style.humorous': '"playful tone", "make me laugh"',
  'style.simple': '"plain language", "no jargon", "explain like I am five"',
  'style.technical': '"technical details", "do not dumb it down"',
  'style.supportive': '"gentle tone", "be patient with me"',
  'style.no-rambling': '"do not ramble / waffle" -> concise',
  // preferences.topics_to_avoid
  'avoid.do-not-talk-about': '"please do not talk / ask me about X"',
  'avoid.let-us-not': '"let us not talk about X"',
  'avoid.rather-not': '"I would rather not discuss X"',
  'avoid.prefer-not-to': '"I would prefer not to talk about X"',
  'avoid.do-not-want-to-talk': '"I do not like to talk about X"',
  'avoid.do-not-want-to-discuss': '"I do not want to discuss X"',
  'avoid.hate-talking-about': '"I hate talking about X"',
  'avoid.please-avoid': '"please avoid (talking about) X"',
  'avoid.sensitive-topic': '"X is off limits / a sensitive topic / a sore subject"',
  'avoid.no-talk-about': '"no talk / jokes about X"',
  'avoid.not-comfortable': '"I am not comfortable talking about X"',
  'avoid.stay-away-from': '"please stay away from / skip X"',
  'avoid.faint-at': '"I get queasy at the sight of X" (weak)',
  'avoid.makes-me-sad': '"X makes me anxious / sad" (weak)',
  // negations: removals, and dislikes as topics to avoid
  'negation.no-longer-trait': '"I am not shy anymore", "I am no longer lazy" -> removes the trait',
  'negation.verb-anymore': '"I do not like jazz anymore", "I no longer play X" -> removes the interest',
  'negation.stopped': '"I stopped / quit / gave up X" -> removes the interest',
  'negation.not-into': '"I am no longer into X" removes; "I am not into X" is a dislike',
  'negation.not-my-favorite': '"X is no longer my favorite" -> removes the interest',
  'negation.dislike': '"I hate / do not like X": removes a listed interest, otherwise a topic to avoid (weak)',
  'negation.used-to-not-anymore': '"I used to love X, but not anymore" -> removes the interest',
  // "key: value" lines of a bio
  'field.name': '"Name: X"',
  'field.age': '"Age: 34"',
  'field.gender': '"Gender: female", "Sex: m"',
  'field.location': '"Location / City / Hometown: X"',
  'field.occupation': '"Job / Occupation: X"',
  'field.interests': '"Hobbies / Interests / Likes: X, Y"',
  'field.dislikes': '"Dislikes / Pet peeves: X" -> topics to avoid',
  'field.favorite': '"Music: X", "Favorite food: Y"',
  // whole text
  'language.detected': 'the language of the text (franc), when detected',
} as const satisfies Record<string, string>

export type RuleId = keyof typeof RULES

export interface RuleInfo {
  id: RuleId
  /** The id's first part: name, age, gender, location, occupation, interest, personality, memory, style, avoid, ... */
  section: string
  description: string
}

/** Every rule, in the registry's order (grouped by section). */
export const RULE_LIST: readonly RuleInfo[] = Object.entries(RULES).map(([id, description]) => ({
  id: id as RuleId,
  section: id.slice(0, id.indexOf('.')),
  description,
}))

export function ruleDescription(id: RuleId): string {
  return RULES[id]
}
