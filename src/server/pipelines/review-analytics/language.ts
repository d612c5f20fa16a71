import { eld } from "eld/small";
import { tokenize } from "./text";

/** Languages the review-analytics pipeline has lexicons and taxonomy rules for. */
export const LANGUAGES = ["en", "es", "de"] as const;
export type Language = (typeof LANGUAGES)[number];
export type DetectedLanguage = Language | "unknown";

// Function words that are frequent in one language and rare in the other two (hand-picked from the
// most frequent words of each language; words shared by two languages, like "de" or "in", are left out).
const STOPWORDS: Record<Language, ReadonlySet<string>> = {
  en: new Set(
    "the and was were is are this that with for our we very but not they it's of to food staff service great good bad would again had have been there place really too".split(
      " ",
    ),
  ),
  es: new Set(
    "el la los las y muy pero fue era es con para nuestro nosotros comida servicio bueno buena malo mala no lo del al una un se que por más estaba demasiado volveremos".split(
      " ",
    ),
  ),
  de: new Set(
    "der die das und war ist sehr aber nicht mit für wir unser essen bedienung gut schlecht ein eine zu zum auch es wieder hatten haben wurde kein keine leider".split(
      " ",
    ),
  ),
};

const isLanguage = (v: string | null | undefined): v is Language => v === "en" || v === "es" || v === "de";

eld.setLanguageSubset([...LANGUAGES]);
/** What the platform's language hint adds to a language's n-gram score: it decides close calls ("Top", "Super"). */
const HINT_PRIOR = 0.05;

/**
 * Detects en, es or de with ELD (Efficient Language Detector, the `eld` package: n-gram scores over the
 * three languages), the platform's hint added as a prior. When ELD has nothing to go on (a word or
 * two, emoji), stopword hits plus letters only one language uses (ñ ¿ ¡, ä ö ü ß) decide, then the hint.
 */
export function detectLanguage(text: string, hint?: string | null, tokens?: string[]): DetectedLanguage {
  const normalizedHint = hint?.slice(0, 2).toLowerCase();
  const scores = eld.detect(text).getScores() as Partial<Record<string, number>>;
  let best: Language | null = null;
  let bestScore = 0;
  for (const language of LANGUAGES) {
    const s = scores[language] ?? 0;
    const withPrior = s > 0 && language === normalizedHint ? s + HINT_PRIOR : s;
    if (withPrior > bestScore) {
      best = language;
      bestScore = withPrior;
    }
  }
  if (best) return best;
  return byStopwords(text, tokens ?? tokenize(text)) ?? (isLanguage(normalizedHint) ? normalizedHint : "unknown");
}

function byStopwords(text: string, tokens: readonly string[]): Language | null {
  const score: Record<Language, number> = { en: 0, es: 0, de: 0 };
  for (const t of tokens) {
    if (STOPWORDS.en.has(t)) score.en++;
    if (STOPWORDS.es.has(t)) score.es++;
    if (STOPWORDS.de.has(t)) score.de++;
  }
  if (/[ñ¿¡]/.test(text)) score.es += 2;
  if (/[äöüß]/i.test(text)) score.de += 2;
  const [first, second] = (Object.entries(score) as [Language, number][]).sort((a, b) => b[1] - a[1]);
  return first && first[1] > 0 && (!second || first[1] > second[1]) ? first[0] : null;
}
