import type { PhraseBank } from "./types";

export const de: PhraseBank = {
  openers: {
    positive: [
      "Was für eine tolle Entdeckung!",
      "Wir hatten einen wunderbaren Abend.",
      "Absolut empfehlenswert.",
      "Einer meiner Lieblingsorte in der Stadt.",
      "Wir haben hier Geburtstag gefeiert und es war super.",
    ],
    negative: [
      "Ein wirklich enttäuschender Besuch.",
      "Ich wollte es mögen, aber leider nein.",
      "Lohnt sich leider nicht.",
      "Wir kommen nicht wieder.",
      "Von Anfang bis Ende ärgerlich.",
    ],
    mixed: [
      "Licht und Schatten.",
      "Durchwachsen.",
      "Im Großen und Ganzen in Ordnung.",
      "Ganz okay, aber nichts Besonderes.",
    ],
  },
  aspects: {
    food: {
      positive: [
        "Das Essen war köstlich und sehr aromatisch.",
        "Jedes Gericht kam frisch und perfekt gegart.",
        "Das Schnitzel war das beste seit Jahren.",
        "Große Portionen und hervorragende Zutaten.",
      ],
      negative: [
        "Das Essen war fade und lauwarm.",
        "Mein Steak war zäh und trocken.",
        "Der Fisch war alles andere als frisch.",
        "Winzige Portionen ohne jeden Geschmack.",
      ],
    },
    service: {
      positive: [
        "Das Personal war freundlich und aufmerksam.",
        "Unser Kellner war charmant und hat uns toll beraten.",
        "Der Service war schnell und professionell.",
        "Das Team hat uns sehr herzlich empfangen.",
      ],
      negative: [
        "Das Personal war unhöflich und hat uns ignoriert.",
        "Der Kellner hat die Hälfte der Bestellung vergessen.",
        "Der Service war langsam und unfreundlich.",
        "Die Gäste scheinen hier niemanden zu interessieren.",
      ],
    },
    price: {
      positive: [
        "Die Preise sind für die Qualität sehr fair.",
        "Super Preis-Leistungs-Verhältnis.",
        "Günstig und jeden Euro wert.",
        "Das Mittagsmenü ist ein Schnäppchen.",
      ],
      negative: [
        "Viel zu teuer für das, was man bekommt.",
        "Überteuert, und auf der Rechnung standen Extrakosten.",
        "Die Preise sind reine Abzocke.",
        "Für so kleine Teller viel zu teuer.",
      ],
    },
    cleanliness: {
      positive: [
        "Alles war blitzsauber, auch die Toiletten.",
        "Das Lokal ist sehr sauber und gepflegt.",
        "Saubere Tische und eine makellose Küche.",
      ],
      negative: [
        "Die Tische waren klebrig und schmutzig.",
        "Die Toilette war ekelhaft.",
        "Wir fanden ein Haar in der Suppe und der Boden war dreckig.",
      ],
    },
    waiting: {
      positive: [
        "Wir bekamen sofort einen Tisch.",
        "Das Essen kam in Windeseile.",
        "Keine Wartezeit, sogar am Samstag.",
      ],
      negative: [
        "Wir haben über eine Stunde auf das Essen gewartet.",
        "Allein die Speisekarte kam erst nach vierzig Minuten.",
        "Die Wartezeit auf einen Tisch war trotz Reservierung lächerlich.",
      ],
    },
    ambience: {
      positive: [
        "Gemütliche Atmosphäre mit schöner Musik.",
        "Die Terrasse ist bei Sonnenuntergang traumhaft.",
        "Schöne Einrichtung und entspannte Stimmung.",
      ],
      negative: [
        "Es war so laut, dass wir uns nicht unterhalten konnten.",
        "Der Raum war eng und stickig.",
        "Laute Musik und grelles Licht haben die Stimmung ruiniert.",
      ],
    },
    location: {
      positive: [
        "Tolle Lage in der Altstadt.",
        "Gut erreichbar, Parkplätze in der Nähe.",
        "Perfekte Lage direkt am Bahnhof.",
      ],
      negative: [
        "Schwer zu finden und keine Parkplätze.",
        "Die Gegend wirkt nachts unsicher.",
        "Der Eingang ist versteckt und schlecht ausgeschildert.",
      ],
    },
  },
  closers: {
    positive: [
      "Wir kommen bestimmt wieder!",
      "Sehr empfehlenswert.",
      "Fünf Sterne von mir.",
      "Wir freuen uns schon auf den nächsten Besuch.",
    ],
    negative: ["Finger weg.", "Nie wieder.", "Nicht zu empfehlen.", "Spart euch das Geld."],
  },
  replies: {
    thanks: [
      "Vielen Dank, {name}! Schön, dass es Ihnen gefallen hat.",
      "Liebe/r {name}, danke für die netten Worte, bis bald!",
      "Danke für Ihre Bewertung, {name}. Das ganze Team freut sich.",
    ],
    apology: [
      "{name}, es tut uns sehr leid, wir sprechen mit dem Team darüber.",
      "Danke für Ihr Feedback, {name}. Bitte melden Sie sich, damit wir es wiedergutmachen können.",
      "Wir entschuldigen uns, {name}. Das entspricht nicht unserem Anspruch.",
    ],
  },
  firstNames: [
    "Lena",
    "Jonas",
    "Hannah",
    "Lukas",
    "Marie",
    "Felix",
    "Laura",
    "Paul",
    "Anna",
    "Maximilian",
    "Sarah",
    "Tobias",
  ],
  lastNames: ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Becker", "Hoffmann", "Wagner", "Koch", "Richter"],
  months: [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
  ],
};
