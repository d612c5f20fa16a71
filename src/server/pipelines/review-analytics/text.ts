/** Text helpers of the review-analytics stages: cleaning, sentences, tokens. */

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&apos;": "'", "&nbsp;": " " };

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
  for (const part of text.toLowerCase().split(SEPARATORS)) {
    if (!part) continue;
    const word = part.includes("'") ? part.replace(/^'+|'+$/g, "") : part;
    if (word) out.push(word);
  }
  return out;
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
