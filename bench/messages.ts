// The ~20-token messages of the cost benches, written for them (not from the development data).

export const SINGLES = [
  "I'm a nurse in Leeds and on my days off I go wild swimming in the Dales with friends.",
  "My name is Tomasz, I'm 41, and I restore old motorbikes in my garage in Gdansk.",
  'I just moved to Austin for a new job as a data analyst and I already miss the ocean.',
  "Honestly I can't stand small talk about the weather, so please keep our chats short and direct.",
  "I've been learning the cello for two years and I practise Bach suites every morning before work.",
  'We adopted a rescue greyhound called Pepper last spring and she sleeps on my feet every night.',
  "I teach chemistry at a secondary school in Cork and coach the girls' hockey team on Saturdays.",
  "I'm vegetarian, I love cooking spicy Sichuan food, and I grow my own chillies on the balcony.",
  'I retired from the railways in 2019 and now I volunteer at the local bird sanctuary three days a week.',
  "I'm feeling pretty anxious today because my thesis defence is on Friday and my slides aren't finished.",
  'My favourite novels are by Ursula Le Guin, and I reread The Dispossessed every couple of years.',
  'I work nights as a paramedic in Glasgow, so I usually sleep until two in the afternoon.',
  "Please don't bring up politics with me; I find it exhausting and it ruins my whole evening.",
  "I ran my first marathon in Lisbon last October and I'm training for Berlin next year.",
  "I'm 29, I live in Montreal, and I design board games in my spare time with my roommate.",
  'I collect vintage vinyl, mostly seventies soul and funk, and I DJ at a small bar on Fridays.',
  'I got married in June and we spent our honeymoon hiking the Dolomites, which was unforgettable.',
  'As a software engineer in Berlin I mostly write Go, but I secretly enjoy tinkering with Haskell.',
  "I'm quite shy around new people, but once I know someone I talk their ears off about astronomy.",
  'My grandmother taught me to knit, and now I make sweaters for everyone in my family each winter.',
]

export const BURST = [
  "Hi, I'm Lucía, I'm 36 and I live in Valencia with my partner and our two cats.",
  'I work as a pharmacist at a busy hospital, mostly on the oncology ward, and I like it.',
  'On weekends I go climbing at the indoor gym near the port, and sometimes outdoors in Chulilla.',
  "I love jazz, especially Bill Evans, and I've started taking piano lessons again after twenty years.",
  "I'm trying to eat less meat, and lately I've been cooking a lot of lentil and chickpea dishes.",
  'Please keep answers short; I usually read messages on my phone between shifts at the hospital.',
  "I'd rather not talk about my ex or my family drama, it still upsets me quite a lot.",
  "Last year I finally finished my master's degree in clinical pharmacy, which took four exhausting years.",
  "I'm a bit of a perfectionist and very organised; my friends tease me about my colour-coded calendar.",
  "Today I'm tired but happy, because we just booked a trip to Japan for cherry blossom season.",
]

export const SEQUENTIAL = [
  "My name is Daniel Okafor, I'm 52 and I run a small bakery in Bristol with my brother.",
  "I get up at four every morning to bake sourdough, and honestly it's the best part of my day.",
  "Outside the bakery I'm obsessed with cycling; I ride about two hundred kilometres most weeks.",
  'I love old blues records, especially Muddy Waters and Howlin Wolf, and I play harmonica badly.',
  "I'm training for the London to Paris charity ride in September to raise money for a hospice.",
  'My daughter graduated from medical school in July and I cried through the entire ceremony.',
  "I'm patient and calm most of the time, though I get grumpy when the ovens break down.",
  "I don't want to talk about football at all; I've supported Bristol Rovers for far too long.",
  'We also keep an allotment where I grow rhubarb and gooseberries for the summer tarts we sell.',
  "I'm feeling stressed this week because our landlord wants to raise the rent on the shop again.",
]
