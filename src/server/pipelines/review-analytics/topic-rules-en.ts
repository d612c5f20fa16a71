import type { TopicRules } from "./topic-types";

// English complaint topics (topic-types.ts explains the rule syntax). Written from what guests
// commonly complain about, not from the evaluation set's wording (eval/topics/README.md).

const FOOD =
  "food|meal|meals|dish|dishes|plate|plates|main|mains|main course|starter|starters|dessert|desserts|soup|soups|pizza|pizzas|pasta|burger|burgers|steak|steaks|fries|chips|chicken|fish|pork|beef|lamb|duck|rice|curry|noodles|risotto|lasagne|lasagna|sandwich|sandwiches|toast|egg|eggs|breakfast|lunch|dinner|brunch|coffee|tea|latte|cappuccino|gravy|sauce|veg|vegetables|potatoes|sides|pie|roast|croissant|croissants|pastry|pastries|cake|bread|bun|roll|rolls|wrap|kebab|taco|tacos|sushi|ramen|salmon|seafood|prawns|scallops|calamari|omelette|bacon|sausage|sausages|meat|order|takeaway|delivery|buffet|porridge|pancakes|waffles|nachos|wings|ribs|mash|salad|quiche|tapas|paella|gnocchi|ravioli|carbonara|dumplings|bagel|muffin|scone|scones";
const MEAT =
  "chicken|pork|burger|burgers|sausage|sausages|meat|steak|lamb|duck|turkey|egg|eggs|fish|salmon|patty|mince|ribs|wings";
const WAIT =
  "wait|waits|waited|waiting|queue|queued|queueing|stood|standing|kept us|left us|took|minutes|mins|hour|hours|half an hour|ages|forever|eternity|slow|slowly|delay|delayed|still waiting|finally";
const ROOM_HEADS =
  "room|rooms|sheets|sheet|bed|beds|bedding|pillow|pillows|pillowcase|pillowcases|duvet|carpet|carpets|shower|sink|basin|bath|bathtub|tub|towel|towels|mattress|curtains|furniture|walls|minibar|kettle|apartment|cabin|suite|balcony|wardrobe";
const TABLEWARE =
  "table|tables|glass|glasses|cutlery|fork|forks|knife|knives|spoon|spoons|plate|plates|cup|cups|mug|mugs|crockery|tableware|menu|menus|tray|trays|napkin|napkins|tablecloth|tablecloths|high chair|high chairs|placemat|placemats|bowl|bowls";
const TOILETS =
  "toilet|toilets|loo|loos|bathroom|bathrooms|restroom|restrooms|washroom|washrooms|gents|ladies|wc|urinal|urinals|lavatory|lavatories";

export const TOPIC_RULES_EN: TopicRules = {
  turns: ["but", "although", "though", "however", "whereas", "except"],
  negators: ["no", "not", "never", "without", "zero", "nothing", "wasn't", "weren't", "isn't", "aren't"],
  topics: {
    cold_food: [
      `cold|colder|lukewarm|luke warm|tepid|stone cold|ice cold|barely warm|not hot|not even warm|wasn't hot|weren't hot|room temperature|gone cold|went cold|still frozen|frozen in the middle|cold in the middle|reheated badly ~ ${FOOD}`,
    ],
    bland_food: [
      "bland|tasteless|flavourless|flavorless|insipid|underseasoned|under seasoned|unseasoned",
      "[no/zero/little/lacked/lacking/lack of/without/devoid of/not much] [flavour/flavor/taste/seasoning/spice]",
      "[tasted/tastes/tasting] [of/like] nothing",
      "[didn't/did not] taste [of/like] anything",
      "needed salt|needed seasoning|needed more salt|watery sauce|watered down",
      `boring|dull|watery|plain ~ ${FOOD}`,
    ],
    overcooked_food: [
      "overcooked|over cooked|overdone|over done|burnt|burned|charred|cremated|blackened|incinerated|scorched",
      "dried out|bone dry|dry as|like leather|like shoe leather|like rubber|rubbery|shoe leather",
      `dry|tough|chewy|mushy|soggy|hard as ~ ${FOOD}`,
      "well done when|well done instead",
    ],
    undercooked_food: [
      "undercooked|under cooked|underdone|under done|uncooked|half cooked|half raw|not cooked through|not cooked properly|wasn't cooked|weren't cooked",
      "raw inside|raw in the middle|pink inside|pink in the middle|bloody inside|still raw|still pink|still frozen inside",
      `raw|pink|bloody|runny ~ ${MEAT}`,
    ],
    stale_food: [
      "stale|wilted|limp|gone off|went off|tasted off|smelled off|smelt off|past its date|past the date|out of date|expired|rancid|sour milk",
      "not fresh|wasn't fresh|weren't fresh|isn't fresh|aren't fresh|far from fresh|anything but fresh",
      "day old|days old|from yesterday|yesterday's|from the day before|sitting out|been sitting|sat out|sat there for",
      `mouldy|moldy|mould|mold|microwaved|reheated|from frozen|out of a packet|out of a bag|frozen|old|dried up ~ ${FOOD}`,
    ],
    small_portions: [
      `small|tiny|miniature|minuscule|mini|miserable|mean|stingy|meagre|meager|skimpy|pathetic|sad|measly|child sized|kid sized|toddler ~ portion|portions|serving|servings|helping|helpings|amount|amounts|plate|plates`,
      "still hungry|left hungry|went home hungry|leave hungry|need a snack|stop for chips on the way|barely a mouthful|two bites|three bites|a spoonful",
    ],
    foreign_object: [
      `hair|hairs|glass|plastic|metal|wire|plaster|band aid|fingernail|nail|eyelash|staple|bristle|bristles|string|stone|shell|bone ~ ${FOOD}|mouth|bite|mouthful`,
    ],
    food_poisoning: [
      "food poisoning|poisoned|vomiting|vomited|vomit|threw up|throwing up|throw up|diarrhoea|diarrhea|upset stomach|stomach ache|stomach cramps|stomach bug|sick all night|ill all night|up all night being sick",
      "[got/fell/was/were/felt/been/being/is/are] [ill/sick/poorly/unwell]",
      "nauseous|nausea|queasy",
    ],
    rude_staff: [
      "rude|rudely|rudest|rudeness|impolite|unfriendly|unpleasant|arrogant|condescending|patronising|patronizing|snappy|snapped|snarky|sarcastic|dismissive|hostile|aggressive|abrupt|curt|surly|grumpy|moody|sullen|stroppy|obnoxious|disrespectful|insulting|insulted|unwelcoming|sneered|scoffed|belittled",
      "argued|argue|arguing|argumentative|shouted at|yelled at|screamed at|barked at|told us off|lectured|talked down",
      "rolled [her/his/their] eyes",
      "eye roll|eye rolling|attitude|couldn't care less|could not care less|didn't care|did not care|made us feel unwelcome|made me feel unwelcome|treated us like",
    ],
    inattentive_staff: [
      "ignored|ignoring|ignore us|inattentive|unattentive|neglected|forgotten about|forgot about us|understaffed|short staffed|short-staffed",
      "[nobody/no one/noone] [came/come/comes/checked/bothered/noticed/served us/took our order/came back/came over]",
      "never came back|never checked|didn't come back|didn't check|didn't return|never returned",
      "flag down|flag someone|flagging|waving|wave down|catch [someone's/their/his/her/anyone's/a waiter's/the waiter's] eye",
      "had to go to the bar|had to go up|had to get up|went to the bar to order|chase|chasing",
      "on their phones|on her phone|on his phone|chatting among|chatting to each other|chatting at",
      `[asked/asking] _? [three times/twice/several times/repeatedly/again] ~ menu|water|order|attention|someone|anyone|waiter|waitress|staff|server|dessert`,
      "gave up waiting",
    ],
    wrong_order: [
      "wrong order|wrong dish|wrong dishes|wrong drink|wrong drinks|wrong food|wrong meal|wrong pizza|wrong burger|wrong main|wrong side|wrong item|wrong items|wrong table",
      "[got/brought/served/given] _? the wrong",
      "mixed up|mix up|mix-up|mixup|not what i ordered|not what we ordered|didn't order that|never arrived|never came|didn't arrive|didn't come|forgot|forgotten|missing from|was missing|were missing|left out",
      "[ordered/order/asked for] _? _? _? [got/get/received/brought/came/served]",
      "instead of",
    ],
    high_prices: [
      "overpriced|over priced|expensive|pricey|pricy|extortionate|exorbitant|rip off|ripoff|rip-off|ripped off|robbery|daylight robbery|highway robbery|cost a fortune|costs a fortune|an arm and a leg",
      "prices|price|prices are|price is|prices were ~ high|crazy|ridiculous|insane|silly|joke|steep|absurd|outrageous|too much|eye watering",
      "not worth the money|not worth the price|not worth it for|poor value|bad value|terrible value|awful value|no value|steep",
      "too much for|a lot for|way too much|far too much",
    ],
    extra_charges: [
      "service charge|cover charge|coperto|gratuity|mandatory tip|automatic tip|tip added|added tip|surcharge|supplement|booking fee|card fee|resort fee|city tax|hidden fees|hidden fee|hidden charges|hidden costs|extra charge|extra charges|charged extra|charge extra",
      "charged|charge|charging|charges|extra|paid for|pay for|paying for ~ bread|water|tap water|butter|sauce|sauces|ketchup|mayo|oil|olives|cutlery|terrace|sitting outside|card|cake|corkage|refills|ice",
      `charged|charge|charges|fee ~ per person|a head|each|per head|per cover`,
    ],
    billing_error: [
      "overcharged|over charged|charged twice|double charged|charged double|wrong bill|incorrect bill|short changed|shortchanged|wrong change",
      "[mistake/mistakes/error/errors] [on/in] [the/our] [bill/receipt]",
      `charged|billed|bill|receipt|invoice ~ never ordered|didn't order|did not order|didn't have|never had|never got|wrong|incorrect|mistake|error|added`,
    ],
    dirty_toilets: [
      `dirty|filthy|disgusting|gross|grim|grimy|vile|horrible|awful|disgrace|state|unclean|not clean|wasn't clean|weren't clean|no soap|no paper|no toilet paper|no loo roll|overflowing|blocked|clogged|flooded|wet floor|out of order|broken|stank|stinking|smelly|needed cleaning ~ ${TOILETS}`,
    ],
    dirty_tables: [
      `dirty|filthy|sticky|greasy|grubby|smeared|smudged|stained|crusty|grimy|unwashed|not clean|wasn't clean|weren't clean|lipstick|dried|crumbs|old food|stuck on|residue|marks|fingerprints ~ ${TABLEWARE}`,
      "not cleared|never cleared|uncleared|wasn't cleared|weren't cleared|wasn't wiped|not wiped|never wiped",
    ],
    dirty_room: [
      `dirty|filthy|stained|stains|stain|dust|dusty|hair|hairs|mould|mold|mouldy|moldy|grimy|grubby|not clean|wasn't clean|weren't clean|not cleaned|wasn't cleaned|hadn't been cleaned|unclean|disgusting|gross|crumbs|used|blood ~ ${ROOM_HEADS}`,
      "housekeeping never|housekeeping didn't|room wasn't serviced|room not serviced",
    ],
    pests: [
      "cockroach|cockroaches|roach|roaches|mouse|mice|rat|rats|droppings|bed bug|bed bugs|bedbug|bedbugs|ants|maggot|maggots|weevil|weevils|vermin|infested|infestation|silverfish|fleas|flies|fruit flies|wasps|insect|insects|bugs",
    ],
    bad_smell: [
      "smell|smells|smelled|smelt|smelly|stank|stink|stinks|stinking|stench|reek|reeked|reeks|odour|odor|whiff|pong|musty|fusty",
      "sewage|drains",
    ],
    wait_for_table: [
      `${WAIT} ~ a table|for a table|for our table|to a table|to our table|to be seated|be seated|get seated|got seated|seated|seat us|sat down|booking|reservation|reserved|booked|bar until`,
      "table [wasn't/was not/weren't/isn't/not/still not] ready",
      "no table for|no tables for",
    ],
    slow_food: [`${WAIT} ~ ${FOOD}|ordered|ordering|kitchen|course|courses|served|arrived|came out|come out`],
    wait_for_bill: [`${WAIT}|asked|asking ~ bill|the check|cheque|pay|paying|payment|card machine|receipt`],
    long_queue: [
      "queue|queues|queued|queueing|queuing|long line|long lines|line of|in line|line out the door|line outside",
      `${WAIT} ~ check in|check-in|checkin|check out|checkout|reception|front desk|counter|till|tills|cashier|cashiers|register|checkouts|desk`,
    ],
    noise: [
      "noisy|noise|noises|loud|deafening|blaring|booming|racket|din|thumping|shouting|screaming|ear splitting",
      "[couldn't/could not/can't/cannot/hardly/barely/could barely/could hardly] [hear each other/hear ourselves/hear yourself/hear a thing/talk/have a conversation]",
      "thin walls|paper thin",
      `hear|heard ~ neighbours|neighbors|traffic|street|music|party|next door|through the walls|walls|road|lift|elevator|trains|bar downstairs|club|bins`,
    ],
    room_temperature: [
      `cold|freezing|chilly|frozen|hot|boiling|sweltering|stuffy|sauna|oven|stifling|roasting|draughty|drafty|humid|muggy ~ room|dining room|inside|indoors|restaurant|in here|in there|place|heating|heater|heaters|air con|aircon|air conditioning|ac|radiator|window|windows|coats|jackets|terrace|bedroom`,
      "no heating|heating was off|heating was broken|heating didn't work|heater was broken|heater didn't work|air con didn't work|aircon didn't work|air conditioning didn't work|no air con|no aircon|no air conditioning|broken air con|broken aircon|broken heating",
      "coats on|jackets on|kept our coats|keep our coats|kept our jackets",
    ],
    cramped_seating: [
      "cramped|crammed|squeezed in|packed in like|sardines|on top of each other|elbow to elbow|no legroom|no leg room|no elbow room|tight squeeze",
      "too close|so close|very close|really close together",
      `uncomfortable|hard|rickety|wobbly|tiny|broken|wooden|cramped|low|high ~ chair|chairs|seat|seats|seating|bench|benches|stool|stools|booth|booths|sofa|table|tables`,
    ],
  },
  exclude: {
    cold_food: [
      "ice cold [beer/drink/drinks/water/coke/lager/pint/glass]",
      "cold drinks",
      "cold beer",
      "cold starter*",
      "cold brew",
      "cold cuts",
      "cold meats",
    ],
    bad_smell: [
      "[smell*/smelt] [amazing/delicious/lovely/great/good/wonderful/divine/incredible/gorgeous/fantastic/heavenly]",
      "[smell*/smelt] off",
      "smell of [fresh/coffee/bread/baking]",
    ],
    noise: ["loud and clear", "out loud", "laughed out", "noise cancelling"],
    high_prices: ["not expensive", "not too expensive", "not overpriced", "reasonably priced", "well priced"],
    pests: ["flies by", "time flies", "bugs me", "bugged"],
    wrong_order: ["never came back", "never come back", "forgot to mention", "instead of the usual"],
    foreign_object: [
      "stone cold",
      "glass of",
      "glasses of",
      "a glass",
      "wine glass",
      "beer glass",
      "bone marrow",
      "stone baked",
      "stone oven",
      "bone in",
    ],
    stale_food: [
      "old school",
      "old fashioned",
      "old-fashioned",
      "old town",
      "years old",
      "old friend",
      "old favourite",
      "frozen yoghurt",
      "frozen yogurt",
      "frozen margarita*",
    ],
    inattentive_staff: ["no one came close", "nobody came close"],
    overcooked_food: ["dry wine", "dry white", "dry martini", "dry aged", "dry-aged"],
    wait_for_bill: ["[took/take/taken] [it/them/that/this/one/two] off the bill", "off the bill"],
    slow_food: ["[took/take/taken] [it/them/that/this/one/two] off the bill"],
    long_queue: ["no queue", "skip the queue", "worth the queue", "worth queueing"],
    extra_charges: ["free of charge", "no extra charge", "at no extra", "no service charge"],
  },
};
