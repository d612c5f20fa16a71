import type { Language } from "./language";
import { insideAny, PatternSet, words } from "./patterns";
import { CATEGORIES, type Category } from "./taxonomy";
import { fold } from "./text";

/**
 * Category rules per language (patterns.ts syntax, written unfolded; they are folded when compiled).
 * `include`: a sentence part mentions the category when one of them matches; `exclude`: spans where
 * words of the category mean something else ("can't wait to come back" is not about waiting,
 * "preciosa" is not about prices), and matches inside them do not count.
 */
export interface CategoryRules {
  include: string[];
  exclude: string[];
}

const FOOD_EN = words(
  "food|foods|dish|dishes|meal|meals|menu|menus|cuisine|portion*|taste|tasted|tastes|tasting|tasty|flavo*|delicious|yummy|bland|tasteless|seasoning|seasoned",
  "overcooked|undercooked|cooked|burnt|soggy|stale|greasy|chewy|rubbery|crispy|juicy|tender|succulent|fresh|frozen|microwaved|lukewarm|inedible|spicy|salty|sweet",
  "breakfast*|brunch|lunch|dinner|supper|buffet|starter*|mains|dessert*|desserts|appetizer*|sides|snack*|takeaway|delivery",
  "pizza*|pasta|burger*|cheeseburger*|steak*|salad*|soup*|bread|breads|sourdough|roll|rolls|bun|buns|sandwich*|fries|chips|chicken|pork|beef|lamb|duck|veal",
  "fish|seafood|prawn*|shrimp*|mussel*|oyster*|scallop*|octopus|calamari|squid|salmon|tuna|cod|sushi|ramen|pho|noodle*|rice|curry|kebab*|taco*|wrap|wraps",
  "croissant*|cake*|pie|pies|pastr*|scone*|pancake*|waffle*|egg|eggs|bacon|sausage*|ham|cheese|tapas|paella|risotto|lasagne|lasagna|gnocchi|ravioli",
  "carbonara|brisket|tiramisu|pudding|chocolate|ice cream|gelato|bagel*|toast|porridge|granola|yoghurt|yogurt|fruit|veg|vegetables|mushroom*|gravy|sauce*",
  "coffee|coffees|latte*|cappuccino*|espresso*|flat white|tea|wine|wines|beer*|ale|ales|pint|pints|lager|cocktail*|drink|drinks|juice|smoothie*|margarita*",
  "chef|chefs|cook|cooks|cooking|recipe*|homemade|vegan|vegetarian|nachos|guacamole|naan|dumpling*|bao|falafel|hummus|quiche|nugget*|katsu|roast",
  "main course|side salad|side dish|hot chocolate|afternoon tea|tasting menu|set menu|spread",
);
const FOOD_ES = words(
  "comida|comidas|plato|platos|menu|menus|carta|racion*|porcion*|sabor*|sabia|sabian|sabe|sabroso*|rico|rica|ricos|ricas|riquisim*|delicios*|insipid*|soso|sosa",
  "cocin*|cocinero*|chef|receta*|casero*|casera*|crudo|cruda|quemad*|pasado|pasada|frio|fria|fria|congelad*|recalentad*|microondas|grasient*|jugos*|tierno|tierna|crujiente*",
  "desayuno*|almuerzo|comer|cena|cenar|brunch|buffet|bufe|tapa|tapas|pincho*|entrante*|primero|segundo|postre*|guarnicion|menu del dia|degustacion",
  "pizza*|pasta|hamburguesa*|burger|carne|carnes|filete|solomillo|chuleton|cachopo|pollo|cerdo|cordero|ternera|jamon|chorizo|pescado|marisco*|gamba*|langostino*",
  "mejillon*|ostra*|pulpo|calamar*|chipiron*|merluza|dorada|bacalao|atun|salmon|sushi|ramen|arroz|paella|fideos|ensalada*|ensaladilla|sopa*|crema|pan|bocadillo*",
  "tostada*|croissant*|bolleria|napolitana|churro*|tarta*|pastel*|flan|helado*|chocolate|huevo*|tortilla*|croqueta*|bravas|patatas|papas|queso*|lasana|nachos|guacamole",
  "cafe|cafes|cortado|infusion|te|vino|vinos|cerveza*|cana|canas|cocktail*|coctel*|copa*|bebida*|zumo*|sangria|vermut|albarino|agua|leche|yogur*|ceviche|taco*|tacos",
  "salsa*|verdura*|berenjena*|setas|lentejas|cocido|fabada|burrata|nigiri*|tartar|steak|kebab*|falafel|hummus|empanada*|arepa*|gazpacho|salmorejo|migas|fritura|frito*",
);
const FOOD_DE = words(
  "essen|gericht*|speise*|speisekarte|karte|menü|mahlzeit*|portion*|geschmack*|geschmeckt|schmeckt*|schmecken|lecker*|köstlich*|fad|fade|gewürzt|versalzen|roh",
  "küche|koch|köchin|köche|gekocht|verkocht|verbrannt|matschig|knusprig|saftig|zäh|trocken*|lauwarm|kalt|kalte|kalter|frisch*|tiefkühl*|aufback*|selbstgemacht|hausgemacht",
  "frühstück*|mittagessen|abendessen|mittagsmenü|brunch|buffet|vorspeise*|hauptgang|hauptspeise*|hauptgericht*|nachtisch*|dessert*|beilage*|halbpension",
  "pizza*|pasta|nudel*|burger*|schnitzel*|steak*|braten|schweinebraten|rinderbraten|haxe|schweinshaxe|ente|lamm|fleisch|fisch|lachs|zander*|forelle|sushi|ramen|pho",
  "döner*|dürüm|falafel|currywurst|wurst|würst*|bratwurst|weißwurst|pommes|kartoffel*|knödel|klöße|spätzle|käsespätzle|maultaschen|rösti|flammkuchen|gulasch*",
  "salat*|suppe*|brot|brötchen|brezel*|brezn|laugen*|kuchen|torte*|käsekuchen|croissant*|zimtschnecke*|franzbrötchen|waffel*|kaiserschmarrn|eis|ei|eier|rührei*",
  "käse*|muscheln|austern|garnele*|tatar|mett*|tapas|bowl*|taco*|curry|reis|soße|sauce|dressing|gemüse*|vegan*|vegetarisch*|fleischlos",
  "kaffee|cappuccino|latte|espresso|tee|wein|weine|weißwein|rotwein|bier|pils|helle|weizen|weißbier|maß|cocktail*|getränk*|saft|o saft|cola|aperol|sekt",
  "gericht|teller|kinderteller|dönerteller|geschnetzelt*|kalbsbäckchen|rouladen|jägerschnitzel|tiramisu|müsli|marmelade|joghurt",
);

export const CATEGORY_RULES: Record<Language, Record<Category, CategoryRules>> = {
  en: {
    food: { include: FOOD_EN, exclude: ["dinner party"] },
    service: {
      include: words(
        "service|staff|waiter*|waitress*|server|servers|host|hostess|bartender*|barista*|barman|barmen|sommelier|manager*|owner*|reception|receptionist*|concierge",
        "housekeeping|employee*|team|crew|friendly|unfriendly|rude|attentive|polite|impolite|helpful|unhelpful|welcom*|ignored|smiley|snooty|apolog*|shrugged",
        "front desk|front of house|table service|the desk|on the desk|checked on|check on|the lady|the lad|the guy|the girl|the boys|the girls|the woman|the man",
        "people on the desk|nobody on staff|no one came|nobody came|forgot|forgotten|wrong drinks|wrong order|owner|owners|brought out|told the waiter",
        "chef came out|came out himself|came out herself|she said|he said|they said|she told|he told|told us|told me|assured|insisted|promised us|promised me|admitted|lecture",
      ),
      exclude: [
        "self service",
        "server crashed",
        "service charge",
        "service added",
        "friendly prices",
        "dog friendly",
        "kid friendly",
        "family friendly",
      ],
    },
    price: {
      include: words(
        "price|prices|priced|pricey|pricing|expensive|cheap|cheaper|cheapest|overpriced|value|bargain|steal|affordable|overcharged|ripoff|charge|charged|charging",
        "cost|costs|costly|paid|pay|paying|quid|bucks|euros|pounds|dollars|money|penny|pennies|budget|discount|deal|bill|tip|extra|steep|robbery",
        "rip off|value for money|for what you pay|for what they charge|worth every penny|worth the money|service charge|service added|off the bill|comped",
      ),
      exclude: [
        "free wifi",
        "gluten free",
        "dairy free",
        "feel free",
        "free table",
        "extra mile",
        "extra onions",
        "rip off the",
        "priceless",
      ],
    },
    cleanliness: {
      include: words(
        "clean|cleaner|cleaned|cleaning|cleanliness|dirty|filthy|hygiene|hygienic|unhygienic|toilet|toilets|bathroom|bathrooms|restroom*|loo|sticky|smell*|stank|stink*",
        "odour|odor|cockroach*|roach|roaches|mice|mouse|rat|rats|droppings|mould|mold|mouldy|moldy|spotless|dust|dusty|grubby|grime|grimy|stain|stains|stained",
        "sheets|bedding|duvet|pillow|mattress|towel|towels|hairs|flies|bugs|bed bugs|bedbug*|crawling|grease|wiped|mop|mopped|soap|bin|bins|tidy|musty|damp|mess",
        "immaculate|gross|disgusting",
      ),
      exclude: [
        "glued to the toilet",
        "on the toilet",
        "turns in the bathroom",
        "to the toilet",
        "to the bathroom",
        "in the bathroom all",
        "dirt cheap",
        "by the toilets",
        "clean plates",
      ],
    },
    waiting_time: {
      include: words(
        "wait|waits|waited|waiting|slow|slowly|minutes|mins|min|hour|delay*|quick|quickly|fast|faster|fastest|prompt|promptly|queue*|speed|speedy|forever|ages",
        "took forever|took ages|took a while|took long|kept us waiting|in and out|on time|right away|straight away|in no time|took over|took nearly|a while",
      ),
      exclude: [
        "can't|cant|cannot|couldn't wait",
        "minutes|mins|min from|walk|away|drive|to",
        "hour drive|away",
        "happy hour",
        "fast food",
        "fast breakfast",
        "half an hour from",
      ],
    },
    ambience: {
      include: words(
        "ambience|ambiance|atmosphere|decor*|music|noisy|noise|loud|quiet|cozy|cosy|interior|terrace|view|views|lighting|lights|crowded|vibe*|seating|seats|booths",
        "cramped|packed|rammed|location|setting|garden*|gardens|pool|courtyard|fire|candles|character|charm*|rooftop|beach|harbour|harbor|river|sunset|canal|bay",
        "aircon|air con|heating|freezing|draughty|drafty|spacious|dining room|walls|bed|beds|comfy|comfortable|uncomfortable|dated|tiny|pretty|gorgeous",
        "place itself|pub itself|room itself|lobby|spa|sauna|wifi|table by the door|wobbly table|by the toilets|plants|chairs|old school|old-school|dog asleep",
      ),
      exclude: ["pretty good", "pretty bad", "small portion*", "tiny portion*", "small glass", "fire alarm"],
    },
  },
  es: {
    food: { include: FOOD_ES, exclude: [] },
    service: {
      include: words(
        "servicio|personal|camarer*|mesero*|mesera*|atencion|atendio|atendieron|atiende|encargad*|dueno*|duena*|recepcion|recepcionista*|sumiller|barman|trato",
        "amable*|maleducad*|groser*|atento*|atenta*|atentisim*|antipatic*|simpatic*|borde|majisim*|borde|despistad*|chico|chica|senora|el de|la de|nos atendio",
        "se disculpo|se disculparon|disculpa*|perdon|nadie paso|nadie se|pasan de ti|nos trato|nos trataron|nos hablo|nos cambio|nos metieron prisa|reclamacion",
        "nos dijo|nos dijeron|me dijo|me dijeron|nos aseguro|nos aseguraron|nos juro|nos juraron|le avise|le avisamos|le dije|le dijimos|lo dijimos|avisamos|el cocinero salio",
      ),
      exclude: ["servicio de habitaciones", "autoservicio", "area de servicio", "estacion de servicio"],
    },
    price: {
      include: words(
        "precio|precios|caro|caros|caras|carisim*|barato*|barata*|economic*|calidad precio|cuenta|pagar|pagamos|pague|pagas|pagado|cobr*|estafa|timo|abusiv*",
        "euro|euros|eur|pavos|dinero|sablazo*|clavaron|desorbitad*|suplemento|aparte|gratis|invita*|descuento|oferta|asequible|vale la pena|merece la pena|lo vale",
        "no tiene precio|bolsillo|coste|costo|cuesta|cuestan|cuestan|vale|valen|minibar|parking",
      ),
      exclude: [
        "precioso",
        "preciosa",
        "preciosos",
        "preciosas",
        "preciosidad",
        "cara dura",
        "la cara",
        "en la cara",
        "a la cara",
        "vale la pena esperar",
      ],
    },
    cleanliness: {
      include: words(
        "limpi*|sucio*|sucia*|suciedad|higiene|higienic*|bano|banos|aseo*|servicio de senoras|mugre|olor*|olia|huele|apesta*|cucaracha*|raton*|rata|ratas|cagarruta*",
        "moho|humedad|impecable*|polvo|manchas|mancha|sabana*|colchon|toalla*|pelos|moscas|bichos|bichitos|chinches|pegajos*|grasa|asqueros*|asco|servilletas por el suelo",
        "desague|moqueta|cortina",
      ),
      exclude: [
        "del bano",
        "al bano",
        "despegarnos del bano",
        "corriendo al bano",
        "huele a gloria",
        "huele de maravilla",
        "olor a pan",
      ],
    },
    waiting_time: {
      include: words(
        "espera|esperar|esperamos|esperando|esperado|tardaron|tardo|tardan|tarda|tardamos|minutos|minuto|hora|lento*|lenta*|lentisim*|rapid*|rapidisim*",
        "retraso*|cola|colas|enseguida|al momento|eterno|eterna|demora*|despacio|sin esperar|tres cuartos de hora|media hora|check in|volando|en nada",
      ),
      exclude: [
        "minutos andando|caminando|andado|en|a|de|del",
        "minutos a pie",
        "a cinco minutos",
        "a dos minutos",
        "a diez minutos",
        "hora punta",
        "comida rapida",
        "sin prisas",
      ],
    },
    ambience: {
      include: words(
        "ambiente|decoracion|decorado|musica|ruido*|ruidos*|acogedor*|terraza|vistas|vista|iluminacion|lleno|llenisim*|agobiante|tranquil*|silencioso|local|sitio|lugar",
        "ubicacion|situado|situada|habitacion|habitaciones|cama|camas|piscina|spa|patio|jardin*|playa|mar|puerto|montana|encanto|rustico|chulo|bonito|bonita",
        "precioso|preciosa|aire acondicionado|calor|horno|ventana|paredes|petad*|a tope|masificad*|espacio|sitio para sentarse|wifi|parking|moqueta|salon|comedor",
      ),
      exclude: ["sitio web", "ruido de tripas"],
    },
  },
  de: {
    food: { include: FOOD_DE, exclude: ["essen gegangen"] },
    service: {
      include: words(
        "service|bedienung*|kellner*|personal|mitarbeiter*|chef|wirt|wirtin|wirtsleute|wirtsleit|team|barkeeper|sommelier|rezeption|empfang|portier|nachtportier",
        "verkäufer*|filialleiter*|inhaber*|besitzer*|freundlich*|unfreundlich*|unhöflich*|aufmerksam*|unaufmerksam*|zuvorkommend*|herzlich*|pampig*|hilfsbereit*",
        "entschuldigt|entschuldigung|beschwerde*|beschwert|trinkgeld|hingeknallt|ignoriert*|die dame|der typ|die frau|der mann|die jungs|die kellnerin|bestellung",
        "meinte|meinten|versichert|behauptet|gesagt|hat gesagt|sagte|sagten|angegeben|hingewiesen",
      ),
      exclude: ["zimmerservice", "lieferservice", "servicepauschale"],
    },
    price: {
      include: words(
        "preis*|teuer*|günstig*|billig*|preiswert*|überteuert*|rechnung*|kosten|kostet|kostete|gekostet|bezahlt|bezahlen|zahlen|zahlt|abzocke*|wucher*|euro|eur|franken",
        "geld|cent|aufpreis|inkl|gratis|aufs haus|umsonst|happy hour|preis leistung*|preislich|happig|berechnet|gedeck|nachrechnen|gutschein",
      ),
      exclude: ["preisgekrönt*"],
    },
    cleanliness: {
      include: words(
        "sauber*|schmutzig*|dreckig*|verdreckt*|hygiene*|hygienisch*|toilette*|klo|klos|bad|badezimmer|wc|klebrig*|gestunken|stinkt|geruch*|gerochen|kakerlake*",
        "maus|mäuse|mäuseköttel|ratte*|schimmel*|verschimmelt*|blitzsauber*|blitzblank*|staub*|fleckig*|flecken|bettwäsche|bettwanze*|matratze|handtücher|haare",
        "fliegen|eklig*|ekelhaft*|abgewischt|muffig*",
      ),
      exclude: ["über der kloschüssel", "aufs klo", "auf dem klo", "toilettentür", "neben der toilette"],
    },
    waiting_time: {
      include: words(
        "warten|wartet|warte|gewartet|wartezeit*|minuten|stunde|langsam*|schnell*|zügig*|flott|fix|ruckzuck|verspät*|ewig*|dauert*|gedauert|geduld",
        "check in|schlange|endlich|nach einer stunde|halbe stunde|auf dem tisch",
      ),
      exclude: [
        "fünf minuten zur|zum|vom",
        "minuten zum|zur|vom|bis|zu|entfernt|fußweg",
        "5 min zum|zur",
        "schnell auf der",
        "sofort abgereist",
        "sofort ein anderes",
      ],
    },
    ambience: {
      include: words(
        "ambiente|atmosphäre|einrichtung*|eingerichtet|musik|live musik|laut*|leise|ruhig*|gemütlich*|ungemütlich*|urgemütlich*|urig*|terrasse*|dachterrasse|aussicht",
        "blick|beleuchtung*|kerzenlicht|voll|eng|stimmung*|stimmig*|dekor*|deko|lage|gelegen|zimmer|betten|matratze|klimaanlage|heizung|eiskalt|biergarten",
        "garten|spielplatz|spa|sauna|pool|wellness*|strand|promenade|see|berge|altstadt|marktplatz|holzbalken|hüttenzauber|tische|tisch an der tür|gezogen|zog es",
        "wlan|parkplatz|gewerbegebiet|disco|bässe|tapete|fenster|renovierungsbedürftig*|in die jahre",
      ),
      exclude: ["voll und ganz", "eng anliegend"],
    },
  },
};

const compiled = new Map<Language, { include: PatternSet<Category>; exclude: PatternSet<Category> }>();
function rulesOf(language: Language) {
  let c = compiled.get(language);
  if (!c) {
    const f = (p: string) => fold(p, language);
    const rules = CATEGORY_RULES[language];
    c = {
      include: new PatternSet(
        CATEGORIES.flatMap((category) => rules[category].include.map((p) => [f(p), category] as const)),
      ),
      exclude: new PatternSet(
        CATEGORIES.flatMap((category) => rules[category].exclude.map((p) => [f(p), category] as const)),
      ),
    };
    compiled.set(language, c);
  }
  return c;
}

/**
 * The categories a stretch of text mentions (folded tokens), in taxonomy order. A match inside an
 * exclusion span of its category ("can't wait to come back" for waiting, "fast food" for waiting)
 * does not count.
 */
export function categoriesOf(tokens: readonly string[], language: Language): Category[] {
  const { include, exclude } = rulesOf(language);
  const matches = include.all(tokens);
  if (matches.length === 0) return [];
  const excluded = exclude.all(tokens);
  const found = new Set<Category>();
  for (const m of matches)
    if (
      !insideAny(
        m,
        excluded.filter((x) => x.value === m.value),
      )
    )
      found.add(m.value);
  return CATEGORIES.filter((c) => found.has(c));
}
