/**
 * German sentiment lexicon, AFINN-style (-5..+5), authored for this project on the AFINN-111 scale
 * (see docs/pipelines.md, "Sentiment"). German inflects adjectives, so stems end in * (freundlich*
 * matches freundliche, freundlichen, ...).
 */
export const DE_LEXICON: Record<string, number> = {
  "ausgezeichnet*": 4, "hervorragend*": 4, "fantastisch*": 4, "wunderbar*": 4, "perfekt*": 4, "super": 3, "toll*": 3,
  gut: 2, "gute": 2, "guten": 2, "gutes": 2, "guter": 2, "lecker*": 3, "köstlich*": 4, "frisch*": 2, "schmackhaft*": 3,
  "freundlich*": 2, "aufmerksam*": 2, "hilfsbereit*": 2, "nett*": 2, "herzlich*": 3, "professionell*": 2, "zuvorkommend*": 3,
  "gemütlich*": 2, "schön*": 2, "angenehm*": 2, "ruhig*": 1, "sauber*": 2, "blitzsauber*": 3, "gepflegt*": 2,
  "schnell*": 2, "zügig*": 2, "preiswert*": 2, "günstig*": 2, "fair*": 1, "angemessen*": 1, "empfehlenswert*": 3,
  empfehlen: 2, "empfehle": 2, "lieblings*": 2, "beste*": 3, "begeistert*": 3, "zufrieden*": 2, "wiederkommen": 2, "großzügig*": 2,
  "schlecht*": -3, "schrecklich*": -3, "furchtbar*": -3, "katastrophal*": -4, "ekelhaft*": -4, "widerlich*": -4, "ungenießbar*": -4,
  "kalt*": -1, "lauwarm*": -1, "fad*": -2, "versalzen*": -2, "verbrannt*": -2, "matschig*": -2, "fettig*": -2, "roh*": -1, "zäh*": -2,
  "unfreundlich*": -3, "unhöflich*": -3, "arrogant*": -2, "langsam*": -2, "ignoriert*": -2, "vergessen*": -1, "unprofessionell*": -2,
  "schmutzig*": -3, "dreckig*": -3, "verschmutzt*": -3, "klebrig*": -2, "stinkt": -3, "gestunken": -3, "schimmel*": -3,
  "kakerlake*": -4, haar: -1, haare: -1, krank: -3, "lebensmittelvergiftung*": -4,
  "teuer*": -2, "überteuert*": -3, "wucher*": -3, "abzocke*": -3, "laut*": -2, eng: -1, enge: -1, "ungemütlich*": -2, "unbequem*": -2,
  "gewartet": -1, "warten": -1, "wartezeit*": -1, "ewig*": -2, "verspätet*": -2, "verspätung*": -2,
  "enttäuscht*": -2, "enttäuschend*": -2, "enttäuschung*": -2, "mittelmäßig*": -1, "schlimmste*": -3, nie: -1, "niemals": -1,
  "inakzeptabel*": -3, "beschwerde*": -2, "problem*": -2, "fehler*": -2, "falsch*": -2, "meiden": -2, "chaotisch*": -2, "winzig*": -1,
};

export const DE_NEGATORS = new Set(["nicht", "kein", "keine", "keinen", "keiner", "nie", "niemals", "nichts", "ohne", "kaum"]);
export const DE_BOOSTERS = new Set(["sehr", "wirklich", "extrem", "total", "super", "absolut", "echt", "äußerst", "besonders", "so"]);
