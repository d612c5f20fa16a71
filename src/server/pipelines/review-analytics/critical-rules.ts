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
export const CRITICAL_RULES: Record<Language, { concepts: Record<Hazard, string[]>; guards: string[]; exclude: string[] }> = {
  en: {
    concepts: {
      illness: [
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
      ],
      vermin: [
        ...words("cockroach*|roach|roaches|mouse|mice|rat|rats|rodent*|droppings|bedbug*|maggot*|larva*|larvae|weevil*|caterpillar*|worm|worms|slug|slugs|ants|termite*"),
        "bed bug|bugs", "bites in a line|row", "itchy red bites", "flies all over|everywhere|on|crawling", "fly in|on my", "something wriggling|moving|crawling",
        "things crawling", "still moving", "tiny flat brown bug", "insect*",
        ...words("vermin|pests|fleas|lice|mites|moths|silverfish|fruit flies|gnats|beetle|beetles|ant|critter|critters"),
        "dead fly|bug|insect|mouse|rat|cockroach", "a fly in|on", "bug in|on my", "bugs in|on the", "mouse|rat droppings", "something living|alive",
        ...words("long tail|pellets|scratching in the ceiling|scurrying|scurried|bites all over|reddish bugs|wormy|fruit fly|eggs in|nibbled|gnawed|nest|cobwebs in"),
        "something small|grey|gray|brown|black shot|ran|scuttled|darted", "bites on|all|in", "little white things", "tiny dark specks",
      ],
      foreign_object: [
        "hair in|on|wrapped|round|into", "hair _? into|in", "hair baked|stuck|cooked", "hairs in|on", "piece|bit|bits|shard|chunk|splinter|sliver|curl of _? glass|plastic|metal|wire|wood|bone",
        "glass in|shard", "blue plastic", "plaster in", "a plaster", "used plaster", "bandage", "band aid|aid", ...words("fingernail|nail clipping|false eyelash|eyelash|butcher's string|string tied|latex|glove|ceramic|chip of glass|shard|staple|stone|pebble"), "staple", "screw in",
        "something hard", "black bits", "little black bits",
        ...words("strand of hair|hair in my|hair in the|metal shaving|steel wool|bristle|cling film|plastic wrap|rubber band|cigarette butt|twist tie|fish hook"),
        "glass in|shard|splinter", "a piece|bit|chunk of _? glass|plastic|metal|wire|string", "found a|an _? _? in my|the",
      ],
      hygiene: [
        "raw|pink|red|bloody in the middle|centre|center", "raw|pink|red|bloody inside", "raw|pink|red|bloody at the bone", "still raw|red|pink", "properly raw", "pink and slimy", "chicken was|still pink|raw",
        "undercooked chicken|pork", "barely cooked eggs|chicken|pork", "mould|mold|mouldy|moldy|fuzzy", "out of date", "use by|use-by date", "past its|the date",
        "expired", "rotten", "spoiled|spoilt", "gone off", "smelled|smelt|tasted|smelling off", "smelled like ammonia", "fizzy and sour", "greenish sheen",
        "green bits", "grease dripping", "bin with no lid", "wiping his|her nose", "no gloves", "stained sheets|bedding", "yellow stains", "stains on the sheets|bedding|pillow",
        "hairs on the pillow", "damp bulge", "water dripping", "black mould|mold", "sheets hadn't been changed", "sheets had not been changed", "droppings",
        ...words("uncooked|not cooked through|rancid|curdled|sour milk|expiry date|sell by|best before|blood on the sheets|bloodstains|blood stains|urine"),
        "raw|pink|bloody|undercooked chicken|pork|burger|sausage*", "chicken|pork was|still raw|pink|bloody", "frozen|cold in the middle", "kitchen was|looked filthy|dirty|disgusting|greasy",
        "filthy|dirty|disgusting|greasy kitchen", "dropped it on the floor", "off the floor", "sneezed|coughed on|over", "without washing", "didn't wash",
        "handling money and food", "smelled|smelt|tasted rotten|rancid|sour", "mould|mold on|in", "green fuzz", "used condom", "needle",
        ...words("translucent|jelly like|jelly-like|came out in lumps|lumpy milk|smelled like the bins|puffed up|black fuzz|damp basement|makeup smudged|someone's sweat"),
        ...words("wiped his nose|wiped her nose|picked his nose|same gloves|bare hands|raw meat sat|uncovered raw|not washed since|hadn't been washed|not been washed"),
        "not safe", "out of date|expired|past date", "date on the side|packet|carton was", "gone dull|grey|green|brown",
      ],
      allergy: [...words("allergic reaction|anaphyla*|epipen|epi pen|hives|couldn't breathe|swollen lips|swollen throat|throat closing|antihistamine*|tongue tingling"), "react really|very badly", "asked|said for|no peanuts|nuts|dairy|gluten|shellfish|sesame"],
      injury: [
        "gas leak|smell", "chipped|cracked|broke a|my tooth", "burned|burnt|scalded my|his|her hand|mouth|tongue|arm", "mouth bleeding", "came down into", "fell on",
        "ceiling fell|collapsed", "cut my|his|her mouth|lip|tongue|gum", "slipped on", "electric shock", "exposed wires", "carbon monoxide", "broken glass",
        ...words("blister|blistered|scalded|scalding|cut on his lip|cut on her lip|cut on my lip|small cut|smell of gas|smelled of gas|gas smell|chunk of it came down"),
      ],
    },
    guards: [
      "no", "not", "never", "nobody", "didn't", "didnt", "wasn't", "wasnt", "without", "unlike", "luckily", "fortunately", "thankfully", "afraid", "scared",
      "worried", "expected", "expecting", "thought", "feared", "if", "or anything", "zero", "free of", "no sign of", "half expected", "read", "heard",
      "stories", "reviews", "nothing",
    ],
    exclude: ["sick of", "sick burger|burgers|beats|view|views|vibe|place", "pest control visit", "killer brunch|burger"],
  },
  es: {
    concepts: {
      illness: [
        ...words("intoxicacion|intoxicados|intoxicad*|vomit*|vomite|vomitos|vomitando|diarrea|diarreas|nauseas|fiebre|gastroenteritis|salmonela|salmonella|retortijon*"),
        "me|nos|se puse|pusimos|puso enferm*", "malo|mala del estomago", "dolor de estomago|barriga|tripa", "tripa revuelta", "corriendo al bano",
        "despegarnos del bano", "abrazados al vater|inodoro", "urgencias", "hospital", "mi estomago lo pago", "la noche en el bano",
        ...words("indigestion|malestar|gastro|descompuesto|descompuesta|me senti fatal|me sento fatal|escalofrios|devolviendo|devolvi|empache|cagalera"),
        "nos|me|le|les|la|lo sento|sentaron|puso|puse mal", "enferm* despues|despues|tras|al dia", "toda la noche con|en el bano|vomitando",
        "dolor|dolores de tripa|barriga|estomago|panza", "me|nos|le intoxique|intoxicamos|intoxico", "acabamos|acabe|terminamos en urgencias|el hospital",
        ...words("devolvio|devolvi|devolviendo|papilla|bano quimico|venganza de moctezuma|suero oral|farmacia de guardia|de baja|dos dias de baja|el medico|mareada|mareado|mareos"),
        "entre la cama y el vater|bano", "parando en todas las gasolineras", "toda la noche con|en el|entre",
      ],
      vermin: [
        ...words("cucaracha*|raton|ratones|rata|ratas|roedor*|cagarruta*|excrementos|chinche|chinches|gusano*|larva*|bicho|bichos|bichito*|insecto*|hormiga*|moscas|mosca"),
        "picaduras", "algo moviendose", "ruiditos en el techo",
        ...words("plaga|infestado|infestada|pulgas|piojos|polillas|gorgojos|escarabajo|escarabajos|lombriz"),
        "mosca|bicho|insecto|gusano en|dentro", "una mosca", "un bicho", "cagadas de raton|rata", "algo vivo", "bichos en la cama|el colchon|las sabanas",
        ...words("cucas|gusanitos|bolitas negras|excrementos|cola larga|mordisqueado|telaranas"),
      ],
      foreign_object: [
        "pelo en|largo|rizado", "un pelo", "pelos en", "trozo de cristal|plastico|metal|vidrio", "cristal en", "plastico duro", "una grapa|grapa",
        "un tornillo", "una tirita", "alambre", "astilla",
        ...words("cristales|anzuelo|film transparente|goma elastica|colilla|estropajo|cerda de|tirita|esparadrapo"),
        "trozo|pedazo|resto de cristal|plastico|metal|vidrio|alambre|papel", "pelo|pelos en la|el|mi", "un pelo en", "encontre|encontramos un|una _? en",
        ...words("trocito de vidrio|trocito de cristal|un hilo|guante de latex|pedazo de guante|borde desportillado"),
      ],
      hygiene: [
        "crudo|cruda por dentro", "pollo crudo|rosa", "rosa por dentro", "moho|mohoso*|enmohecid*", "caducad*", "podrid*", "pasada|pasado de fecha", "olor agrio",
        "olia|olian a podrido", "olor rarisimo", "yema verdosa", "leche cortada", "hinchado", "cocina asquerosa", "grasa por todas partes", "sin guantes",
        "manchas de sangre", "manchas amarillas", "sabanas con manchas", "aceite rancio", "sin refrigerar", "olian un poco raro", "no se habian abierto",
        ...words("en mal estado|estropeado|estropeada|agria|agrio|rancia|rancio|cortada|sabanas sucias|sabanas usadas|orina|sangre en"),
        "pollo|cerdo|hamburguesa crud*|rosa|sangrando", "crud* por dentro|en el centro|en medio", "congelad* por dentro", "cocina sucia|asquerosa|mugrienta|llena de grasa",
        "sin lavarse las manos", "del suelo", "estornud*", "olia|sabia|olian|sabian a podrido|rancio|agrio", "fecha de caducidad", "moho en",
        ...words("gelatinosa|gelatinoso|babosa|baboso|pelusilla|amoniaco|verdosos|verdosas|costra negra|trapo asqueroso|goteando|rascandose la nariz|sin lavarselas"),
        ...words("pelos rizados|mancha parda|negra verdosa|olia a sotano|fuera de la nevera|tono marronaceo|juguito rosado|nadie habia cambiado"),
      ],
      allergy: [...words("reaccion alergica|anafila*|urticaria|ronchas|garganta cerrada|antihistaminico|antihistaminicos|picar la garganta"), "labios hinchados", "adrenalina", "no podia respirar", "sin cacahuete|frutos secos|gluten|lactosa|marisco"],
      injury: [
        "fuga de gas", "olor a gas", "rompo|rompi|rompio una|un muela|diente", "me queme", "quemadura", "me corte|cortado el labio|la boca", "resbale|resbalo",
        "se cayo el techo", "descarga electrica", "cables pelados", "cristal roto",
        ...words("ampolla|quemo el brazo|quemo la mano|le quemo|corte en el labio|corte en la lengua|olia a gas|olor a gas|escayola|se desprendio"),
      ],
    },
    guards: ["no", "ni", "sin", "nada", "nadie", "nunca", "ningun", "ninguna", "miedo", "temia", "pensaba", "suerte", "rastro", "esperaba", "si", "resenas", "leido", "dicen"],
    exclude: ["bicho raro", "una ratonera", "mala leche", "malo de narices"],
  },
  de: {
    concepts: {
      illness: [
        ...words("lebensmittelvergiftung*|vergiftung|erbrochen|übergeben|kotzen|gekotzt|durchfall|brechdurchfall|übelkeit|magen darm|magendarm|bauchkrämpfe|krämpfe|fieber"),
        "krank geworden|gewesen", "krankgeschrieben", "magenschmerzen|bauchschmerzen", "über der kloschüssel", "nacht auf dem klo", "notaufnahme", "krankenhaus",
        "gesundheitsamt", "gebrochen", "flachgelegen", "nicht bekommen", "will ich nicht beschreiben", "mir wird jetzt noch schlecht", "salmonellen",
        ...words("magenverstimmung|magen darm infekt|schüttelfrost|erbrechen|spucken|gespuckt|brechreiz|magenkrämpfe|darmgrippe|kotzerei"),
        "uns|mir|ihm|ihr|allen ging es|war schlecht|übel", "krank danach|geworden|nach", "die ganze nacht auf|über|im|gebrochen", "im krankenhaus|notaufnahme",
        ...words("gspieben|gespieben|auf der schüssel|überm klo|lag flach|lagen flach|kohletabletten|darmkur|nix mehr drin|nichts mehr drin|zum arzt|hausarzt|mulmig|schwindlig"),
        "halbe|ganze truppe|familie flach", "flach gelegen|gelegen",
      ],
      vermin: [
        ...words("kakerlake*|schabe*|maus|mäuse|mäuseköttel|köttel|ratte|ratten|nager|bettwanze*|wanzen|maden|made|würmer|wurm|käfer|insekt*|ameise*|fliegen|larve*"),
        "hat sich was bewegt", "geraschelt", "stiche an",
        ...words("ungeziefer|befall|befallen|flöhe|läuse|milben|motten|silberfischchen|fruchtfliegen|mäusekot|rattenkot"),
        "fliege|wurm|käfer|insekt|made im|in der|auf dem", "eine tote fliege", "tote fliege|käfer|insekten", "was lebendiges",
        ...words("krabbelvieh|fühlern|langem schwanz|würmchen|gespinste|tierchen|zerstochen|flöh|flöhe|angeknabbert|angeknabberte|kot|rumhuscht|huscht|gehuscht"),
        "kleine schwarze|braune dinger|punkte", "stiche in|am|an",
      ],
      foreign_object: [
        "haar im|in|zieht", "haare in|im", "ein langes haar", "glassplitter|glasscherbe*|keramiksplitter|splitter", "stück plastik|glas|metall|draht",
        "plastikstück*", "draht", "pflaster", "fingernagel", "schraube", "auf was hartes",
        ...words("scherbe|scherben|metallspan|metallspäne|drahtbürste|borste|frischhaltefolie|gummiband|zigarettenstummel|angelhaken|knochensplitter"),
        "haare im|in|auf", "ein haar", "haar dran|drin|drauf", "lang*|kurz*|dunkl*|blond*|schwarz*|kraus* haar", "stück glas|plastik|metall|draht|folie",
        ...words("stahlwolle|topfreiniger|metallborsten|borsten|faden|heftklammer|gelnagel|steinchen|nagel|stück vom rand"),
      ],
      hygiene: [
        "innen noch roh", "noch roh", "komplett roh", "roh in der mitte", "roh und", "schimmel*|verschimmelt*|schimmlig*", "pelzig", "abgelaufen*", "über dem datum",
        "verdorben*", "streng gerochen", "komisch gräulich", "verdreckte|fettverkrustete küche|herde", "ohne handschuhe", "ohne kühlung", "ungekühlt",
        "gelbe flecken", "bettwäsche war benutzt", "nicht gewechselt", "schleimig*", "bläschen", "roch sauer", "glibberig",
        ...words("vergammelt|vergammelte|gammelig|ranzig|ranzige|sauer geworden|blutflecken|urin|schimmelig|mindesthaltbarkeit|haltbarkeitsdatum"),
        "hähnchen|huhn|hühnchen|schwein|burger|fleisch innen|noch roh|rosa|blutig", "innen roh|gefroren|kalt", "küche war|sah dreckig|schmutzig|verdreckt|eklig|ekelhaft",
        "dreckige|schmutzige|verdreckte|eklige küche", "vom boden", "ohne hände zu waschen", "roch|schmeckte|riecht faul|vergammelt|ranzig|sauer", "schimmel am|im|an|auf",
        ...words("glasig|flockig|säuerlich|grünlich|grünen flaum|flaum|fettfäden|schmierig|blutfleck|blutflecken|feuchtem keller|schwarzer punkte|mit bloßen händen|dieselben finger"),
        ...words("denselben handschuhen|denselben fingern|ohne zange|nase gewischt|blutig rot|parfüm von jemand|fremdes haar|nicht frisch bezogen"),
      ],
      allergy: [...words("allergische reaktion|allergisch reagiert|anaphylakt*|notfall pen|nesselsucht|quaddeln|atemnot|adrenalin|antihistaminika|zugeschwollen|hals zu|notfallset"), "nicht vertrage|verträgt", "sesamfrei|nussfrei|glutenfrei|laktosefrei"],
      injury: [
        "brandblase", "gasgeruch", "zahn ausgebissen|abgebrochen", "an der lippe", "lippe|mund aufgeschnitten|geschnitten", "verbrüht|verbrannt an", "ausgerutscht",
        "stromschlag", "decke runtergekommen|eingestürzt", "kohlenmonoxid", "glasscherbe",
        ...words("nach gas|gas gerochen|backenzahn|zahn abgebrochen|stichflamme|angesengt|brandwunde|verbrüht|verbrennung"),
      ],
    },
    guards: ["nicht", "kein", "keine", "keinen", "keiner", "keinem", "niemand", "nie", "nix", "nichts", "ohne", "angst", "bedenken", "befürchtet", "dachte", "glück", "zum glück", "wie bei", "leute", "bewertungen", "gelesen"],
    exclude: ["haare auf den zähnen", "zum kotzen", "krank vor", "krank vor warten", "ohne haken"],
  },
};
