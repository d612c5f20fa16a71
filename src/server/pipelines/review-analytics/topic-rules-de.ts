import type { TopicRules } from "./topic-types";

// German complaint topics (topic-types.ts explains the rule syntax). Written from what guests
// commonly complain about, not from the evaluation set's wording (eval/topics/README.md).
// Compounds are common in German: stems (`*`) catch "Schnitzel*" and "Suppe*", but not "Tomatensuppe".

const FOOD =
  "essen|gericht*|speise*|teller|hauptgang|hauptgericht*|hauptspeise*|vorspeise*|nachspeise*|nachtisch|dessert*|suppe*|pizza*|pasta|nudel*|schnitzel*|steak*|burger*|pommes|fritten|fleisch|fisch|hähnchen|hühnchen|huhn|hendl|braten|kartoffel*|beilage*|salat*|soße|sosse|sauce|kaffee|tee|cappuccino|latte|frühstück*|brötchen|brot|kuchen|torte*|gemüse|reis|knödel|klöße|spätzle|wurst|würstchen|bratwurst|ei|eier|rührei|spiegelei*|omelett*|döner*|lasagne|curry|bowl|gulasch|rouladen|haxe|ente|lachs|forelle|garnelen|muscheln|bestellung|mittagessen|abendessen|menü|pfannkuchen|waffel*|croissant*|semmel*|leberkäse|maultaschen|flammkuchen|auflauf";
const MEAT =
  "fleisch|hähnchen|hühnchen|huhn|hendl|chicken|geflügel|schwein*|burger*|patty|steak*|hackfleisch|frikadelle*|bulette*|wurst|würstchen|bratwurst|ei|eier|fisch|lachs|schnitzel*";
const WAIT =
  "warten|wartet|warte|warteten|gewartet|wartezeit*|minuten|min|stunde|stunden|halbe stunde|dreiviertelstunde|ewig*|ewigkeit*|langsam*|schleppend|gedauert|dauerte|dauert|verspätet|verspätung|endlich|stehen lassen|rumstehen|herumstehen|stehen";
const ROOM_HEADS =
  "zimmer|bettwäsche|laken|bett|betten|kopfkissen|kissen|bettdecke|decke|teppich*|dusche|duschkabine|waschbecken|badewanne|wanne|handtuch|handtücher|matratze*|vorhänge|gardinen|möbel*|boden|wände|minibar|wasserkocher|apartment|appartement|ferienwohnung|suite|schrank|kleiderschrank|fliesen|fugen";
const TABLEWARE =
  "tisch|tische|tischplatte|glas|gläser|besteck|gabel*|messer|löffel|teller|tasse*|becher|geschirr|speisekarte*|karte|tablett*|serviette*|tischdecke*|hochstuhl|hochstühle|schüssel*|schale*";
const TOILETS =
  "toilette*|klo|klos|wc|wcs|sanitär*|waschraum|waschräume|herrentoilette*|damentoilette*|pissoir*|urinal*|örtchen|toilettenräume";

export const TOPIC_RULES_DE: TopicRules = {
  turns: ["aber", "jedoch", "obwohl", "allerdings", "sondern", "dafür", "wobei", "hingegen"],
  negators: ["nicht", "kein", "keine", "keinen", "keinem", "keiner", "nie", "niemals", "ohne", "null"],
  topics: {
    cold_food: [
      `kalt|kalte|kalter|kaltes|kalten|eiskalt|lauwarm|lauwarme|lauwarmer|lauwarmes|lau|abgekühlt|ausgekühlt|nur noch warm|kaum warm|nicht heiß|nicht richtig warm|nicht mal warm|nicht einmal warm|innen gefroren|noch gefroren|halb gefroren ~ ${FOOD}`,
    ],
    bland_food: [
      "fad|fade|fader|fades|faden|geschmacklos|geschmacklose|geschmackloser|geschmackloses|ungewürzt|ungewürzte|ohne geschmack|ohne würze|nach nichts|nach gar nichts|wässrig|wässrige|wässriger|labbrig|langweilig gewürzt|kaum gewürzt|null geschmack|kein geschmack|keinen geschmack|fehlte salz|fehlte würze|fehlte geschmack|fehlte es an würze|fehlte es an geschmack",
    ],
    overcooked_food: [
      "verkocht|verkochte|verkochter|verkochtes|zerkocht|zerkochte|verbrannt|verbrannte|verbrannter|verbranntes|angebrannt|angebrannte|angebrannter|verkohlt|verkohlte|schwarz gebraten|totgebraten|tot gebraten|durchgebraten statt|durch statt|zäh wie|wie leder|wie eine schuhsohle|wie schuhsohle|gummiartig|wie gummi|staubtrocken|knochentrocken|ausgetrocknet|pappig|matschig|matschige|verkocht",
      `trocken|trockene|trockener|trockenes|trockenen|zäh|zähe|zäher|zähes|zähen|hart|harte|harter|durchgegart statt ~ ${FOOD}`,
    ],
    undercooked_food: [
      "roh|rohe|roher|rohes|halbroh|halb roh|nicht durch|nicht durchgegart|nicht durchgebraten|nicht gar|nicht richtig gar|nicht richtig durch|noch blutig|innen rosa|innen roh|innen blutig|innen noch roh|innen noch rosa|glasig",
      `rosa|blutig ~ ${MEAT}`,
    ],
    stale_food: [
      "altbacken|altbackene|altbackenes|abgestanden|vom vortag|von gestern|vom tag davor|tage alt|ranzig|ranzige|sauer geworden|umgekippt|abgelaufen|abgelaufene|welk|welke|welker|schlapp|lätschert|vertrocknet|vertrocknete|mikrowelle|tiefkühlware|fertigware|aus der tüte|aus der dose",
      "nicht frisch|nicht mehr frisch|alles andere als frisch|wenig frisch|nicht ganz frisch",
      "schmeckte alt|schmeckte nicht frisch",
      `schimmel*|verschimmelt*|schimmlig*|alt|alte|alter|altes|alten|aufgewärmt|aufgewärmte|aufgetaut|aufgetaute ~ ${FOOD}`,
    ],
    small_portions: [
      `klein|kleine|kleiner|kleines|kleinen|winzig|winzige|winzigen|mickrig|mickrige|mickrigen|lächerlich|lächerliche|spärlich|spärliche|knapp|knappe|überschaubar|überschaubare|kinder ~ portion|portionen|portiönchen|menge|teller|beilage|beilagen`,
      "portionen sind ein witz|portion war ein witz|immer noch hunger|noch hunger|hungrig nach hause|hungrig raus|satt wird man nicht|nicht satt|kaum satt|zwei bissen|drei bissen|ein happen|homöopathische",
    ],
    foreign_object: [
      `haar|haare|glas|glassplitter|splitter|plastik|plastikteil|plastikstück|metall|draht|pflaster|fingernagel|nagel|wimper|klammer|knochen|knochensplitter|stein|schale|stück glas|stück plastik ~ ${FOOD}|bissen|mund`,
    ],
    food_poisoning: [
      "lebensmittelvergiftung|vergiftung|magen darm|magen-darm|durchfall|erbrechen|erbrochen|übergeben|übergab|gekotzt|kotzen|brechdurchfall|bauchschmerzen|bauchkrämpfe|magenschmerzen|magenkrämpfe|übelkeit|übel|schlecht geworden|krank geworden|krank|die ganze nacht auf dem klo|nacht auf der toilette",
    ],
    rude_staff: [
      "unfreundlich|unfreundliche|unfreundlicher|unfreundlichen|unhöflich|unhöfliche|unhöflicher|pampig|pampige|patzig|patzige|frech|freche|frecher|arrogant|arrogante|herablassend|herablassende|respektlos|respektlose|genervt|genervte|mürrisch|mürrische|grantig|grantige|grimmig|schnippisch|rotzig|ruppig|ruppige|barsch|angeschnauzt|anschnauzen|angeblafft|angepampt|angemotzt|angemault|angeschrien|angebrüllt|angefahren|angemacht|zurechtgewiesen|belehrt|beleidigt|beleidigend|abfällig|abweisend|unverschämt|unverschämte|unverschämter|unmöglich benommen|lustlos|lustlose|desinteressiert|schlechte laune|schlecht gelaunt|schlecht gelaunte|augen verdreht|augenrollen|die augen gerollt|kein danke|kein bitte|null freundlichkeit|keine freundlichkeit",
    ],
    inattentive_staff: [
      "ignoriert|ignorierte|ignorieren|übersehen|vergessen worden|vergessen wurden|vergaß uns|vergessen uns|unaufmerksam|unaufmerksame|unaufmerksamer|niemand kam|keiner kam|niemand hat|keiner hat|niemand fühlte sich|keiner fühlte sich|keiner zuständig|niemand zuständig|kam niemand|kam keiner|nicht beachtet|nicht bedient|nie bedient|nicht nachgefragt|nie nachgefragt|keiner hat nachgefragt|kein einziges mal|selbst an die theke|selbst zur theke|an die bar gehen|an der theke bestellen|hinterherlaufen|hinterher laufen|hinterherrennen|winken|gewunken|herbeiwinken|unterbesetzt|zu wenig personal|zu wenig bedienung|personalmangel|eine einzige bedienung|nur eine bedienung|mit dem handy|am handy|am quatschen|unterhielten sich",
      `[mehrmals/zweimal/dreimal/wiederholt/mehrfach] ~ gefragt|fragen|nachfragen|nachgefragt|bestellen|bestellt|gerufen|angesprochen|aufmerksam machen`,
    ],
    wrong_order: [
      "falsche bestellung|falsches essen|falsches gericht|falsche gericht|falschen gerichte|falsche getränk|falsches getränk|falsche getränke|falsche pizza|falschen burger|falsch geliefert|verwechselt|vertauscht|nicht das bestellte|nicht das was ich bestellt|nicht was ich bestellt|nicht was wir bestellt|nie bestellt|nie gekommen|nie kam|kam nie|nicht gekommen|kam gar nicht|vergessen|fehlte|fehlten",
      "statt [dem/der/des/den] _? _? [kam/bekam/bekamen/gab/wurde]",
      "[bestellt/bestellten/bestellte] _? _? _? [bekommen/bekam/bekamen/kam/gebracht/serviert]",
    ],
    high_prices: [
      "teuer|teure|teurer|teures|teuren|sauteuer|überteuert|überteuerte|überteuerten|überteuerter|abzocke|abgezockt|abzocker|wucher|wucherpreise|wucherpreis|apothekenpreise|apothekenpreis|unverschämte preise|gesalzen|gesalzene preise|happig|happige|stolze preise|stolzer preis|preislich daneben|preislich zu hoch|zu hoch angesetzt|unverhältnismäßig",
      "preis|preise|preisniveau|preis leistung|preis-leistung|preisleistung ~ hoch|zu hoch|überzogen|frech|unverschämt|absurd|lächerlich|übertrieben|happig|gesalzen|stimmt nicht|passt nicht|schlecht|mies|katastrophal|fragwürdig|daneben",
      "nicht sein geld wert|nicht das geld wert|nicht den preis wert|das geld nicht wert|den preis nicht wert|viel zu viel|zu viel geld",
    ],
    extra_charges: [
      "aufpreis|aufpreise|zuschlag|zuschläge|gedeck|gedeckpreis|servicepauschale|servicegebühr|servicegebühren|bearbeitungsgebühr|kartengebühr|extragebühr|extrakosten|zusatzkosten|versteckte kosten|versteckten kosten|kurtaxe|extra berechnet|extra bezahlt|extra bezahlen|extra kostet|extra kosten|kostet extra|kosteten extra|extra geld|zusätzlich berechnet|zusätzlich bezahlen|ungefragt berechnet",
      "berechnet|berechnen|verlangt|verlangen|kostet|kosteten|bezahlen|zahlen|extra ~ brot|butter|wasser|leitungswasser|karaffe|dip|dips|soße|sauce|ketchup|mayo|besteck|kartenzahlung|karte|terrasse|kinderteller|nachfüllen|eiswürfel|pro person|pro kopf",
    ],
    billing_error: [
      "zu viel berechnet|zu viel abgerechnet|doppelt berechnet|zweimal berechnet|doppelt abgebucht|falsche rechnung|rechnung falsch|rechnung war falsch|rechnung stimmte nicht|fehler auf der rechnung|fehler in der rechnung|falsch abgerechnet|falsches wechselgeld|falsch herausgegeben|nachrechnen",
      `rechnung|bon|kassenbon|abgerechnet|berechnet|abgebucht ~ nie bestellt|nicht bestellt|nicht gehabt|nie gehabt|zu viel|falsch|fehler|stimmte nicht`,
    ],
    dirty_toilets: [
      `schmutzig|schmutzige|schmutziger|dreckig|dreckige|dreckiger|verdreckt|verdreckte|eklig|eklige|ekelhaft|ekelhafte|widerlich|widerliche|siffig|verschmutzt|dreck|zumutung|katastrophe|katastrophal|verstopft|verstopfte|überschwemmt|überflutet|nass|kein papier|kein klopapier|kein toilettenpapier|keine seife|ohne seife|ohne papier|defekt|kaputt|gestunken|stank|stinkt|stinkend|uriniert|urin|nicht sauber|nicht gereinigt|ungepflegt|ungepflegte|unhygienisch|unhygienische ~ ${TOILETS}`,
    ],
    dirty_tables: [
      `schmutzig|schmutzige|schmutziges|schmutzigen|dreckig|dreckige|dreckiges|dreckigen|klebrig|klebrige|klebriger|klebriges|fettig|fettige|fleckig|fleckige|flecken|verschmiert|verschmierte|essensreste|reste|krümel|lippenstift|angetrocknet|angetrocknete|ränder|nicht abgewischt|nicht abgeräumt|nicht sauber|nicht gespült|ungespült|schlecht gespült|kalkflecken|fingerabdrücke ~ ${TABLEWARE}`,
      "nicht abgeräumt|niemand räumte|keiner räumte|nicht abgewischt|tisch nicht sauber",
    ],
    dirty_room: [
      `schmutzig|schmutzige|schmutziges|schmutzigen|dreckig|dreckige|dreckiges|dreckigen|verdreckt|fleckig|fleckige|flecken|staub|staubig|staubige|haare|haar|schimmel|schimmelig|schimmlig|verschimmelt|ungereinigt|nicht gereinigt|nicht sauber|nicht geputzt|nicht gemacht|ungeputzt|eklig|ekelhaft|krümel|blut|benutzt|benutzte|schmuddelig|schmuddelige|siffig|abgewohnt ~ ${ROOM_HEADS}`,
      "zimmerreinigung|reinigung des zimmers|zimmer wurde nicht|zimmer nicht gereinigt|zimmer nicht gemacht|sauberkeit lässt zu wünschen|sauberkeit ließ zu wünschen|sauberkeit mangelhaft|sauberkeit katastrophal",
    ],
    pests: [
      "kakerlake*|schabe*|maus|mäuse|ratte|ratten|mäusekot|rattenkot|kot|köttel|bettwanze*|wanzen|ameise*|made|maden|würmer|wurm|ungeziefer|befall|befallen|silberfisch*|flöhe|fliegen|fruchtfliegen|motten|wespen|insekten|insekt|viecher|käfer",
    ],
    bad_smell: [
      "gestank|gestunken|stank|stinkt|stinken|stinkend|stinkende|roch|riecht|rochen|riechen|geruch|gerüche|mief|müffelt|müffelte|muffig|muffige|muffiger|modrig|modriger|moder|kanalgeruch|abwassergeruch|uringeruch|rauchgeruch|zigarettengeruch|schimmelgeruch|übel riechend|übelriechend",
    ],
    wait_for_table: [
      `${WAIT} ~ tisch|einen tisch|platz|plätze|platziert|plaziert|setzen|gesetzt|hinsetzen|reservierung|reserviert|reservieren|am eingang|an der tür|an der theke|an der bar|draußen`,
      "tisch [war noch nicht/noch nicht/nicht/war nicht] [fertig/frei/bereit/gedeckt/vorbereitet]",
      "kein tisch frei trotz|trotz reservierung kein tisch|reservierung nicht gefunden|reservierung war weg",
    ],
    slow_food: [`${WAIT} ~ ${FOOD}|bestellt|bestellung|bestellten|küche|serviert|gebracht|kam|kamen|gekommen|brachte`],
    wait_for_bill: [
      `${WAIT}|gefragt|verlangt ~ rechnung|zahlen|bezahlen|bezahlt|kasse|kassieren|abkassieren|kartenterminal|kartenzahlung|bon`,
    ],
    long_queue: [
      "schlange|schlangen|warteschlange|anstehen|angestanden|anstellen|angestellt und|menschenschlange|schlange stehen",
      `${WAIT} ~ check in|check-in|einchecken|check out|auschecken|rezeption|empfang|theke|tresen|kasse|kassen|schalter|counter`,
    ],
    noise: [
      "laut|laute|lauter|lautes|lauten|ohrenbetäubend|lärm|lärmpegel|lärmend|krach|geräuschpegel|geräuschkulisse|geschrei|gegröle|grölen|dröhnend|dröhnte|wummern|wummernde|bässe|baulärm|straßenlärm|verkehrslärm|hellhörig|hellhörige|dünne wände|papierdünne wände|man hört alles|hörte man alles|hört man jedes|hörte man jedes",
      "[konnte/konnten/kann/könnte/man konnte] _? [sich nicht unterhalten/nicht reden/nicht unterhalten/sein eigenes wort nicht/nicht schlafen/kaum schlafen/kein auge zumachen/nicht verstehen]",
      "kein auge zugemacht|kein auge zu|an schlaf war nicht zu denken",
    ],
    room_temperature: [
      `kalt|eiskalt|saukalt|kühl|frostig|heiß|warm|brütend heiß|stickig|stickige|sauna|backofen|bullig|zugig|zugluft ~ gastraum|raum|räume|drinnen|innen|lokal|restaurant|saal|stube|zimmer|heizung|heizkörper|klimaanlage|klima|ventilator|fenster|jacke|jacken|mantel|mäntel`,
      `lief nicht|funktionierte nicht|funktioniert nicht|kaputt|defekt|ausgefallen|ging nicht|keine ~ heizung|heizkörper|klimaanlage|klima|ventilator|lüftung`,
      "heizung war aus|klimaanlage war aus|heizung aus|mit jacke essen|mit jacken gegessen|jacke anbehalten|jacken anbehalten|mantel anbehalten|mit mantel am tisch",
    ],
    cramped_seating: [
      "zu eng|sehr eng|viel zu eng|beengt|beengte|gequetscht|eingequetscht|eingepfercht|wie die sardinen|wie sardinen|aufeinander|dicht an dicht|ellbogen an ellbogen|auf dem schoß|kein platz|wenig platz|keine beinfreiheit|zu nah|zu dicht",
      `unbequem|unbequeme|unbequemen|unbequemer|hart|harte|harten|wackelig|wackelige|wackeligen|wacklig|wacklige|kaputt|kaputte|durchgesessen|winzig|winzige|eng|enge|niedrig|niedrige ~ stuhl|stühle|stühlen|sitz|sitze|sitzen|sitzbank|bank|bänke|hocker|barhocker|sofa|couch|sessel|tisch|tische|tischen|plätze`,
    ],
  },
  exclude: {
    cold_food: [
      "kalte getränke",
      "kaltes bier",
      "kalte [getränke/cola/limo/weinschorle/bier/biere/suppe/platte/vorspeise*/küche/gurkensuppe]",
      "eiskalte getränke",
      "eiskaltes bier",
      "kalter kaffee",
      "kaltes wasser",
      "kalt serviert wird",
      "warm empfohlen",
    ],
    bad_smell: [
      "[roch/riecht/rochen/geruch/duft/riechen] [gut/lecker/herrlich/toll/wunderbar/köstlich/fantastisch/super/nach frischem/nach kaffee/nach brot]",
      "riecht man schon",
    ],
    high_prices: [
      "nicht teuer",
      "gar nicht teuer",
      "nicht zu teuer",
      "preis leistung stimmt",
      "preis leistung passt",
      "preis-leistung stimmt",
      "preisleistung stimmt",
    ],
    pests: ["fliegen [wir/ihr/sie/nach/in den urlaub]", "wie im flug", "flug"],
    wrong_order: [
      "nie vergessen",
      "unvergessen",
      "vergessen sie",
      "nicht vergessen",
      "nie kam ein",
      "fehlte nichts",
      "fehlt nichts",
      "fehlte es an nichts",
      "fehlt es an nichts",
      "statt [dessen/zu/nur]",
    ],
    foreign_object: [
      "glas wein",
      "glas bier",
      "glas sekt",
      "glas wasser",
      "gläser",
      "glas prosecco",
      "ein glas",
      "im glas",
      "am knochen",
      "steinofen",
      "stein gebacken",
      "vom stein",
      "heißen stein",
      "heisser stein",
    ],
    stale_food: [
      "alte stadt",
      "altstadt",
      "alter hase",
      "alte schule",
      "altes haus",
      "alten zeiten",
      "alt eingesessen",
      "alteingesessen",
      "altbier",
      "alt bier",
      "alter mann",
      "alte dame",
      "alter freund",
      "jahre alt",
      "kalt und alt",
    ],
    overcooked_food: [
      "trockener wein",
      "trockener weißwein",
      "trockener riesling",
      "trockenen wein",
      "trockenes wetter",
      "hart arbeitend",
      "hart arbeiten",
      "hart gearbeitet",
    ],
    long_queue: ["keine schlange", "ohne schlange", "schlange lohnt", "anstehen lohnt"],
    rude_staff: ["frech gut", "frech lecker", "frechen preise"],
    extra_charges: ["ohne aufpreis", "kein aufpreis", "kostenlos", "ohne gedeck", "gedeckter tisch", "gedeckt"],
    noise: [
      "laut und deutlich",
      "laut sagen",
      "lautstark beschwert",
      "laut lachen",
      "lauter leckere",
      "lauter nette",
      "lauter junge",
      "lauter kleine",
      "lauter tolle",
    ],
    dirty_toilets: ["zum klo", "aufs klo", "zur toilette", "auf die toilette"],
    food_poisoning: [
      "krankheitsbedingt",
      "krank gemeldet",
      "kranke mitarbeiter",
      "übel nehmen",
      "nicht übel",
      "gar nicht übel",
      "nicht schlecht",
    ],
  },
};
