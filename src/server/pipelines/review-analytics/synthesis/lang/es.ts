import type { NarrativeLanguage } from "./types";
import { isTopic, TOPIC_VOCABULARY } from "../../topic-vocabulary";

const CATEGORIES: Record<string, string> = {
  food: "comida",
  service: "servicio",
  price: "precio",
  cleanliness: "limpieza",
  waiting_time: "tiempo de espera",
  ambience: "ambiente",
};
const TEAMS: Record<string, string> = {
  kitchen: "cocina",
  front_of_house: "sala",
  management: "dirección",
  facilities: "instalaciones",
  operations: "operaciones",
};
const LEVELS = { high: "alto", medium: "medio", low: "bajo" } as const;
const TIMEFRAMES = { high: "próximas 2 semanas", medium: "próximos 30 días", low: "próximo trimestre" } as const;
const LANGUAGES: Record<string, string> = { en: "inglés", es: "español", de: "alemán" };
const WEEKDAYS = [
  "los lunes",
  "los martes",
  "los miércoles",
  "los jueves",
  "los viernes",
  "los sábados",
  "los domingos",
];
const METRICS: Record<string, string> = {
  reviews: "el número de reseñas",
  average_rating: "la valoración media",
  positive_pct: "el porcentaje positivo",
  negative_pct: "el porcentaje negativo",
  critical_reviews: "el número de reseñas con un problema de salud o seguridad",
};

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
// An unknown code stays as it is, with its underscores read as spaces: never "front_of_house".
const name = (names: Record<string, string>, code: string) => names[code] ?? code.replace(/_/g, " ");

/** Spanish: decimal comma, a thousands point from five digits (RAE), "48 %" with a no-break space. */
export const es: NarrativeLanguage = {
  code: "es",
  numbers: { group: ".", decimal: ",", groupFrom: 10_000, percent: "\u00a0%", locale: "es" },
  category: (c) => name(CATEGORIES, c),
  team: (t) => name(TEAMS, t),
  topic: (id) => (isTopic(id) ? TOPIC_VOCABULARY[id].label.es : id.replace(/_/g, " ")),
  level: (l) => LEVELS[l],
  timeframe: (l) => TIMEFRAMES[l],
  language: (code) => LANGUAGES[code] ?? code,
  unknown: "n/d",

  headlineRisk: (reviews, category, share) =>
    `${reviews.text} ${plural(reviews.n, "reseña", "reseñas")}: mayor riesgo en ${category} (${share} de menciones negativas)`,
  headlineCalm: (reviews, share) =>
    `${reviews.text} ${plural(reviews.n, "reseña", "reseñas")}: ${share} positivas, ninguna categoría con riesgo alto`,
  analysed: ({ place, from, to, reviews, reviewsIn, rating }) => {
    const others = place?.others ? ` y ${place.others.text} ${plural(place.others.n, "local más", "locales más")}` : "";
    const when = place ? `En ${place.name}${others}, de ${from} a ${to}` : `De ${from} a ${to}`;
    const avg = rating === null ? "sin valoraciones con estrellas" : `con una valoración media de ${rating} sobre 5`;
    return `${when} ${plural(reviews.n, "se analizó", "se analizaron")} ${reviews.text} ${plural(reviews.n, "reseña", "reseñas")} (${reviewsIn} leídas, sin duplicadas ni vacías), ${avg}.`;
  },
  shares: ({ positive, texts, negative, mixed }) =>
    `El ${positive} de los ${texts} textos es positivo, el ${negative} negativo${mixed ? ` y el ${mixed} mixto` : ""}.`,
  biggestRisk: ({ category, share, mentions, risk, team }) =>
    `El mayor riesgo está en ${category}: el ${share} de sus ${mentions} menciones son negativas (puntuación de riesgo ${risk} sobre 100); responsable: ${team}.`,
  strongest: ({ category, share, mentions, issues }) =>
    issues
      ? `El punto más fuerte es ${category}, con elogios en el ${share} de sus ${mentions} menciones, aunque también tiene ${issues.text} ${plural(issues.n, "incidencia grave", "incidencias graves")}.`
      : `El punto más fuerte es ${category}, con elogios en el ${share} de sus ${mentions} menciones.`,
  compared: (metric, now, went) => {
    const label = METRICS[metric] ?? metric;
    return went ? `${label} ${went.up ? "subió" : "bajó"} de ${went.before} a ${now}` : `${label} se mantuvo en ${now}`;
  },
  sinceRun: (run, parts) => `Desde la ejecución anterior de estos locales (${run}): ${parts.join(", ")}.`,
  critical: (reviews, mentions) =>
    `${reviews.text} ${plural(reviews.n, "reseña señala", "reseñas señalan")} un problema de salud o seguridad (${mentions.text} ${plural(mentions.n, "mención crítica", "menciones críticas")} en todas las categorías); ${plural(reviews.n, "requiere", "requieren")} atención inmediata.`,
  noCritical: "Ninguna reseña señala un problema de salud o seguridad.",
  sentiment: ({ positive, neutral, negative, mixed, compound }) =>
    `${positive.text} ${plural(positive.n, "texto es positivo", "textos son positivos")}, ${neutral.text} ${plural(neutral.n, "neutro", "neutros")}, ${negative.text} ${plural(negative.n, "negativo", "negativos")} y ${mixed.text} ${plural(mixed.n, "mixto", "mixtos")} (elogios y quejas de peso similar); la puntuación media de sentimiento es ${compound} en una escala de -1 a 1.`,
  reviewLanguage: (reviews, language) =>
    `${reviews.text} ${plural(reviews.n, "reseña está", "reseñas están")} en ${language}.`,
  stars: (high, low) =>
    `${high.text} ${plural(high.n, "reseña da", "reseñas dan")} 4 o 5 estrellas y ${low.text} ${plural(low.n, "da", "dan")} 1 o 2 estrellas.`,
  categoryLine: ({ category, share, mentions, positive, negative }) =>
    `${cap(category)}: aparece en el ${share} de los textos (${mentions} menciones), el ${positive} de ellas positivas y el ${negative} negativas.`,
  noCategories: "Ningún texto menciona una categoría de la taxonomía.",
  ratingTrend: (p) =>
    `La valoración media pasó de ${p.fromRating} (${p.fromMonth}) a ${p.toRating} (${p.toMonth}); la puntuación de sentimiento, de ${p.fromScore} a ${p.toScore}.`,
  worstMonth: (month, negative, reviews) =>
    `El mes con más textos negativos fue ${month} (${negative} de ${reviews.text} ${plural(reviews.n, "reseña", "reseñas")}).`,
  oneMonth: (month, rating) => `Todas las reseñas son de ${month}, con una valoración media de ${rating}.`,
  noDates: "Ninguna reseña tiene fecha de publicación.",
  peak: (weekday, time, reviews) =>
    `La mayoría de las reseñas se escriben ${WEEKDAYS[weekday]} a las ${time} UTC (${reviews.text} ${plural(reviews.n, "reseña", "reseñas")}).`,
  planLine: ({ team, timeframe, items }) =>
    `${cap(team)}, ${timeframe}: ${items.map((i) => `${i.subject} (acción ${i.priority})`).join(", ")}.`,
  topicAction: (topic, reviews) =>
    `${isTopic(topic) ? TOPIC_VOCABULARY[topic].action.es : topic}: ${plural(reviews.n, "lo menciona", "lo mencionan")} ${reviews.text} ${plural(reviews.n, "reseña", "reseñas")}`,
  keepStandards: "Mantener los estándares actuales: ninguna categoría tiene menciones negativas.",
  readNegative: (category, negative) =>
    `Leer con el equipo ${plural(negative.n, "la", "las")} ${negative.text} ${plural(negative.n, "mención negativa", "menciones negativas")} sobre ${category} y corregir lo que ${plural(negative.n, "señala", "señalan")}`,
  fixPhrases: (category, phrases) =>
    `Corregir lo que más repiten las quejas sobre ${category}: ${phrases.map((p) => `‘${p.phrase}’ (${p.reviews.text} ${plural(p.reviews.n, "reseña", "reseñas")})`).join(", ")}`,
  marketing: (category, share, quote) =>
    `Destacar ${category} (${share} de menciones positivas)${quote ? `, con las palabras de los clientes: "${quote}"` : ""}.`,
  collectMore: "Reunir más reseñas antes de elegir un enfoque de marketing.",
  priority: ({ category, level, score, negative }) =>
    `${cap(category)}: riesgo ${level} (puntuación ${score}; ${negative.text} ${plural(negative.n, "mención negativa", "menciones negativas")}).`,
  noPriorities: "Ninguna categoría tiene riesgo medio o alto; revisar los indicadores de seguimiento cada mes.",
  issueSummary: ({ issues, severity, category, share, mentions, praised }) =>
    `${issues.text} ${plural(issues.n, "incidencia", "incidencias")} ${severity === "critical" ? plural(issues.n, "crítica", "críticas") : plural(issues.n, "grave", "graves")} sobre ${category}; el ${share} de ${mentions} menciones son negativas${praised ? `, aunque el ${praised} son elogios` : ""}.`,
};
