/** Text helpers of the review-analytics stages: cleaning, sentences, tokens. */

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&apos;": "'",
  "&nbsp;": " ",
};

/** Cleans a review text: strips markup and control characters, decodes common entities, collapses spaces. */
export function cleanText(raw: string | null | undefined): string {
  if (!raw) return "";
  return raw
    .normalize("NFC")
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/<[^>]{0,200}>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (m) => ENTITIES[m] ?? m)
    .replace(/[\u0000-\u001f\u007f\u200b-\u200d\ufeff]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const SEPARATORS = /[^\p{L}\p{N}']+/u;

/** Lower-case word tokens (letters, digits, apostrophes inside words); split is the fast path here. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const part of text
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .split(SEPARATORS)) {
    if (!part) continue;
    const word = part.includes("'") ? part.replace(/^'+|'+$/g, "") : part;
    if (word) out.push(word);
  }
  return out;
}

const FOLD_MEMO_LIMIT = 200_000;
const foldMemo = { plain: new Map<string, string>(), de: new Map<string, string>() };

/**
 * The form words are compared in by the lexicons and rules: lower case without diacritics (people
 * often type "despues", "Kase"), ß as ss, and in German ae/oe/ue as a/o/u ("Kaese" = "Käse" = "kase").
 * Pattern syntax (`*`, `|`, `_`) passes through unchanged.
 */
export function fold(word: string, language?: string): string {
  const memo = language === "de" ? foldMemo.de : foldMemo.plain;
  let out = memo.get(word);
  if (out === undefined) {
    out = word.toLowerCase().replace(/ß/g, "ss").normalize("NFD").replace(/\p{M}/gu, "");
    if (language === "de") out = out.replace(/ae/g, "a").replace(/oe/g, "o").replace(/ue/g, "u");
    if (memo.size < FOLD_MEMO_LIMIT) memo.set(word, out);
  }
  return out;
}

/** Splits a sentence into clauses at commas, colons, semicolons, brackets and dashes. */
export function clauses(sentence: string): string[] {
  return sentence
    .split(/[,:;()]|\s[-–—]\s/u)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

/** Splits a cleaned text into sentences (on . ! ? ; and line ends), keeping their text. */
export function sentences(text: string): string[] {
  const parts = text.split(/(?<=[.!?;…])\s+|\s+[-–]\s+/u);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** Cuts an excerpt at a word boundary so quotes stay readable. */
export function excerpt(text: string, max = 160): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${cut.slice(0, space > max / 2 ? space : max).trimEnd()}…`;
}
