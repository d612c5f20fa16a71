import type { NarrativeLanguage } from "./types";
import { isTopic, TOPIC_VOCABULARY } from "../../topic-vocabulary";

const CATEGORIES: Record<string, string> = {
  food: "Essen",
  service: "Service",
  price: "Preis",
  cleanliness: "Sauberkeit",
  waiting_time: "Wartezeit",
  ambience: "Ambiente",
};
const TEAMS: Record<string, string> = {
  kitchen: "Küche",
  front_of_house: "Service-Team",
  management: "Geschäftsleitung",
  facilities: "Haustechnik",
  operations: "Betrieb",
};
const LEVELS = { high: "hoch", medium: "mittel", low: "niedrig" } as const;
const TIMEFRAMES = { high: "nächste 2 Wochen", medium: "nächste 30 Tage", low: "nächstes Quartal" } as const;
const LANGUAGES: Record<string, string> = { en: "Englisch", es: "Spanisch", de: "Deutsch" };
const WEEKDAYS = ["montags", "dienstags", "mittwochs", "donnerstags", "freitags", "samstags", "sonntags"];
const METRICS: Record<string, string> = {
  reviews: "die Zahl der Bewertungen",
  average_rating: "die Durchschnittsbewertung",
  positive_pct: "der Anteil positiver Texte",
  negative_pct: "der Anteil negativer Texte",
  critical_reviews: "die Zahl der Bewertungen mit einem Gesundheits- oder Sicherheitsproblem",
};

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
// An unknown code stays as it is, with its underscores read as spaces: never "front_of_house".
const name = (names: Record<string, string>, code: string) => names[code] ?? code.replace(/_/g, " ");

/** German: decimal comma, a thousands point from four digits, "48 %" with a no-break space (DIN 5008). */
export const de: NarrativeLanguage = {
  code: "de",
  numbers: { group: ".", decimal: ",", groupFrom: 1000, percent: "\u00a0%", locale: "de" },
  category: (c) => name(CATEGORIES, c),
  team: (t) => name(TEAMS, t),
  topic: (id) => (isTopic(id) ? TOPIC_VOCABULARY[id].label.de : id.replace(/_/g, " ")),
  level: (l) => LEVELS[l],
  timeframe: (l) => TIMEFRAMES[l],
  language: (code) => LANGUAGES[code] ?? code,
  unknown: "k. A.",

  headlineRisk: (reviews, category, share) =>
    `${reviews.text} ${plural(reviews.n, "Bewertung", "Bewertungen")}: größtes Risiko bei ${category} (${share} negativ)`,
  headlineCalm: (reviews, share) =>
    `${reviews.text} ${plural(reviews.n, "Bewertung", "Bewertungen")}: ${share} positiv, keine Kategorie mit hohem Risiko`,
  analysed: ({ place, from, to, reviews, reviewsIn, rating }) => {
    const others = place?.others
      ? ` und ${place.others.text} ${plural(place.others.n, "weiteren Ort", "weitere Orte")}`
      : "";
    const verb = plural(reviews.n, "wurde", "wurden");
    const when = place ? `Für ${place.name}${others} ${verb} von ${from} bis ${to}` : `Von ${from} bis ${to} ${verb}`;
    const avg = rating === null ? "ohne Sternebewertungen" : `mit einer Durchschnittsbewertung von ${rating} von 5`;
    return `${when} ${reviews.text} ${plural(reviews.n, "Bewertung", "Bewertungen")} analysiert (${reviewsIn} gelesen, Duplikate und leere entfernt), ${avg}.`;
  },
  shares: ({ positive, texts, negative, mixed }) =>
    `${positive} der ${texts} Texte sind positiv, ${negative} negativ${mixed ? ` und ${mixed} gemischt` : ""}.`,
  biggestRisk: ({ category, share, mentions, risk, team }) =>
    `Das größte Risiko liegt bei ${category}: ${share} der ${mentions} Erwähnungen sind negativ (Risikowert ${risk} von 100), zuständig: ${team}.`,
  strongest: ({ category, share, mentions, issues }) =>
    issues
      ? `Die größte Stärke liegt bei ${category}, gelobt in ${share} der ${mentions} Erwähnungen, mit allerdings auch ${issues.text} ${plural(issues.n, "schwerem Problem", "schweren Problemen")}.`
      : `Die größte Stärke liegt bei ${category}, gelobt in ${share} der ${mentions} Erwähnungen.`,
  compared: (metric, now, went) => {
    const label = METRICS[metric] ?? metric;
    return went ? `${label} ${went.up ? "stieg" : "sank"} von ${went.before} auf ${now}` : `${label} blieb bei ${now}`;
  },
  sinceRun: (run, parts) => `Seit dem vorigen Lauf für diese Orte (${run}): ${parts.join(", ")}.`,
  critical: (reviews, mentions) =>
    `${reviews.text} ${plural(reviews.n, "Bewertung meldet", "Bewertungen melden")} ein Gesundheits- oder Sicherheitsproblem (${mentions.text} kritische ${plural(mentions.n, "Erwähnung", "Erwähnungen")} über alle Kategorien); das braucht sofort Aufmerksamkeit.`,
  noCritical: "Keine Bewertung meldet ein Gesundheits- oder Sicherheitsproblem.",
  sentiment: ({ positive, neutral, negative, mixed, compound }) =>
    `${positive.text} ${plural(positive.n, "Text ist", "Texte sind")} positiv, ${neutral.text} neutral, ${negative.text} negativ und ${mixed.text} gemischt (Lob und Kritik etwa gleich gewichtet); der durchschnittliche Stimmungswert liegt bei ${compound} auf einer Skala von -1 bis 1.`,
  reviewLanguage: (reviews, language) =>
    `${reviews.text} ${plural(reviews.n, "Bewertung ist", "Bewertungen sind")} auf ${language}.`,
  stars: (high, low) =>
    `${high.text} ${plural(high.n, "Bewertung vergibt", "Bewertungen vergeben")} 4 oder 5 Sterne und ${low.text} ${plural(low.n, "vergibt", "vergeben")} 1 oder 2 Sterne.`,
  categoryLine: ({ category, share, mentions, positive, negative }) =>
    `${category}: in ${share} der Texte erwähnt (${mentions} Erwähnungen), davon ${positive} positiv und ${negative} negativ.`,
  noCategories: "Kein Text erwähnt eine Kategorie der Taxonomie.",
  ratingTrend: (p) =>
    `Die Durchschnittsbewertung ging von ${p.fromRating} (${p.fromMonth}) auf ${p.toRating} (${p.toMonth}); der Stimmungswert von ${p.fromScore} auf ${p.toScore}.`,
  worstMonth: (month, negative, reviews) =>
    `${month} hatte die meisten negativen Texte (${negative} von ${reviews.text} ${plural(reviews.n, "Bewertung", "Bewertungen")}).`,
  oneMonth: (month, rating) => `Alle Bewertungen stammen aus ${month}, mit einer Durchschnittsbewertung von ${rating}.`,
  noDates: "Keine Bewertung hat ein Veröffentlichungsdatum.",
  peak: (weekday, time, reviews) =>
    `Die meisten Bewertungen entstehen ${WEEKDAYS[weekday]} um ${time} UTC (${reviews.text} ${plural(reviews.n, "Bewertung", "Bewertungen")}).`,
  planLine: ({ team, timeframe, items }) =>
    `${team}, ${timeframe}: ${items.map((i) => `${i.subject} (Maßnahme ${i.priority})`).join(", ")}.`,
  topicAction: (topic, reviews) =>
    `${isTopic(topic) ? TOPIC_VOCABULARY[topic].action.de : topic}: ${reviews.text} ${plural(reviews.n, "Bewertung erwähnt", "Bewertungen erwähnen")} das`,
  keepStandards: "Die aktuellen Standards halten: Keine Kategorie hat negative Erwähnungen.",
  readNegative: (category, negative) =>
    negative.n === 1
      ? `Die ${negative.text} negative Erwähnung zu ${category} mit dem Team lesen und beheben, was sie nennt`
      : `Die ${negative.text} negativen Erwähnungen zu ${category} mit dem Team lesen und beheben, was sie nennen`,
  fixPhrases: (category, phrases) =>
    `Beheben, was die Beschwerden zu ${category} am häufigsten nennen: ${phrases.map((p) => `‘${p.phrase}’ (${p.reviews.text} ${plural(p.reviews.n, "Bewertung", "Bewertungen")})`).join(", ")}`,
  marketing: (category, share, quote) =>
    `Mit ${category} werben (${share} positiv)${quote ? `, in den Worten der Gäste: "${quote}"` : ""}.`,
  collectMore: "Mehr Bewertungen sammeln, bevor ein Marketing-Schwerpunkt gewählt wird.",
  priority: ({ category, level, score, negative }) =>
    `${category}: Risiko ${level} (Wert ${score}; ${negative.text} negative ${plural(negative.n, "Erwähnung", "Erwähnungen")}).`,
  noPriorities: "Keine Kategorie hat mittleres oder hohes Risiko; die Kennzahlen monatlich beobachten.",
  issueSummary: ({ issues, severity, category, share, mentions, praised }) =>
    `${issues.text} ${severity === "critical" ? plural(issues.n, "kritisches", "kritische") : plural(issues.n, "schweres", "schwere")} ${plural(issues.n, "Problem", "Probleme")} zu ${category}; ${share} von ${mentions} Erwähnungen sind negativ${praised ? `, aber ${praised} sind Lob` : ""}.`,
};
