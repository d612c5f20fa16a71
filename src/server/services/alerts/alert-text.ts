import { formatsFor } from "@/i18n/format";
import type { Locale } from "@/i18n/routing";
import { NARRATIVE_LANGUAGES } from "@/server/pipelines/review-analytics/synthesis/lang";
import type { AlertPayload } from "./fire-alerts";

// The words of an alert (e-mail and mesh message) in the rule's language: one subject line and a few
// plain lines, the same facts as the webhook's JSON.

interface AlertStrings {
  stars: (n: number) => string;
  lowRating: (stars: string, place: string) => string;
  healthSafety: (place: string) => string;
  shareRise: (category: string, place: string) => string;
  shareLine: (before: string, now: string, points: string) => string;
  issues: string;
  teams: string;
  by: (author: string) => string;
  noText: string;
  run: string;
  place: string;
  unnamedPlace: string;
  rule: string;
}

const STRINGS: Record<Locale, AlertStrings> = {
  en: {
    stars: (n) => (n === 1 ? "1-star" : `${n}-star`),
    lowRating: (stars, place) => `New ${stars} review of ${place}`,
    healthSafety: (place) => `Health-and-safety case in a new review of ${place}`,
    shareRise: (category, place) => `More complaints about ${category} at ${place}`,
    shareLine: (before, now, points) =>
      `Negative mentions rose from ${before} to ${now} (${points} points) since the previous run.`,
    issues: "Complaints about",
    teams: "For",
    by: (author) => `by ${author}`,
    noText: "(no text)",
    run: "Evidence (the analysis run)",
    place: "The place",
    unnamedPlace: "a place",
    rule: "Rule",
  },
  es: {
    stars: (n) => (n === 1 ? "1 estrella" : `${n} estrellas`),
    lowRating: (stars, place) => `Nueva reseña de ${stars} de ${place}`,
    healthSafety: (place) => `Caso de salud y seguridad en una nueva reseña de ${place}`,
    shareRise: (category, place) => `Más quejas sobre ${category} en ${place}`,
    shareLine: (before, now, points) =>
      `Las menciones negativas subieron del ${before} al ${now} (${points} puntos) desde el análisis anterior.`,
    issues: "Quejas sobre",
    teams: "Para",
    by: (author) => `de ${author}`,
    noText: "(sin texto)",
    run: "Evidencia (el análisis)",
    place: "El lugar",
    unnamedPlace: "un lugar",
    rule: "Regla",
  },
  de: {
    stars: (n) => (n === 1 ? "1-Stern" : `${n}-Sterne`),
    lowRating: (stars, place) => `Neue ${stars}-Bewertung von ${place}`,
    healthSafety: (place) => `Gesundheits- und Sicherheitsfall in einer neuen Bewertung von ${place}`,
    shareRise: (category, place) => `Mehr Beschwerden über ${category} bei ${place}`,
    shareLine: (before, now, points) =>
      `Negative Erwähnungen stiegen seit der vorigen Analyse von ${before} auf ${now} (${points} Punkte).`,
    issues: "Beschwerden über",
    teams: "Für",
    by: (author) => `von ${author}`,
    noText: "(kein Text)",
    run: "Belege (die Analyse)",
    place: "Der Ort",
    unnamedPlace: "einem Ort",
    rule: "Regel",
  },
};

/** The alert's evidence as absolute links into the web app, in the rule's language. */
export function alertLinks(
  payload: AlertPayload,
  locale: Locale,
  baseUrl: string,
): { run: string; place: string | null } {
  const base = `${baseUrl.replace(/\/+$/, "")}/${locale}`;
  return { run: `${base}${payload.links.run}`, place: payload.links.place ? `${base}${payload.links.place}` : null };
}

/** An alert as words: a one-line subject (no line breaks) and the body's lines, links absolute. */
export function alertText(
  payload: AlertPayload,
  locale: Locale,
  baseUrl: string,
): { subject: string; lines: string[]; links: { label: string; url: string }[] } {
  const s = STRINGS[locale];
  const f = formatsFor(locale);
  const lang = NARRATIVE_LANGUAGES[locale];
  const place = payload.place.name ?? (payload.place.place_key || s.unnamedPlace);
  const urls = alertLinks(payload, locale, baseUrl);
  const links = [{ label: s.run, url: urls.run }, ...(urls.place ? [{ label: s.place, url: urls.place }] : [])];
  const lines: string[] = [];
  let subject: string;
  if (payload.share) {
    subject = s.shareRise(lang.category(payload.share.category), place);
    lines.push(
      s.shareLine(
        f.percent(payload.share.previous_pct, 1),
        f.percent(payload.share.current_pct, 1),
        `+${f.number(payload.share.rise_points, 1)}`,
      ),
    );
  } else {
    const r = payload.review;
    subject =
      payload.rule.kind === "health_safety" || (r?.health_and_safety && payload.rule.kind !== "low_rating")
        ? s.healthSafety(place)
        : s.lowRating(s.stars(r?.rating ?? 1), place);
    if (r) {
      const who = [
        r.rating !== null ? "★".repeat(r.rating) + "☆".repeat(Math.max(0, 5 - r.rating)) : null,
        r.author ? s.by(r.author) : null,
        r.published_at?.slice(0, 10) ?? null,
      ]
        .filter(Boolean)
        .join(" · ");
      if (who) lines.push(who);
      lines.push(r.text ? `“${r.text.replace(/\s+/g, " ").trim()}”` : s.noText);
      if (r.negative_categories.length > 0)
        lines.push(`${s.issues}: ${r.negative_categories.map((c) => lang.category(c)).join(", ")}`);
    }
  }
  lines.push(`${s.teams}: ${payload.teams.map((t) => `@${t}`).join(", ")}`);
  if (payload.rule.name) lines.push(`${s.rule}: ${payload.rule.name}`);
  return { subject: subject.replace(/[\r\n]+/g, " "), lines, links };
}

/** The alert as one mesh message: subject, lines and links, one per line. */
export function alertMessage(payload: AlertPayload, locale: Locale, baseUrl: string): string {
  const t = alertText(payload, locale, baseUrl);
  return [`⚠ ${t.subject}`, ...t.lines, ...t.links.map((l) => `${l.label}: ${l.url}`)].join("\n");
}
