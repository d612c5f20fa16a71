import type { Counted } from "./types";

// The sentences of the report's "How the places compare" section in each report language. As in the
// narrative's templates, the writer (place-section.ts) decides what to say and cites every figure; a
// language only says it, with the figures already written in its number style.

/** A place as a sentence names it, with a figure already written. */
export interface NamedFigure {
  place: string;
  score: string;
  mentions: Counted;
}

/** The section's templates in one language. */
export interface CompareLanguage {
  /** The places compared, each with its reviews and average rating (null: no stars). */
  intro(places: { place: string; reviews: Counted; rating: Counted | null }[]): string;
  /** What a score is (no figures). */
  readonly scoreNote: string;
  /** A category's leader and the others with enough mentions, best first. */
  categoryLine(category: string, leader: NamedFigure, others: NamedFigure[]): string;
  /** The categories where the best and the worst place are furthest apart. */
  gaps(
    items: { category: string; best: { place: string; score: string }; worst: { place: string; score: string } }[],
  ): string;
  /** No category has enough mentions at two places to be compared. */
  readonly tooFew: string;
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const list = (items: string[], and: string) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`;

const en: CompareLanguage = {
  intro: (places) =>
    `Compared: ${list(
      places.map(
        (p) =>
          `${p.place} (${p.reviews.text} ${plural(p.reviews.n, "review", "reviews")}${p.rating ? `, ${p.rating.text} ${plural(p.rating.n, "star", "stars")}` : ""})`,
      ),
      "and",
    )}.`,
  scoreNote:
    "A category's score is the share of its positive mentions minus the share of its negative ones, in points.",
  categoryLine: (category, leader, others) =>
    `${cap(category)}: ${leader.place} leads with a score of ${leader.score} (${leader.mentions.text} ${plural(leader.mentions.n, "mention", "mentions")}), ahead of ${list(
      others.map(
        (o) => `${o.place} with ${o.score} (${o.mentions.text} ${plural(o.mentions.n, "mention", "mentions")})`,
      ),
      "and",
    )}.`,
  gaps: (items) =>
    `Biggest ${plural(items.length, "gap", "gaps")}: ${items.map((g) => `${g.category} (${g.best.place} ${g.best.score}, ${g.worst.place} ${g.worst.score})`).join("; ")}.`,
  tooFew: "No category has enough mentions at two places to compare them yet.",
};

const es: CompareLanguage = {
  intro: (places) =>
    `Se comparan: ${list(
      places.map(
        (p) =>
          `${p.place} (${p.reviews.text} ${plural(p.reviews.n, "reseña", "reseñas")}${p.rating ? `, ${p.rating.text} ${plural(p.rating.n, "estrella", "estrellas")}` : ""})`,
      ),
      "y",
    )}.`,
  scoreNote:
    "La puntuación de una categoría es la proporción de sus menciones positivas menos la de sus menciones negativas, en puntos.",
  categoryLine: (category, leader, others) =>
    `${cap(category)}: ${leader.place} va en cabeza con una puntuación de ${leader.score} (${leader.mentions.text} ${plural(leader.mentions.n, "mención", "menciones")}), por delante de ${list(
      others.map(
        (o) => `${o.place} con ${o.score} (${o.mentions.text} ${plural(o.mentions.n, "mención", "menciones")})`,
      ),
      "y",
    )}.`,
  gaps: (items) =>
    `${plural(items.length, "Mayor diferencia", "Mayores diferencias")}: ${items.map((g) => `${g.category} (${g.best.place} ${g.best.score}, ${g.worst.place} ${g.worst.score})`).join("; ")}.`,
  tooFew: "Ninguna categoría tiene todavía suficientes menciones en dos locales para compararlos.",
};

const de: CompareLanguage = {
  intro: (places) =>
    `Verglichen werden: ${list(
      places.map(
        (p) =>
          `${p.place} (${p.reviews.text} ${plural(p.reviews.n, "Bewertung", "Bewertungen")}${p.rating ? `, ${p.rating.text} ${plural(p.rating.n, "Stern", "Sterne")}` : ""})`,
      ),
      "und",
    )}.`,
  scoreNote:
    "Der Wert einer Kategorie ist der Anteil ihrer positiven Erwähnungen minus den Anteil ihrer negativen, in Punkten.",
  categoryLine: (category, leader, others) =>
    `${cap(category)}: ${leader.place} liegt vorn mit einem Wert von ${leader.score} (${leader.mentions.text} ${plural(leader.mentions.n, "Erwähnung", "Erwähnungen")}), vor ${list(
      others.map(
        (o) => `${o.place} mit ${o.score} (${o.mentions.text} ${plural(o.mentions.n, "Erwähnung", "Erwähnungen")})`,
      ),
      "und",
    )}.`,
  gaps: (items) =>
    `${plural(items.length, "Größter Unterschied", "Größte Unterschiede")}: ${items.map((g) => `${g.category} (${g.best.place} ${g.best.score}, ${g.worst.place} ${g.worst.score})`).join("; ")}.`,
  tooFew: "Noch hat keine Kategorie an zwei Orten genug Erwähnungen für einen Vergleich.",
};

/** The section's templates per report language. */
export const COMPARE_LANGUAGES = { en, es, de } as const;
