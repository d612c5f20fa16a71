import type { LanguageLexicon } from "./types";

/**
 * German domain vocabulary on top of the ML-SentiCon lexicon shipped with `@nlpjs/lang-de`: the
 * words and set phrases of restaurant and hotel reviews (Germany, Austria, Switzerland), AFINN scale.
 * German inflects adjectives, so most entries are stems (*). Authored for this project.
 */
export const DE: LanguageLexicon = {
  words: {
    "ausgezeichnet*": 4, "hervorragend*": 4, "fantastisch*": 4, "wunderbar*": 4, "perfekt*": 4, super: 3, "toll*": 3, "klasse": 3,
    gut: 2, gute: 2, guten: 2, gutes: 2, guter: 2, "lecker*": 3, "köstlich*": 4, "frisch*": 2, "schmackhaft*": 3, "knusprig*": 1,
    "freundlich*": 2, "aufmerksam*": 2, "hilfsbereit*": 2, "nett*": 2, "herzlich*": 3, "professionell*": 2, "zuvorkommend*": 3, "lieb": 2, "liab": 2,
    "gemütlich*": 2, "urgemütlich*": 3, "schön*": 2, "angenehm*": 2, "ruhig*": 1, "sauber*": 2, "blitzsauber*": 3, "blitzblank*": 3, "gepflegt*": 2,
    "schnell*": 2, "zügig*": 2, "preiswert*": 2, "günstig*": 2, "fair*": 2, "angemessen*": 1, "empfehlenswert*": 3, "ruckzuck": 2,
    empfehlen: 3, empfehle: 3, "lieblings*": 3, "beste*": 3, "begeistert*": 3, "zufrieden*": 2, "wiederkommen": 2, "großzügig*": 2,
    "traumhaft*": 4, "traum": 3, "hammer": 3, "wahnsinn": 3, "genial*": 4, "grandios*": 4, "spitze": 3, "spitzenmäßig*": 4, "top": 3, "mega": 2,
    "geil*": 3, "knaller": 3, "highlight": 3, "gedicht": 3, "butterzart*": 3, "zart*": 2, "saftig*": 2, "herrlich*": 3, "wunderschön*": 4,
    "urig*": 2, "stimmig*": 2, "reichhaltig*": 2, "bemüht*": 1, "reibungslos*": 2, "empfehlung": 2, "fein*": 2, "feini": 3, "cool*": 2,
    "heimelig*": 2, "charmant*": 3, "entspannt*": 2, "hausgemacht*": 2, "selbstgemacht*": 2, "selbstgebacken*": 2, "ehrlich*": 1,
    "satt": 1, "belohnt": 2, "überrascht": 1, "überzeugt": 2, "passt": 2, "solide*": 1, "ordentlich*": 1, "modern*": 1, "gerne": 1, "gern": 1,
    "schlecht*": -3, "schrecklich*": -3, "furchtbar*": -3, "katastrophal*": -4, "ekelhaft*": -4, "eklig*": -4, "widerlich*": -4, "ungenießbar*": -4,
    "kalt*": -1, "lauwarm*": -2, "fad*": -2, "versalzen*": -2, "verbrannt*": -2, "matschig*": -2, "fettig*": -2, "zäh*": -2, "trocken*": -1,
    "pappig*": -2, "labbrig*": -2, "wässrig*": -2, "verkocht*": -2, "lieblos*": -2, "geschmacklos*": -3, "welk*": -2,
    "unfreundlich*": -3, "unhöflich*": -3, "arrogant*": -2, "pampig*": -3, "patzig*": -3, "langsam*": -2, "ignoriert*": -2, "unprofessionell*": -2,
    "überfordert*": -2, "unaufmerksam*": -2, "desinteressiert*": -2, "genervt*": -2, "unverschämt*": -4, "frech*": -3, "frechheit": -4,
    "schmutzig*": -3, "dreckig*": -3, "verdreckt*": -4, "verschmutzt*": -3, "klebrig*": -2, "stinkt": -3, "gestunken": -3, "muffig*": -2,
    "schimmel*": -3, "kakerlake*": -4, krank: -3, "lebensmittelvergiftung*": -4, "fleckig*": -2, "abgewohnt*": -2, "renovierungsbedürftig*": -2,
    "teuer*": -2, "überteuert*": -3, "wucher*": -3, "abzocke*": -4, "happig*": -1, "heftig*": -1, "laut*": -2, "eng": -1, "ungemütlich*": -2,
    "unbequem*": -2, "eiskalt*": -2, "zumutung": -4, "gewartet": -1, "wartezeit*": -1, "ewig*": -2, "verspätet*": -2, "verspätung*": -2,
    "enttäuscht*": -3, "enttäuschend*": -3, "enttäuschung*": -3, "mittelmäßig*": -2, "mittelmaß": -2, "durchschnittlich*": -1, "schlimmste*": -4,
    "schlechteste*": -4, "inakzeptabel*": -3, "beschwerde*": -2, "fehler*": -2, "falsch*": -2, "meiden": -3, "chaotisch*": -2, "winzig*": -1,
    "unterirdisch*": -4, "katastrophe": -4, "witz": -2, "lächerlich*": -3, "peinlich*": -3, "schade": -2, "leider": -1, "ärgerlich*": -3,
    "naja": -1, "lala": -1, "enttäuschte": -3, "unmöglich*": -2, "miserabel*": -4, "grottig*": -4, "mies*": -3, "übel*": -3, "dürftig*": -2,
    "kantinenniveau": -2, "aufback*": -1, "tiefkühl*": -1, "industrie*": -1, "verdorben*": -3, "minuspunkt": -1, "haken": -1, "problem*": -2,
    "grantig*": -2, "muffelig*": -2, "mürrisch*": -2, "schlampig*": -3, "nachlässig*": -2, "fertigprodukt*": -2, "schmuddelig*": -2, "abgestanden*": -2,
  },
  idioms: {
    "was will man mehr": 3, "nichts|nix zu meckern": 3, "kann man nicht meckern": 3, "da kann man nicht meckern": 3, "gibt nichts|nix zu meckern": 3,
    "preis leistung stimmt": 3, "preis leistung top": 3, "preis leistungs verhältnis": 1, "der hammer": 3, "ein traum": 4, "erste sahne": 4,
    "gerne wieder": 3, "gern wieder": 3, "komme|kommen bestimmt|gerne|sicher wieder": 3, "immer wieder gerne": 4, "absolut empfehlenswert": 4,
    "jeden cent wert": 4, "auf hohem niveau": 1, "wie bei oma": 3, "wie bei muttern": 3, "so muss das": 3, "wie es sein muss": 3, "passt scho": 2,
    "lässt keine wünsche offen": 4, "ließ keine wünsche offen": 4, "liess keine wünsche offen": 4, "nichts auszusetzen": 3, "nie was auszusetzen": 3,
    "kann man machen": 1, "nicht schlecht": 2, "gar nicht schlecht": 3, "nicht übel": 2, "positiv überrascht": 3, "sollte verboten sein": 3,
    "geht gar nicht": -4, "nie wieder": -4, "niemals wieder": -4, "nicht wieder": -3, "nicht zu empfehlen": -4, "luft nach oben": -1,
    "nicht gerade freundlich": -3, "null bock": -3, "schade ums geld": -4, "ein witz": -3, "geht anders": -2, "freundlich geht anders": -3,
    "gemütlich ist anders": -2, "lecker war was anderes": -3, "danke für nix|nichts": -3, "danke auch": -2, "hoch drei": -1,
    "zäh wie schuhsohle": -3, "wie ne schuhsohle": -3, "wie eine schuhsohle": -3, "fader beigeschmack": -2, "den abend verdorben": -3,
    "nicht mehr und nicht weniger": 0, "muss man aber nicht": -1, "eher so lala": -1, "so lala": -1, "ganz ok": 0, "ganz okay": 0,
    "in die jahre gekommen": -2, "zog es wie hechtsuppe": -2, "kein bisschen": -1, "na super": -2, "ganz toll": 0, "bravo": 0,
    "ohne jede schärfe": -2, "ohne geschmack": -2, "ohne liebe": -2, "nach pappe": -2, "aus dem eimer": -2, "aus der tüte": -2, "aus der dose": -2, "trübt das bild": -2, "trüben das bild": -2, "der knaller": 3, "ein gedicht": 4, "zum niederknien": 4, "der wahnsinn": 3, "a wahnsinn": 3,
  },
  negators: ["nicht", "nich", "kein", "keine", "keinen", "keiner", "keinem", "keines", "nie", "niemals", "nichts", "nix", "ohne", "kaum", "niemand", "weder", "null"],
  intensity: {
    sehr: 1.5, wirklich: 1.4, extrem: 1.8, total: 1.5, super: 1.5, absolut: 1.6, echt: 1.4, äußerst: 1.7, besonders: 1.3, so: 1.3, richtig: 1.4,
    mega: 1.6, voll: 1.3, sau: 1.5, einfach: 1.2, unglaublich: 1.7, ziemlich: 1.2, zu: 1.2, viel: 1.2, überaus: 1.6, wahnsinnig: 1.7, "sowas": 1.3,
    etwas: 0.6, bisschen: 0.6, bissl: 0.6, leicht: 0.6, eher: 0.7, fast: 0.6, halbwegs: 0.6, recht: 1.1, relativ: 0.8,
  },
  adversative: ["aber", "allerdings", "jedoch", "trotzdem", "dagegen", "leider", "doch", "dennoch"],
  concessive: ["obwohl", "zwar", "auch wenn", "obgleich", "wenngleich"],
  lukewarm: [
    "ganz ok|okay", "war ok|okay", "kann man machen", "kann man mal machen", "nichts besonderes", "durchschnitt*", "mittelmass*", "mittelmaß*",
    "geht so", "naja", "nicht der rede wert", "weder noch", "passt schon", "nichts weltbewegendes", "nichts aufregendes", "wie erwartet",
    "nicht mehr und nicht weniger", "solide", "in ordnung", "unspektakular", "unspektakulär", "nichts herausragendes", "ohne besonderheiten",
  ],
};
