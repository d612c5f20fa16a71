import type { ReplyLanguage } from "./types";
import { joinWith } from "./types";

// Names without articles, inside "zum Thema …" / "zu den Themen …", so no case ending depends on them.
const CATEGORIES = {
  food: "Essen",
  service: "Service",
  price: "Preise",
  cleanliness: "Sauberkeit",
  waiting_time: "Wartezeit",
  ambience: "Ambiente",
} as const;

/** German replies (Sie). */
export const de: ReplyLanguage = {
  greeting: (name) => (name ? `Hallo ${name},` : "Guten Tag,"),
  thanks: (critical) =>
    critical
      ? "vielen Dank, dass Sie uns davon berichten."
      : "vielen Dank, dass Sie sich die Zeit für Ihre Bewertung genommen haben.",
  critical:
    "Was Sie beschreiben, nehmen wir sehr ernst: Die Gesundheit und Sicherheit unserer Gäste haben für uns Vorrang. " +
    "Wir haben Ihren Bericht an die Geschäftsleitung weitergegeben, die der Sache jetzt nachgeht. Bitte melden Sie sich " +
    "direkt bei uns, damit wir persönlich mit Ihnen sprechen können.",
  complained: (c) => `Es tut uns leid, was Sie ${c} schreiben; wir haben Ihre Hinweise an das Team weitergegeben.`,
  lowRating: "Es tut uns leid, dass Ihr Besuch nicht Ihren Erwartungen entsprochen hat.",
  praised: (c) => `Über Ihr Lob ${c} freuen wir uns sehr.`,
  closing: (critical) =>
    critical
      ? "Wir hoffen, die Gelegenheit zu bekommen, das wiedergutzumachen."
      : "Wir würden uns freuen, Sie wieder begrüßen zu dürfen und es besser zu machen.",
  signature: "Freundliche Grüße\nIhr Team",
  category: (c) => CATEGORIES[c],
  list: joinWith("und"),
  frame: (items, joined) => (items.length > 1 ? `zu den Themen ${joined}` : `zum Thema ${joined}`),
};
