import { words } from "./categories";
import type { Language } from "./language";

/** The kinds of health-and-safety problem the critical flag stands for (eval/GUIDE.md, "Critical"). */
export const HAZARDS = ["illness", "vermin", "foreign_object", "hygiene", "allergy", "injury"] as const;
export type Hazard = (typeof HAZARDS)[number];

/**
 * Health-and-safety concepts per language: many phrasings of each (patterns.ts syntax, unfolded).
 * `guards`: words that, within the six tokens before a concept, say it did not happen or was only
 * feared ("luckily nobody got sick", "no bed bugs", "tenía miedo de pillar algo", "kein Magengrummeln").
 * `exclude`: idioms in which a concept's words mean something else ("sick of waiting", "bicho raro",
 * "Haare auf den Zähnen", "zum Kotzen laut"); a concept inside one does not count.
 */
/**
 * Two kinds of words that report a hazard only together, near each other in a sentence: a thing and
 * what was wrong with it ("chicken" … "pink inside", "loo" … "all night", "sheets" … "stains", "tail"
 * … "ran"). `a` and `b` are `|`-separated lists of patterns; `within`: most tokens between the two
 * (default 10); `guarded: false` when a guard before `a` is not a denial ("no salió del baño").
 */
export interface ConceptPair {
  hazard: Hazard;
  a: string;
  b: string;
  within?: number;
  guarded?: boolean;
}

export interface CriticalRules {
  concepts: Record<Hazard, string[]>;
  /** Sentence-level pairs (ConceptPair). */
  pairs: ConceptPair[];
  /** Pairs that may sit in different sentences of one review ("I told them about my allergy." … "Ambulance."). */
  reviewPairs: ConceptPair[];
  guards: string[];
  /**
   * Words that make a hazard hearsay ("I read reviews about rats", "die Bettwanzen-Geschichten"): they take
   * back a concept anywhere shortly before it in the sentence, commas or not, and right after it.
   */
  hearsay: string[];
  /** Phrases that begin with a guard's word without denying anything ("nada más salir", "ni una disculpa"). */
  notGuards: string[];
  exclude: string[];
}

export const CRITICAL_RULES: Record<Language, CriticalRules> = {
  en: {
    concepts: {
      illness: [
        ...words("barf|barfed|barfing|hurled|upchucked|hasnt been right since|hasn't been right since|not been right since|montezuma's revenge|montezumas revenge"),
        ...words("food poisoning|poisoned|poisoning|vomit*|puked|puking|diarrh*|diarrhoea|diarrhea|nausea|nauseous|queasy|gastro|norovirus|salmonella|e coli|listeria"),
        "throw*|threw up", "was|were|got|get|gotten|been|fell|feel|felt|being sick|ill", "sick all|from|by|for", "sick the whole", "stomach bug|ache|cramps|upset|pains",
        "cramps", "fever", "temperature of", "a and e", "hospital", "emergency room", "doubled over", "keep water down", "glued to the toilet",
        "on the toilet all|for", "turns in the bathroom", "night in the bathroom", "spent the night on|in|taking", "environmental health", "doc|doctor|gp said|thinks",
        "regretted it for", "food borne|foodborne", "stomach bug",
        ...words("unwell|poorly|retching|heaving|chills|the runs|projectile|violently ill|sick as a dog|upset stomach|upset tummy|dodgy tummy|dodgy stomach"),
        "made me|us|him|her|them|everyone ill|sick", "ill|sick after|afterwards", "up all night", "rushed to the loo|toilet|bathroom", "ended up in hospital|a&e",
        "couldn't leave the bathroom|toilet", "stomach|tummy|belly ache|aches|pains|cramps",
        ...words("on a drip|hugging the porcelain|bathroom floor|leaving the bathroom|distance of a toilet|weight loss|dizzy|lightheaded|antibiotics|rehydration|dehydrated"),
        "sick|ill|poorly for two|three|2|3 days", "off work", "in bed for", "kids|children|son|daughter|husband|wife|everyone were|was coughing|sick|ill|vomiting",
        "laid low", "hold anything down", "hold nothing down", "couldn't hold", "squits", "runny tummy|tummies", "urgent care", "walk in centre|clinic",
        "didn't agree with", "did not agree with", "disagreed with me|him|her|us", "parted company", "paramedics", "paramedic", "ambulance", "retch", "retched", "in knots",
        "the shakes", "the trots", "didn't stay down", "did not stay down", "wouldn't stay down", "would not stay down", "called|call|rang|ring 111|999|911", "nhs 111|direct", "poison control", "came|come|went down with", "something nasty", "sweating and shaking", "shaking and sweating", "cold sweats", "keep anything down", "kept nothing down",
      ],
      vermin: [
        ...words("cockroach*|roach|roaches|mouse|mice|rat|rats|rodent*|droppings|bedbug*|maggot*|larva*|larvae|weevil*|caterpillar*|worm|worms|slug|slugs|ants|termite*"),
        "bed bug|bugs", "bites in a line|row", "itchy red bites", "flies all over|everywhere|on|crawling", "fly in|on my", "something wriggling|moving|crawling",
        "things crawling", "still moving", "tiny flat brown bug", "insect*",
        ...words("vermin|pests|fleas|lice|mites|moths|silverfish|fruit flies|gnats|beetle|beetles|ant|critter|critters"),
        "dead fly|bug|insect|mouse|rat|cockroach", "a fly in|on", "bug in|on my", "bugs in|on the", "mouse|rat droppings", "something living|alive",
        ...words("long tail|pellets|scratching in the ceiling|scurrying|scurried|bites all over|reddish bugs|wormy|fruit fly|eggs in|nibbled|gnawed|nest|cobwebs in"),
        "something small|grey|gray|brown|black shot|ran|scuttled|darted", "bites on|all|in", "little white things", "tiny dark specks",
        ...words("itchy lumps|itchy bumps|itchy welts|welts|bluebottle|bluebottles|earwig|earwigs|grub|grubs|oothecae|egg cases|gnaw marks|gnawed|nits|head lice"),
      ],
      foreign_object: [
        "hair in|on|wrapped|round|into", "hair _? into|in", "hair baked|stuck|cooked", "hairs in|on", "piece|bit|bits|shard|chunk|splinter|sliver|curl of _? glass|plastic|metal|wire|wood|bone",
        "glass in|shard", "blue plastic", "plaster in", "a plaster", "used plaster", "bandage", "band aid|aid", ...words("fingernail|nail clipping|false eyelash|eyelash|butcher's string|string tied|latex|glove|ceramic|chip of glass|shard|staple|stone|pebble"), "staple", "screw in",
        "something hard", "black bits", "little black bits",
        ...words("strand of hair|hair in my|hair in the|metal shaving|steel wool|bristle|cling film|plastic wrap|rubber band|cigarette butt|twist tie|fish hook"),
        "glass in|shard|splinter", "a piece|bit|chunk of _? glass|plastic|metal|wire|string", "found a|an _? _? in my|the",
      ],
      hygiene: [
        "raw|bloody in the middle|centre|center", "raw|bloody inside", "raw|pink|red|bloody at the bone", "still raw|red|pink", "properly raw", "pink and slimy", "chicken was|still pink|raw",
        "undercooked chicken|pork", "barely cooked eggs|chicken|pork", "mould|mold|mouldy|moldy|fuzzy", "out of date", "use by|use-by date", "past its|the date",
        "expired", "rotten", "spoiled|spoilt", "gone off", "smelled|smelt|tasted|smelling off", "smelled like ammonia", "fizzy and sour", "greenish sheen",
        "green bits", "grease dripping", "bin with no lid", "wiping his|her nose", "no gloves", "stained sheets|bedding", "yellow stains", "stains on the sheets|bedding|pillow",
        "hairs on the pillow", "damp bulge", "water dripping", "black mould|mold", "sheets hadn't been changed", "sheets had not been changed", "droppings",
        ...words("uncooked|not cooked through|rancid|curdled|sour milk|expiry date|sell by|best before|blood on the sheets|bloodstains|blood stains|urine"),
        "raw|pink|bloody|undercooked chicken|pork|burger|sausage*", "chicken|pork was|still raw|pink|bloody", "frozen|cold in the middle", "kitchen was|looked filthy|dirty|disgusting|greasy",
        "filthy|dirty|disgusting|greasy kitchen", "dropped it on the floor", "off the floor", "sneezed|coughed _? on|over|into", "without washing", "didn't wash",
        "handling money and food", "smelled|smelt|tasted rotten|rancid|sour", "mould|mold on|in", "green fuzz", "used condom", "needle",
        ...words("translucent|jelly like|jelly-like|came out in lumps|lumpy milk|smelled like the bins|puffed up|black fuzz|damp basement|makeup smudged|someone's sweat"),
        ...words("wiped his nose|wiped her nose|picked his nose|same gloves|bare hands|raw meat sat|uncovered raw|not washed since|hadn't been washed|not been washed"),
        "not safe", "out of date|expired|past date", "date on the side|packet|carton was", "gone dull|grey|green|brown",
        ...words("open cut|bleeding onto|bled onto|at room temperature|sat out in the heat|bulging tin|bulging can|rotten eggs|furred with|syringe|syringes|used needle|used needles|sharps|dried blood|patch of blood|sewage|raw sewage|overflowing toilet|toilet overflowed|slimy film"),
      ],
      allergy: [...words("allergic reaction|anaphyla*|epipen|epi pen|hives|couldn't breathe|swollen lips|swollen throat|throat closing|antihistamine*|tongue tingling"), "react really|very badly", "asked|said for|no peanuts|nuts|dairy|gluten|shellfish|sesame"],
      injury: [
        ...words("cut his foot|cut her foot|cut my foot|cut his hand|cut her hand|cut my hand|cut his finger|cut her finger|cut my finger|foot open|sprained"),
        "gas leak|smell", "chipped|cracked|broke a|my tooth", "burned|burnt|scalded my|his|her hand|mouth|tongue|arm", "mouth bleeding", "came down into", "fell on",
        "ceiling fell|collapsed", "cut my|his|her mouth|lip|tongue|gum", "slipped on", "electric shock", "exposed wires", "carbon monoxide", "broken glass",
        ...words("blister|blistered|scalded|scalding|cut on his lip|cut on her lip|cut on my lip|small cut|smell of gas|smelled of gas|gas smell|chunk of it came down"),
        "tripped and fell", "scorch", "scorched", "singed", "caught fire", "set alight", "fractured", "broken wrist|ankle|hip|arm", "fell down the stairs|steps", "fell down half|a flight",
        ...words("stitches|gash|got a shock|gave me a shock|electrocuted|fire exit was locked|fire exit was blocked|carbon monoxide alarm"),
      ],
    },

    pairs: [
      { hazard: "illness", a: "loo|loos|toilet|toilets|bathroom|lavatory|bog|porcelain|bucket|ensuite|en suite|restroom|restrooms|washroom", b: "running|ran|run|dash*|trips|spent|spend|lived|living|glued|all night|whole night|next day|next morning|following day|every|turns|back and forth|from both ends", guarded: false },
      { hazard: "illness", a: "stomach|stomachs|tummy|tummies|belly|bellies|gut|guts|bowels|insides", b: "runny|rebellion|rebel*|cramp*|upset|churn*|gurgl*|rumbl*|ache|aching|aches|pain|pains|agony|revolt*|hurt*|bug|off|in knots|was not right|wasn't right", within: 4 },
      { hazard: "illness", a: "sick|ill|poorly|unwell|vomit*|feverish|fever|throwing up|nauseous|queasy|bedridden|laid up|wiped out|off work", b: "that night|overnight|next morning|next day|following day|afterwards|after|later|hours later|for days|two days|three days|the weekend|since|all night|whole night|entire night|by midnight", within: 6 },
      { hazard: "foreign_object", a: "gum|chewing gum|hair tie|button|pebble|bottle cap|coin|pin|tinfoil|tin foil|foil|cling film|clingfilm|sponge|cigarette end|fag end|contact lens|earring|fish hook|fingertip|glove|thumbtack|drawing pin|paperclip|paper clip|battery|cocktail stick|toothpick|elastic band|hair|hairs|fingernail|nail|toenail|plaster|bandage|band aid|wire|wires|staple|screw|bolt|scourer|scouring|brillo|bristle|bristles|eyelash|earring|pebble|shard|shards|splinter|splinters|sliver|slivers|fragment|fragments|twist of|zip tie|cable tie|feather", b: "pizza|soup|salad|rice|pasta|burger|sandwich|cheese|mozzarella|sauce|curry|dessert|cake|bread|roll|drink|coffee|tea|latte|cocktail|mojito|beer|wine|dish|plate|meal|food|starter|main|steak|fish|chicken|cauliflower|pie|quiche|omelette|eggs|fries|chips|noodles|stew|bowl|taco|burrito|kebab|smoothie|ice cream|pastry|croissant|muffin|pudding|pavlova|risotto|gravy|mash|veg|vegetables|spoon|mouth|bite|bit into|chew*|crunch*|teeth|fished|pulled|found|baked into|cooked into|stuck in" },
      { hazard: "hygiene", a: "chicken|pork|skewer|skewers|chop|chops|sausage|sausages|turkey|wings|thigh|thighs|drumstick*|nugget*|fillet", b: "blood|jelly|pink|pinkish|rosy|raw|translucent|see through|underdone|undercooked|bloody|bleeding|glassy|not cooked|not done|half cooked|barely cooked|cold in the middle|cold inside" },
      { hazard: "hygiene", a: "sheet|sheets|bedsheet*|pillow|pillows|pillowcase*|mattress|duvet|bedding|linen|linens|bedspread|blanket|blankets|quilt", b: "stain|stains|stained|hair|hairs|tide mark|tidemark|blood|bloodstain*|yellow|yellowed|yellowish|marks|crusty|unwashed|not washed|not changed|hadn't been changed|used|sweat*|smelled of|urine|sticky|smear|smears|smeared|rusty|rust coloured|rust colored" },
      { hazard: "hygiene", a: "kitchen|cook|cooks|chef|chefs|hood|extractor|fryer|hob|chopping board", b: "grease|greasy|filth|filthy|grime|grimy|caked|encrusted|black with|nose|sleeve|sneez*|cough*|bare hands|same board|same knife|same gloves|raw meat|without washing|bin|bins|mouldy|moldy|smoked while|smoking|scratched", within: 14 },
      { hazard: "hygiene", a: "mould|mold|mouldy|moldy|mildew|black spots|black patches|black specks|black stuff|black gunk|black fungus|fungus|bloom|damp patch|damp patches|spores|spore", b: "wallpaper|headboard|skirting|ceiling|wall|walls|bathroom|shower|grout|silicone|tiles|window|windows|room|corner|corners|curtain|curtains|sealant|bath|vent", within: 12 },
      { hazard: "hygiene", a: "fish|meat|milk|cream|yoghurt|yogurt|chicken|prawns|shrimp|mussels|seafood|salad|bread|cheese|eggs|egg|ham|juice|sushi|oysters|clams|mince", b: "was off|were off|gone off|went off|bit off|slightly off|definitely off|smelled off|smelt off|tasted off|sour|soured|slimy|stank|stunk|reek*|fizzy|furry|fuzzy|mouldy|moldy|rotten|rancid|curdled|lumpy|past its|out of date|expired|ammonia", within: 6 },
      { hazard: "vermin", a: "tail|tails|legs|whiskers|antennae", b: "ran|run|running|scurr*|scuttl*|dart*|crawl*|shot across|moving|moved|wriggl*|climb*|dash*|zipped|bolted", within: 6 },
      { hazard: "vermin", a: "wriggl*|squirm*|writh*|wiggl*|creeping|crawling", b: "thing|things|bits|creature*|something|little|tiny|white|black|brown|worm*", within: 4 },
      { hazard: "vermin", a: "flies|fly|wasps|ants|insects", b: "food|buffet|cheese|meat|cake|cakes|pastries|plate|plates|salad|bread|fruit|counter|display|breakfast|sitting on|landing on|crawling on|all over", within: 6 },
      { hazard: "injury", a: "fan|blade|blades|ceiling fan|ceiling tile|ceiling|plaster|tile|tiles|light fitting|lamp|shelf|beam|panel|piece of the ceiling|railing|balcony|chair", b: "dropped|flew off|came off|came down|fell|falling|collapsed|crashed|dropped on|gave way|broke under|crumbled", within: 8 },
      { hazard: "injury", a: "burn|burns|burnt|burned|scald*|blister*", b: "finger|fingers|hand|hands|arm|arms|mouth|tongue|lip|lips|skin|child|son|daughter|kid|kids|baby|toddler|leg|face", within: 6 },
      { hazard: "injury", a: "wire|wires|cable|cables|socket|sockets|plug|outlet|wiring", b: "exposed|bare|hanging|loose|sparking|sparked|sparks|shock|dangling|out of the wall|live|melted|smoking", within: 8 },
      { hazard: "injury", a: "propane|butane|gas hose|gas bottle|gas cylinder|gas canister", b: "hiss*|leak*|split|smell*|whiff", within: 10 },
      { hazard: "hygiene", a: "rice|chicken|salmon|mayo|mayonnaise|cream|seafood|prawns|meat|eggs|sushi|canapes|trays|blinis|quiche|sandwiches", b: "room temperature|in the sun|in the heat|sweltering|unrefrigerated|not refrigerated|since dawn|since morning|since breakfast", within: 12 },
      { hazard: "hygiene", a: "floor|ground|floor tiles", b: "pick it up|picked it up|threw it back|back on the grill|blew on it|blow on it|picked it up and|put it back|served it anyway|back on the plate|back into the", within: 12 },
      { hazard: "injury", a: "fire exit|fire exits|emergency exit|emergency exits|fire door|fire doors|fire escape", b: "chained|chain|locked|padlock*|blocked|bolted|crates|stacked|wedged|barricaded", within: 10 },
      { hazard: "injury", a: "stairs|stair|staircase|step|steps|carpet|rug|decking|wet floor", b: "tripped|fell|slipped|went flying|broke her|broke his|sprained", within: 8 },
      { hazard: "injury", a: "railing|railings|balustrade|banister|handrail|balcony rail", b: "shifted|loose|wobbl*|moved|moving|bolts|gave|came away|came off", within: 14 },
      { hazard: "foreign_object", a: "plastic|washer|bolt|nut and|metal|rim of|sharp|crunched|something crunched|something hard", b: "mouth|spat|spit|pulled|fished|bit into|biting|chew*|porridge|risotto|eclair|pastry|bowl|soup|salad|my food|inside the", within: 10 },
      { hazard: "illness", a: "wasn't right|was not right|not right|funny colour|funny color|green around the gills|peaky|grey and clammy|clammy", b: "next day|next morning|after|afterwards|cab home|home|that night|all night|on the landing|too weak", within: 8 },
      { hazard: "foreign_object", a: "click|clicked|clunk|crack|cracked|crunched|grated|scraped", b: "molar|tooth|teeth|filling|crown", within: 6 },
      { hazard: "hygiene", a: "cat|cats|dog|dogs", b: "flour|oven|worktop|worktops|prep|counter|dough|hob|stove|kitchen counter|pass", within: 6 },
      { hazard: "hygiene", a: "towel|towels|bath mat|bathrobe|robes", b: "someone's|someone else's|another person's|sweat*|mascara|blood|unwashed|not washed|hadn't been washed", within: 20 },
      { hazard: "hygiene", a: "hot tub|jacuzzi|whirlpool|pool|spa pool", b: "rash|slime|slimy|green film|itchy spots|infection", within: 14 },
      { hazard: "illness", a: "shakes|shaking|shivering|sweating|sweats|cold sweat", b: "bucket|toilet|toilets|loo|bathroom|en suite|ensuite|in bed|hours later|all night|fever|sick|floor", within: 10 },
      { hazard: "hygiene", a: "kettle|mug|mugs|cups|glasses|fridge|ice machine|coffee machine|jug|ice bucket|water jug", b: "furry|fuzzy|mouldy|moldy|mould|mold|slime|slimy|greeny|greenish", within: 14 },
      { hazard: "hygiene", a: "doner|kebab|meat|sausage|sausages|bacon|burger|burgers|patty|patties|steak|lamb|beef|cod|salmon|tuna|haddock|hake|sardines|scampi|calamari", b: "gone bad|went bad|was off|were off|gone off|smelled off|smelt off|tasted off|sour|slimy|stank|stunk|reek*|furry|mouldy|moldy|rotten|rancid|grey inside|gray inside|wheelie bin|bins|sewer|drain|tinged|grey green|greenish|honked|honking", within: 10 },
      { hazard: "vermin", a: "bites|bitten|bite marks|itchy|itching", b: "bunk|bunks|pattern|join the dots|shoulders|mattress|woke", within: 8 },
      { hazard: "vermin", a: "bites|bitten|bite marks", b: "woke|woke up|covered|itchy|itch*|mattress|bed|sheets|arms|legs|ankles|skin|neck|back", within: 6 },
      { hazard: "vermin", a: "came out|come out|appeared|scattered|scuttled|scurried", b: "light off|lights off|switched the light|switched off the light|turned the light|turned off the light|in the dark", within: 8 },
      { hazard: "hygiene", a: "spoon|spoons|ladle", b: "licked|licking|licks|back in the pot|back into the pot|back in the pan", within: 12 },
      { hazard: "hygiene", a: "pool|jacuzzi|hot tub", b: "murky|cloudy|stagnant|no lifeguard|foam", within: 10 },
    ],
    reviewPairs: [
      { hazard: "hygiene", a: "pregnant|pregnancy", b: "raw|runny|undercooked|clear and wobbly|not cooked|unpasteuri*" },
      { hazard: "allergy", a: "cant have|can't have|cannot have|allerg*|anaphyla*|coeliac|celiac|intoleran*|epipen|epi pen|autoinjector|auto injector|allergen|allergens|dairy free|nut free|gluten free|can't have milk|can't have dairy|can't have nuts|can't have gluten|can't eat nuts|can't eat dairy|cannot have milk|cannot have nuts", b: "er|shot|rash|scratch*|numb|prickl*|hoarse|urgent care|monitor|balloon*|reaction|throat|swell*|swollen|puff*|hives|rash|itch*|breath*|wheez*|ambulance|a e|hospital|paramedic*|adrenaline|jab|injection|inhaler|antihistamine*|tablets|pen|doctor|cramps|bloated|sick|ill|vomit*|tingl*|tight|tightening|blotch*|red face" },
    ],
    notGuards: ["no handrail", "no railing", "no lifeguard", "no light", "no lights", "no sooner", "not long after", "not only", "not even", "no more than", "no warning", "no apology", "no explanation", "no word", "no sorry", "without warning", "without a word", "without apologising|apologizing", "wasn't ours", "wasnt ours", "weren't ours", "was not ours",
      "nobody warned", "no one warned", "nobody told", "no one told", "nobody mentioned", "no exaggeration", "not exaggerating", "not kidding", "no joke", "not joking", "never been so", "never seen", "never had", "never felt", "wouldn't have believed", "would not have believed",
      "if i hadn't", "if i had not", "if i hadnt", "if you like|love|enjoy|fancy|want", "if you're into"],
    guards: [
      "no", "not", "never", "nobody", "didn't", "didnt", "wasn't", "wasnt", "without", "unlike", "luckily", "fortunately", "thankfully", "afraid", "scared",
      "worried", "expected", "expecting", "thought", "feared", "if", "or anything", "zero", "free of", "no sign of", "half expected", "nothing",
    ],
    hearsay: ["reading", "swore", "neighborhood group", "neighbourhood group", "read", "heard", "stories", "story", "reviews", "review", "apparently", "rumours", "rumors", "people say", "people said", "tripadvisor", "swears", "facebook", "instagram", "tiktok", "someone got", "back in"],
    exclude: ["sick of", "sick burger|burgers|beats|view|views|vibe|place", "pest control visit", "killer brunch|burger", "hair salon", "hairdresser", "hairdressers", "time flies", "stomach|belly|sides hurt|hurts|ached|aching|sore from laughing|laughter", "like a hospital", "hospital canteen", "nearly|almost made me throw up|sick", "gloves changed between", "changed gloves between", "nearly|almost slipped|tripped", "stone cold", "stone floor|floors|wall|walls|oven|baked|built|cottage", "eaten alive by mosquitoes|midges", "in stitches", "had us in stitches", "bugs in the app|booking|system|website|software|site|online"],
  },
  es: {
    concepts: {
      illness: [
        ...words("potando|potar|poto|enferme del estomago|enfermo del estomago|trasbocar|no paraba de devolver|colico|malo de la barriga|mala de la barriga|pediatra|sentado mal|medico del hotel|llamar al medico|sigue malo|sigue mala|sigo malo|sigo mala|montezuma"),
        ...words("intoxicacion|intoxicados|intoxicad*|vomit*|vomite|vomitos|vomitando|diarrea|diarreas|nauseas|fiebre|gastroenteritis|salmonela|salmonella|retortijon*"),
        "me|nos|se puse|pusimos|puso enferm*", "malo|mala del estomago", "dolor de estomago|barriga|tripa", "tripa revuelta", "corriendo al bano",
        "despegarnos del bano", "abrazados al vater|inodoro", "urgencias", "hospital", "mi estomago lo pago", "la noche en el bano",
        ...words("indigestion|malestar|gastro|descompuesto|descompuesta|me senti fatal|me sento fatal|escalofrios|devolviendo|devolvi|empache|cagalera"),
        "nos|me|le|les|la|lo sento|sentaron|puso|puse mal", "enferm* despues|despues|tras|al dia", "toda la noche con|en el bano|vomitando",
        "dolor|dolores de tripa|barriga|estomago|panza", "me|nos|le intoxique|intoxicamos|intoxico", "acabamos|acabe|terminamos en urgencias|el hospital",
        ...words("devolvio|devolvi|devolviendo|papilla|bano quimico|venganza de moctezuma|suero oral|farmacia de guardia|de baja|dos dias de baja|el medico|mareada|mareado|mareos"),
        "entre la cama y el vater|bano", "parando en todas las gasolineras", "toda la noche con|en el|entre",
        "me|se|nos|le|les puse|puso|pusimos|pusieron malo|mala|malos|malas|malisimo|malisima",
        ...words("emesis|deposiciones liquidas|empapado en sudor|empapada en sudor|tifoidea|colitis|fiebres|ambulancia|quirofano|echando hasta el alma"),
        ...words("echando la pota|echar la pota|echo la pota|la pota|centro de salud|ambulatorio|frente ardiendo|infeccion estomacal|antibiotico|antibioticos|tirado en la cama|sudor frio|en el trono|blanco como la pared"),
        ...words("calentura|colicos|con chorro|suero|sudores frios|temblores|tiritando|no retenia nada"),
      ],
      vermin: [
        ...words("gusanit*|ratoncill*|ratoncit*"),
        ...words("cucaracha*|raton|ratones|rata|ratas|roedor*|cagarruta*|excrementos|chinche|chinches|gusano*|larva*|bicho|bichos|bichito*|insecto*|hormiga*|moscas|mosca"),
        "picaduras", "algo moviendose", "ruiditos en el techo",
        ...words("plaga|infestado|infestada|pulgas|piojos|polillas|gorgojos|escarabajo|escarabajos|lombriz"),
        "mosca|bicho|insecto|gusano en|dentro", "una mosca", "un bicho", "cagadas de raton|rata", "algo vivo", "bichos en la cama|el colchon|las sabanas",
        ...words("laucha|lauchas|picotazos|sarna|dermatologo|gorgojos|piojos|liendres|garrapata|garrapatas|cucas|gusanitos|bolitas negras|excrementos|cola larga|mordisqueado|telaranas|cucarach*|ratoncit*|ratita*|larvit*|chinchit*|ronchas en fila"),
      ],
      foreign_object: [
        "pelo en|largo|rizado", "un pelo", "pelos en", "trozo de cristal|plastico|metal|vidrio", "cristal en", "plastico duro", "una grapa|grapa",
        "un tornillo", "una tirita", "alambre", "astilla",
        ...words("cristales|anzuelo|film transparente|goma elastica|colilla|estropajo|cerda de|tirita|esparadrapo"),
        "trozo|pedazo|resto de cristal|plastico|metal|vidrio|alambre|papel", "pelo|pelos en la|el|mi", "un pelo en", "encontre|encontramos un|una _? en",
        ...words("trocito de vidrio|trocito de cristal|un hilo|guante de latex|pedazo de guante|borde desportillado"),
      ],
      hygiene: [
        ...words("los mocos|mismas manos|lechuga en remojo"),
        "crudo|cruda por dentro", "pollo crudo|rosa", "rosa por dentro", "moho|mohoso*|enmohecid*", "caducad*", "podrid*", "pasada|pasado de fecha", "olor agrio",
        "olia|olian a podrido", "olor rarisimo", "yema verdosa", "leche cortada", "hinchado", "cocina asquerosa", "grasa por todas partes", "sin guantes",
        "manchas de sangre", "manchas amarillas", "sabanas con manchas", "chorreando grasa", "aceite rancio", "sin refrigerar", "olian un poco raro", "no se habian abierto",
        ...words("en mal estado|estropeado|estropeada|agria|agrio|rancia|rancio|cortada|sabanas sucias|sabanas usadas|orina|sangre en"),
        "pollo|cerdo|hamburguesa crud*|rosa|sangrando", "crud* por dentro|en el centro|en medio", "congelad* por dentro", "cocina sucia|asquerosa|mugrienta|llena de grasa",
        "sin lavarse las manos", "del suelo", "estornud*", "olia|sabia|olian|sabian a podrido|rancio|agrio", "fecha de caducidad", "moho en",
        ...words("gelatinosa|gelatinoso|babosa|baboso|pelusilla|amoniaco|verdosos|verdosas|costra negra|trapo asqueroso|goteando|rascandose la nariz|sin lavarselas"),
        ...words("pelos rizados|mancha parda|negra verdosa|olia a sotano|fuera de la nevera|tono marronaceo|juguito rosado|nadie habia cambiado"),
        ...words("aterciopelad*|azul verdos*|abombad*|lata hinchada|fecha limite de consumo|algodonos*|pelusa verde|pelusa blanca|caducaba|caducaban|caduco hace|aguas fecales|aguas residuales|peste a alcantarilla|olor a alcantarilla|jeringuilla|jeringuillas|jeringa usada|sangre seca"),
      ],
      allergy: [...words("ataque de alergia|ataque alergico|crisis alergica|reaccion alergica|anafila*|urticaria|ronchas|garganta cerrada|antihistaminico|antihistaminicos|picar la garganta"), "labios hinchados", "adrenalina", "no podia respirar", "sin cacahuete|frutos secos|gluten|lactosa|marisco"],
      injury: [
        ...words("se abrio la ceja|se partio la ceja|abrio la cabeza|tobillo vendado"),
        "fuga de gas", "olor a gas", "rompo|rompi|rompio una|un muela|diente", "me queme", "quemadura", "me corte|cortado el labio|la boca", "resbale|resbalo",
        "se cayo el techo", "descarga electrica", "cables pelados", "cristal roto",
        ...words("ampolla|quemo el brazo|quemo la mano|le quemo|corte en el labio|corte en la lengua|olia a gas|olor a gas|escayola|se desprendio"),
        "me|le|nos dio la corriente", "dio corriente", "me dio calambre",
        ...words("escayolad*|fractur*|cadera rota|cortes en los pies|cortes en las manos|butano|calambrazo|puntos de sutura|me dieron puntos|le dieron puntos"),
      ],
    },

    pairs: [
      { hazard: "illness", a: "bano|aseo|aseos|vater|water|inodoro|retrete|wc|lavabo|trono", b: "no pare|ir al bano|mejor amigo|no salio|no salir|no salimos|no salia|corriendo|toda la noche|todo el dia|pegad*|encerrad*|vivio|vivimos|vivi|pase|paso|pasamos|paso la noche|cada media hora|cada hora|al dia siguiente|a la manana siguiente|idas y venidas|sin parar", guarded: false },
      { hazard: "illness", a: "estomago|tripa|tripas|barriga|panza|vientre|intestin*|guata", b: "revuelt*|hinchad*|dolor*|retortij*|fatal|suelta|suelto|grit*|rugi*|malisimo|hecha polvo|hecho polvo|del reves|un desastre|dando vueltas|lavadora|tambor", within: 5 },
      { hazard: "illness", a: "enferm*|vomit*|fiebre|mareado|mareada|descompuest*|indispuest*|pachuch*", b: "esa noche|por la noche|toda la noche|a la manana|al dia siguiente|el dia siguiente|despues|luego|horas despues|dos dias|tres dias|varios dias|el finde|el fin de semana|desde entonces|de madrugada|al llegar a casa|en casa|en cama", within: 6 },
      { hazard: "foreign_object", a: "una una|pelo|pelos|pelito|cabello|cabellos|una entera|una humana|una de persona|trozo de una|pedazo de una|tirita|tiritas|esparadrapo|venda|alambre|alambres|grapa|tornillo|estropajo|piedrecita|pendiente|cerdas|pestana|astilla|esquirla|vaso roto|copa rota|trozo de vaso|trozo de copa|cristales|cristalitos|trozo de cristal|trozo de plastico|plumas|pluma", b: "tortilla|pizza|porcion|plato|sopa|ensalada|arroz|paella|pasta|macarrones|hamburguesa|bocadillo|pan|postre|tarta|cafe|bebida|mojito|copa|vaso|cerveza|hielo|patatas|bravas|croqueta*|carne|pescado|comida|boca|muela|dientes|mastic*|mordisco|bocado|salsa|guiso|cocido|lentejas|flan|helado|natillas|empanada|taco|tacos|burrito|ceviche|sushi|zumo|batido|pure|crema|natillas|arroz con leche|apareci*|encontr*|saque|saco|sacamos|dentro" },
      { hazard: "hygiene", a: "pollo|cerdo|brocheta*|chuleta*|salchicha*|pechuga|muslo*|alitas|costilla*|lomo|secreto|pavo|nuggets|chorizo|hamburguesa de pollo", b: "crud*|rosad*|sonrosad*|rosa|sangr*|transparente|gelatinos*|frio por dentro|fria por dentro|poco hech*|sin hacer|a medio hacer|casi crud*" },
      { hazard: "hygiene", a: "sabana|sabanas|sabana bajera|almohada|almohadas|colchon|colcha|edredon|funda|fundas|ropa de cama|manta|mantas|nordico|cobija|cobijas", b: "mancha|manchas|manchad*|pelo|pelos|sangre|amarill*|sucia|sucias|usada|usadas|sudor|orina|sin cambiar|sin lavar|olia a", within: 8 },
      { hazard: "hygiene", a: "cocina|cocinero|cocinera|cocineros|campana|freidora|fogones|extractor", b: "daba asco|asco|restos de comida|gato|gatos|perro|chorreando|mugr*|sucio|sucia|asquerosa|asqueroso|nariz|manga|misma tabla|mismo cuchillo|sin lavar|carne cruda|sin guantes|trapos|trapo|cubo de basura|fumando|estornud*|tosiendo|rascandose|pegajos*|rebosa*|sin tapa|fregona", within: 14 },
      { hazard: "hygiene", a: "moho|mohoso|mohosa|hongos|manchas negras|puntos negros|verdin|humedad negra", b: "techo|pared|paredes|bano|ducha|juntas|azulejos|ventana|ventanas|habitacion|esquina|esquinas|cortina|cortinas|silicona|banera|rejilla", within: 12 },
      { hazard: "hygiene", a: "pescado|carne|leche|nata|yogur|pollo|gambas|langostinos|mejillones|almejas|marisco|ensalada|pan|queso|huevos|huevo|embutido|jamon|zumo|sushi|ostras|boquerones|salmon|atun", b: "olia mal|olia fatal|olia raro|olia rarisimo|apestaba|agrio|agria|agrios|agrias|verdos*|grisaceo|grisacea|viscos*|babos*|moho|podrid*|rancio|rancia|caducad*|en mal estado|estropead*|amoniaco", within: 6 },
      { hazard: "vermin", a: "cola|rabo|patas|antenas|alas|bigotes", b: "cruzo|cruzando|corria|corriendo|salio|paso|moviendo|movia|arrastr*|trepando|subia|escondio|escapo|correteando|salto", within: 6 },
      { hazard: "vermin", a: "bichitos|bichos|gusanitos|gusanos|cositas|algo", b: "moviendose|vivos|vivo|retorci*|arrastrandose|trepando|correteando", within: 4 },
      { hazard: "vermin", a: "moscas|mosca|avispas|hormigas|insectos|bichos", b: "comida|buffet|bufe|queso|embutido|tarta|pasteles|plato|platos|ensalada|pan|fruta|barra|vitrina|desayuno|encima de|posadas|paseando por|por todas partes", within: 6 },
      { hazard: "injury", a: "techo|escayola|azulejo|azulejos|lampara|estanteria|placa|plafon|barandilla|silla", b: "cayo|se cayo|desprendio|se desprendio|se vino abajo|derrumb*|se rompio|cedio|se hundio|se movia|movia|suelta|floja|bailaba|cedia", within: 8 },
      { hazard: "injury", a: "queme|quemo|quemaron|quemado|quemada|quemadura*|ampolla*|abrasa*", b: "mano|manos|dedo|dedos|boca|lengua|brazo|labio|labios|piel|nino|nina|hija|hijo|crio|cria|bebe|pierna|cara", within: 6 },
      { hazard: "injury", a: "cable|cables|enchufe|enchufes|clavija|instalacion electrica", b: "al aire|pelad*|colgaba|colgando|suelto|sueltos|chispa*|calambr*|descarga|fuera de la pared|quemad*|derretid*|medio salido|carcasa rota", within: 8 },
      { hazard: "injury", a: "salida de emergencia|salidas de emergencia|salida de incendios|puerta de emergencia|puerta antincendios", b: "cerrada|cerradas|cadena|candado|bloquead*|tapiad*|cajas|atrancad*", within: 10 },
      { hazard: "foreign_object", a: "piedrita|piedrecilla|chincheta|alfiler|boton|palillo|cinta|goma|chapa|trocitos negros|lentilla|lentillas|pendiente|colilla|papel de aluminio|guante|estropajo|vidrio|cristal|plastico|tira de plastico|metal|hueso|trozo duro|loza|porcelana|borde del plato|ceramica", b: "paladar|frijoles|masa|tamal|cana|bocadillo|croqueta|pinche|escupi*|boca|lengua|mastic*|cruji*|afilad*|corto|cortar|muela|diente|dientes|mordi*", within: 10 },
      { hazard: "hygiene", a: "toalla|toallas|funda|nordico|albornoz", b: "maquillaje|pintalabios|sudor|usada|usadas|restos de|sangre", within: 14 },
      { hazard: "hygiene", a: "gato|gatos|perro|perros", b: "mostrador|bandeja|olla|encimera|lamia|lamiendo|hocico|plancha", within: 10 },
      { hazard: "hygiene", a: "bayeta|trapo|fregona|estropajo", b: "vater|taza del|aseo|inodoro|retrete", within: 14 },
      { hazard: "hygiene", a: "ceniza|pitillo|cigarro|colilla", b: "hamburguesa*|plancha|comida|cocina|sarten|masa|pan", within: 12 },
      { hazard: "injury", a: "sangr*", b: "sien|cabeza|pie|pies|brazo|mano|frente|rodilla|pierna", within: 6 },
      { hazard: "vermin", a: "caracol|caracoles|babosa|babosas|arana|aranas", b: "lechuga|ensalada|vivo|viva|bocata|bocadillo|plato|sopa", within: 8 },
      { hazard: "hygiene", a: "huevo|huevos|yema|yemas|clara", b: "azufre|gris|grisacea|verdosa|olia mal|olia a|podrid*|pasad*", within: 8 },
      { hazard: "hygiene", a: "pescado|carne|merluza|bacalao|dorada|lubina|pulpo|calamares|sepia|chipirones|gambas|mejillones|salmon|atun|pollo|salchichas|hamburguesa|filete", b: "gris|pegajos*|olor raro|hediond*|echad* a perder|caneria|fermentad*|olor que tiraba|olor a contenedor|olor a basura|a basura|a alcantarilla|a cloaca|peste a|olor a podrido|apestaba", within: 16 },
      { hazard: "hygiene", a: "cuchara|cucharon", b: "chupaba|chupa|lamia|lame|volvia a meter|a meter en la olla|de nuevo en la olla", within: 12 },
      { hazard: "hygiene", a: "salio del bano|salio del aseo|salir del bano", b: "sin lavar*|lavarselas no|delantal|se seco las manos", within: 14 },
      { hazard: "injury", a: "escalera|escaleras|escalon|escalones", b: "se cayo|cayo|tobillo|resbal*|muneca", within: 12 },
      { hazard: "injury", a: "ventilador|aspa", b: "se solto|cayo|salio volando|se cayo", within: 10 },
      { hazard: "hygiene", a: "jacuzzi|piscina|banera", b: "turbia|estancada|olor a drenaje|sin socorrista|espuma", within: 10 },
      { hazard: "hygiene", a: "lechuga|verdura|verduras|ensalada", b: "lavabo|lavamanos|retrete|en el bano", within: 12 },
    ],
    reviewPairs: [
      { hazard: "hygiene", a: "cocina", b: "fregona|cubos sin tapa|rebosando|suelo negro|cucarach*|ratas|raton|ratones" },
      { hazard: "allergy", a: "alergi*|alergic*|celiac*|celiaqu*|intoleran*|anafila*|no puede comer|no puedo comer|no podia comer|no pueden comer|no puede tomar", b: "granitos|picaba|picor|boca|cuello|manchas|pecho|pitar*|pitaba|ambulatorio|centro de salud|hinch*|reaccion|garganta|ronchas|urticaria|picor|respirar|ambulancia|112|urgencias|hospital|pastilla|inyeccion|adrenalina|dolor*|tripa|barriga|vomit*|hecha polvo|hecho polvo|dias|medico|antihistaminic*|cara como un globo|sarpullido" },
    ],
    notGuards: ["no tiene barandilla", "sin barandilla", "sin socorrista", "ni guantes", "nada mas", "ni una disculpa", "ni me", "ni nos", "ni se", "sin poder", "sin avisar", "sin decir", "sin lavar", "sin guantes", "sin una disculpa", "no quedaba", "no habia nadie",
      "no exagero", "sin exagerar", "no era nuestro|nuestra|mio|mia", "no eran nuestros|nuestras", "nunca habia visto|visto", "nunca he visto|estado|pasado", "nunca me habia", "si te gusta|gustan", "si quieres"],
    guards: ["no", "ni", "sin", "nada", "nadie", "nunca", "ningun", "ninguna", "miedo", "temia", "pensaba", "suerte", "rastro", "esperaba", "si"],
    hearsay: ["resenas", "resena", "leido", "lei", "dicen", "decian", "comentarios", "cuentan", "historias", "rumores", "opiniones", "fotos", "google"],
    exclude: ["bicho raro", "una ratonera", "mala leche", "malo de narices", "tomar el pelo", "tomando el pelo", "toman el pelo", "por los pelos", "pelos y senales", "mosca detras de la oreja", "mosca detras", "pedir la cucaracha", "la cucaracha el chupito", "chupito", "fiebre del sabado", "como un cristal", "como el cristal", "su gusanito", "gusanito en el fondo", "gusano del mezcal", "chapulines", "escamoles", "vetas de moho", "vetas verdes", "picaduras de mosquito", "picaduras de mosquitos", "de mosquito", "mosquitos"],
  },
  de: {
    concepts: {
      illness: [
        ...words("montezuma*|kalter schweiß|kalter schweiss|speiübel|speiuebel|kreislauf im keller|seele aus dem leib|darminfektion|lag zitternd"),
        ...words("lebensmittelvergiftung*|vergiftung|erbrochen|übergeben|kotzen|gekotzt|durchfall|brechdurchfall|übelkeit|magen darm|magendarm|bauchkrämpfe|krämpfe|fieber"),
        "krank geworden|gewesen", "krankgeschrieben", "magenschmerzen|bauchschmerzen", "über der kloschüssel", "nacht auf dem klo", "notaufnahme", "krankenhaus",
        "gesundheitsamt", "gebrochen", "flachgelegen", "nicht bekommen", "will ich nicht beschreiben", "mir wird jetzt noch schlecht", "salmonellen",
        ...words("bauchkrämpf*|magenkrämpf*|bauchschmerz*|magenschmerz*|bauchweh|magenweh|bauchgrummel*|magengrummel*|darmkrämpf*"),
        ...words("magenverstimmung|magen darm infekt|schüttelfrost|erbrechen|spucken|gespuckt|brechreiz|magenkrämpfe|darmgrippe|kotzerei"),
        "uns|mir|ihm|ihr|allen ging es|war schlecht|übel", "krank danach|geworden|nach", "die ganze nacht auf|über|im|gebrochen", "im krankenhaus|notaufnahme",
        ...words("gspieben|gespieben|auf der schüssel|überm klo|lag flach|lagen flach|kohletabletten|darmkur|nix mehr drin|nichts mehr drin|zum arzt|hausarzt|mulmig|schwindlig"),
        "halbe|ganze truppe|familie flach", "flach gelegen|gelegen",
        "danach|hinterher zwei|drei|mehrere tage probleme|beschwerden",
        ...words("emesis|exsikkiert|wässrige stühle|speibsackerl|krankheitstag|krankheitstage|co melder|abgasrohr|entkalker|nicht nachgespült|kein waschbecken|an der hose abgewischt|an der hose abwischt|bänderriss|platzwunde|gehirnerschütterung|geprellt"),
        ...words("nissen|kopfläuse|ohrenkneifer|mehlkäfer|käferle|zecke|zecken|silberfischchen|angelhakn|mit bloßen fingern|bloßen fingern|demselben holzbrett|demselben messer|ohne es abzuspülen"),
        ...words("noro|norovirus|noroviren|chotze|chotzä|hundsmiserabel|flitzekacke|dünnpfiff|durchmarsch|dünnschiss|scheißerei|bauchgrimmen|lahmgelegt|dauerlauf|penicillin"),
        ...words("krankenschein|bei mir behalten|bei mir gehalten|nichts drin behalten|schüttelfrost|kaltschweißig|magen darm"),
      ],
      vermin: [
        ...words("fellknäuel|köderbox*|nagespuren|giftköder|blattläuse|blattlaus|mückenlarven|larven|kammerjäger"),
        ...words("kakerlake*|schabe*|maus|mäuse|mäuseköttel|köttel|ratte|ratten|nager|bettwanze*|wanzen|maden|made|würmer|wurm|käfer|insekt*|ameise*|fliegen|larve*"),
        "hat sich was bewegt", "geraschelt", "stiche an",
        ...words("ungeziefer|befall|befallen|flöhe|läuse|milben|motten|silberfischchen|fruchtfliegen|mäusekot|rattenkot"),
        "fliege|wurm|käfer|insekt|made im|in der|auf dem", "was lebendiges",
        ...words("krabbelvieh|fühlern|langem schwanz|würmchen|gespinste|tierchen|zerstochen|flöh|flöhe|angeknabbert|angeknabberte|kot|rumhuscht|huscht|gehuscht"),
        "kleine schwarze|braune dinger|punkte|kügelchen|körnchen", "stiche in|am|an",
      ],
      foreign_object: [
        "haar im|in|zieht", "haare in|im", "ein langes haar", "glassplitter|glasscherbe*|keramiksplitter|splitter", "stück plastik|glas|metall|draht",
        "plastikstück*", "draht", "pflaster", "fingernagel", "schraube", "auf was hartes",
        ...words("scherbe|scherben|metallspan|metallspäne|drahtbürste|borste|frischhaltefolie|gummiband|zigarettenstummel|angelhaken|knochensplitter"),
        "haare im|in|auf", "ein haar", "haar dran|drin|drauf", "lang*|kurz*|dunkl*|blond*|schwarz*|kraus* haar", "stück glas|plastik|metall|draht|folie",
        ...words("stahlwolle|topfreiniger|metallborsten|borsten|faden|heftklammer|gelnagel|steinchen|nagel|stück vom rand"),
      ],
      hygiene: [
        ...words("mit der bloßen hand|mit bloßer hand|bloßen hand|verbrauchsdatum|benutztes kondom|kondom|halbgar"),
        "innen noch roh", "noch roh", "komplett roh", "roh in der mitte", "roh und", "schimmel*|verschimmelt*|schimmlig*", "pelzig", "abgelaufen*", "über dem datum",
        "verdorben*", "streng gerochen", "komisch gräulich", "verdreckte|fettverkrustete küche|herde", "ohne handschuhe", "ohne kühlung", "ungekühlt",
        "gelbe flecken", "bettwäsche war benutzt", "nicht gewechselt", "schleimig*", "bläschen", "roch sauer", "glibberig",
        ...words("vergammelt|vergammelte|gammelig|ranzig|ranzige|sauer geworden|blutflecken|urin|schimmelig|mindesthaltbarkeit|haltbarkeitsdatum"),
        "hähnchen|huhn|hühnchen|schwein|burger|fleisch innen|noch roh|rosa|blutig", "innen roh|gefroren|kalt", "küche war|sah dreckig|schmutzig|verdreckt|eklig|ekelhaft",
        "dreckige|schmutzige|verdreckte|eklige küche", "vom boden", "ohne hände zu waschen", "roch|schmeckte|riecht faul|vergammelt|ranzig|sauer", "schimmel am|im|an|auf",
        ...words("glasig|flockig|säuerlich|grünlich|grünen flaum|flaum|fettfäden|schmierig|blutfleck|blutflecken|feuchtem keller|schwarzer punkte|mit bloßen händen|dieselben finger"),
        ...words("denselben handschuhen|denselben fingern|ohne zange|nase gewischt|blutig rot|parfüm von jemand|fremdes haar|nicht frisch bezogen"),
        ...words("ohne händewaschen|ohne hände waschen|schwarz gesprenkelt|blaugrau*|graugrün*|nach faulen eiern|faule eier|kanalgestank|abwasser|fäkalien|übergelaufen|spritze|spritzen|benutzte nadel|blaugrün|pelz überzogen|eingetrocknetes blut"),
      ],
      allergy: [...words("allergische reaktion|allergisch reagiert|anaphylakt*|notfall pen|nesselsucht|quaddeln|atemnot|adrenalin|antihistaminika|zugeschwollen|hals zu|notfallset"), "nicht vertrage|verträgt", "sesamfrei|nussfrei|glutenfrei|laktosefrei"],
      injury: [
        ...words("verbrühung|feuerlöscher|angezündet|in flammen"),
        "brandblase", "gasgeruch", "zahn ausgebissen|abgebrochen", "an der lippe", "lippe|mund aufgeschnitten|geschnitten", "verbrüht|verbrannt an", "ausgerutscht",
        "stromschlag", "decke runtergekommen|eingestürzt", "kohlenmonoxid", "glasscherbe",
        ...words("nach gas|gas gerochen|backenzahn|zahn abgebrochen|stichflamme|angesengt|brandwunde|verbrüht|verbrennung|stiche genäht"),
      ],
    },

    pairs: [
      { hazard: "illness", a: "toilette|klo|wc|klos|schussel|kloschussel|porzellan|eimer|lokus|toiletten|badezimmer|hauschen|bad", b: "gependelt|weg|geschafft|statt|verbracht|verbringen|gehangen|hing|hingen|gerannt|rennen|rannte|die ganze nacht|den ganzen tag|alle|nicht runter|abwechselnd|nachsten tag|nachsten morgen|pendel*|im minutentakt|standig|dauernd", guarded: false },
      { hazard: "illness", a: "magen|bauch|darm|gedarm", b: "gestreikt|streik*|flau|grummel*|krampf*|krampfe|verdorben|rebell*|schmerz*|weh|verstimmt|rumort*|verruckt|drehte sich|umgedreht|in aufruhr", within: 4 },
      { hazard: "illness", a: "krank|flach|elend|kotz*|erbrech*|fieber|fiebrig|spuck*|gespuckt|ausgeknockt|schachmatt|bettlagerig|ausser gefecht", b: "nacht|in der nacht|am morgen|nachsten|danach|am tag danach|tage|tagen|sonntag|montag|samstag|wochenende|seitdem|zu hause|im bett|den ganzen|stunden spater|hinterher", within: 6 },
      { hazard: "foreign_object", a: "haargummi|haarnadel|stecknadel|nadel|knopf|hemdknopf|kronkorken|barthaar|munze|geldstuck|kontaktlinse|ohrstecker|kippe|fluppe|einweghandschuh|handschuh|schwamm|schwammchen|spulschwamm|plastiktute|plastikture|folie|kaugummi|holzspiess|zahnstocher|holzsplitter|stuck holz|haar|haare|harchen|nagel|fingernagel|heftpflaster|splitter|scherbe|scherben|draht|drahte|klammer|schraube|steinchen|ohrring|borste|borsten|feder|federn|kabelbinder|glasstuck|glasstuckchen|plastikteil|plastikfetzen", b: "spaghetti|eintopf|linseneintopf|zahne|radler|pizza|suppe|salat|reis|nudeln|pasta|burger|brotchen|brot|kuchen|torte|kaffee|latte|cappuccino|milchschaum|loffel|teller|essen|gericht|schnitzel|fleisch|fisch|sosse|sauce|kase|dessert|eis|getrank|bier|wein|cocktail|mund|zahnen|biss|gekaut|kauen|knirsch*|gefunden|gezogen|rausgezogen|gefischt|eingebacken|mitgebacken|drin|dran|klebte|steckte|sahne|geschluckt|runtergeschluckt|verschluckt|brezel|laugenbrezel|schnitzel|pommes|gulasch|eintopf|strudel|knodel|spatzle|omelett|ruhrei|mussli|musli|joghurt" },
      { hazard: "hygiene", a: "hahnchen|huhn|huhnchen|geflugel|schwein|schweinefleisch|schweinefilet|schweinebraten|kotelett|spiess|spiesse|bratwurst|wurstchen|frikadelle|pute|putenbrust|chicken|nuggets|hahnchenbrust|schnitzel vom schwein", b: "durchscheinend|in der mitte|rosa|roh|halbroh|glasig|blutig|gummiartig|durchsichtig|kalt in der mitte|nicht durch|nicht durchgegart|nicht gar|innen kalt" },
      { hazard: "hygiene", a: "laken|bettlaken|bettwasche|bettdecke|decke|kopfkissen|kissen|matratze|bezug|bettbezug|betttuch|kissenbezug|zudecke", b: "flecken|fleck|fleckig|haare|haar|blut|gelb*|rander|rand|schmutzig|dreckig|benutzt|ungewaschen|verschwitzt|urin|eingetrocknet*|nicht gewechselt|nicht frisch|roch nach|klebrig", within: 8 },
      { hazard: "hygiene", a: "kuche|koch|kochin|koche|abzugshaube|haube|fritteuse|herd|durchreiche|schneidebrett|grill", b: "fettschicht|fettverschmiert|dreck*|schmutz*|verkrust*|schmier*|lappen|nase|hose|armel|niest*|hust*|ohne handschuhe|rohes fleisch|rohem fleisch|gleichen brett|dasselbe brett|demselben brett|abfall|mull|raucht*|kippe|zigarette|kratzt*", within: 14 },
      { hazard: "hygiene", a: "schimmel|schimmelig|verschimmelt|stockflecken|stockfleck|belag|modrig|moder|schwarze punkte|schwarze flecken|pilz|pilzbefall", b: "bad|dusche|fuge|fugen|silikon*|silikonfuge|decke|wand|wande|fenster|zimmer|ecke|ecken|duschwanne|vorhang|duschvorhang|badewanne|kacheln|fliesen", within: 12 },
      { hazard: "hygiene", a: "fisch|fleisch|milch|sahne|joghurt|hahnchen|garnelen|muscheln|salat|brot|brotchen|kase|eier|ei|wurst|schnitzel|aufschnitt|hackfleisch|saft|sushi|austern|lachs|thunfisch|schinken", b: "hinuber|gebizzelt|sauer geschmeckt|sauerlich|grau|graulich|verfarbt|schmierig|schleimig|stank|stinkt|gestunken|gerochen|pelz|flaum|schimmel*|gammel*|faulig|verfault|fault|ranzig|gekippt|umgekippt|abgelaufen|verdorben|grunlich|ammoniak|geronnen|flockig|braunlich|hafenbecken|kanal|mull|verwes*", within: 8 },
      { hazard: "vermin", a: "schwanz|beine|beinen|fuhler|flugel|schwanzchen", b: "huscht*|gehuscht|rannte|lief|krabbel*|kroch|kam raus|kam heraus|rausgekrochen|flitzte|sauste|verschwand|kletter*", within: 6 },
      { hazard: "vermin", a: "raupe|raupen|schnecke|schnecken|wurmchen|tierchen|viecher|viech|krabbeltier*|getier", b: "salat|essen|teller|bett|zimmer|brot|obst|kase|gemuse|krabbel*|bewegt|lebendig|lebend|drin|im|in", within: 6 },
      { hazard: "vermin", a: "fliegen|fliege|wespe|wespen|ameisen|insekten|made|maden|wurm|kafer|kakerlake|schabe|spinne|spinnen|spinnchen", b: "steckte|halbe|saft|schorle|marmelade|konfiture|musli|mussli|suppe|schwamm|glas|getrank|kaffee|sosse|sauce|essen|buffet|kase|wurst|aufschnitt|kuchen|teller|salat|brot|obst|theke|vitrine|fruhstuck|sassen|krabbelten|uberall|in scharen|drauf|darauf", within: 6 },
      { hazard: "injury", a: "decke|deckenplatte|deckenverkleidung|putz|fliese|fliesen|lampe|regal|brocken|stuck|gelander|balkongelander|balkon|stuhl|bistrostuhl|verkleidung", b: "weggeknickt|runtergekracht|heruntergefallen|runtergefallen|eingesturzt|kam runter|kam herunter|fiel|herab|abgebrochen|nachgegeben|zusammengebrochen|gekracht|runter|wackel*|locker|lose", within: 12 },
      { hazard: "injury", a: "verbrannt|verbrannte|verbruht|verbruhte|brandblase*|verbrennung*|brandwunde*|heiss", b: "finger|hand|hande|arm|mund|zunge|lippe|lippen|haut|kind|tochter|sohn|kleine|kleinen|baby|bein|gesicht", within: 6 },
      { hazard: "injury", a: "steckdose|steckdosen|kabel|drahte|leitung|leitungen|stecker|ladegerat", b: "weggeschmort|verschmort|geknallt|gefunkt|blank|lose|locker|hing|hangt|raus|aus der wand|offen|funk*|stromschlag|gewackelt|wackelte|geschmort|geschmolzen|schlag|gesprungen", within: 12 },
      { hazard: "injury", a: "notausgang|notausgange|fluchtweg|fluchtwege|fluchttur|notausgangstur", b: "abgeschlossen|verschlossen|kette|zugestellt|blockiert|versperrt|kisten|bierkisten|zugesperrt", within: 10 },
      { hazard: "vermin", a: "taube|tauben|vogel|spatz|spatzen", b: "brotchen|auslage|theke|kuchen|pickt|angepickt|buffet", within: 10 },
      { hazard: "hygiene", a: "lappen|tuch|schwamm|putzlappen", b: "kloschussel|klo|toilette|wc|klobrille", within: 10 },
      { hazard: "hygiene", a: "hahnchen|huhn|geflugel|grillhahnchen|doner|gyros|hackfleisch|spiess", b: "in der sonne|ungekuhlt|klebrigen film|rotlich|styropor*", within: 14 },
      { hazard: "hygiene", a: "eiersalat|kartoffelsalat|nudelsalat|mayo|mayonnaise", b: "blubber*|prickel*|gegoren|garig|sprudel*|sauer", within: 8 },
      { hazard: "vermin", a: "juck*|knubbel*|quaddel*|pusteln|stiche|pickel*", b: "aufgewacht|morgens|bauch|rucken|beine|arme|bett|matratze|grupp*", within: 8 },
      { hazard: "injury", a: "fuss|fusse|fusssohle|fusssohlen|hand|finger|bein|zeh|zehen", b: "aufgeschnitten|blutete|scherben", within: 6 },
      { hazard: "hygiene", a: "whirlpool|pool|schwimmbad|sauna|jacuzzi|becken", b: "ausschlag|schleim*|pickel*|juck*|entzund*", within: 14 },
      { hazard: "hygiene", a: "fruhstucksei|eigelb|dotter|vollkornbrotchen|roggenbrot|toastbrot", b: "grau|graulich|schwefel|verfarbt|pelz|schimmel*|stank|gerochen|gammel*|faulig", within: 8 },
      { hazard: "hygiene", a: "loffel|kochloffel|schopfkelle", b: "ableckt|abgeleckt|leckt|wieder in den topf|zuruck in den topf", within: 12 },
      { hazard: "injury", a: "schrank|kleiderschrank|regal|heizpilz", b: "gekippt|entgegengekippt|umgekippt", within: 8 },
    ],
    reviewPairs: [
      { hazard: "allergy", a: "allergologen|lupinenallergie|mandelallergie|nussallergie|erdnussallergie|sesamallergie|senfallergie|eiallergie|milchallergie|fischallergie|sojaallergie|weizenallergie|allergi*|allergisch*|zoliakie|zoliakiker*|unvertraglich*|intoleranz|laktoseintoleran*|anaphyla*", b: "pfeifen|pusteln|rettungsdienst|station|flecken|husten|wurgen|notfallset|schlecht|ubel|elend|reaktion|hals|geschwollen|schwoll|quaddeln|ausschlag|juck*|atem*|notarzt|krankenwagen|rettungswagen|notaufnahme|krankenhaus|pen|spritze|adrenalin|tablette*|arzt|krampf*|bauch*|tage|gesicht|lippen|luft" },
    ],
    notGuards: ["nicht nur", "nicht mal", "nicht einmal", "nicht lange", "kein wort", "keine entschuldigung", "ohne ein wort", "ohne entschuldigung", "ohne zu fragen", "ohne haube", "ohne deckel", "ohne handschuhe", "ohne kuhlung",
      "ich ubertreibe nicht", "nicht ubertrieben", "kein witz", "nie so", "noch nie so", "noch nie eine|einen|ein", "wer gern|gerne"],
    guards: ["fast", "beinahe", "nicht", "kein", "keine", "keinen", "keiner", "keinem", "niemand", "nie", "nix", "nichts", "ohne", "angst", "bedenken", "befürchtet", "dachte", "glück", "zum glück", "wie bei"],
    hearsay: ["nachbarin", "nachbar", "leute", "bewertungen", "bewertung", "gelesen", "liest", "lesen", "bekannter", "bekannte", "meinte hier", "geschichten", "geschichte", "rezensionen", "angeblich", "gerüchte", "erzählt", "erzählen"],
    exclude: ["haare auf den zähnen", "zum kotzen", "krank vor", "krank vor warten", "ohne haken", "das haar in der suppe", "nagel auf den kopf", "brechend voll", "krank geworden vor", "wie ungeziefer", "wie dreck", "kotzen können", "könnte kotzen", "könnte ich kotzen", "edelschimmel", "schimmelkäse", "blauschimmel", "natürlich roh", "roh wie es sich gehört", "roh und so", "der wurm drin", "wurm drin"],
  },
};
