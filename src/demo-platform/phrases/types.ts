/** Topics a review sentence talks about (the analysis pipeline classifies reviews by these). */
export const ASPECTS = ["food", "service", "price", "cleanliness", "waiting", "ambience", "location"] as const;
export type TAspect = (typeof ASPECTS)[number];

export const LANGUAGES = ["en", "es", "de"] as const;
export type TLanguage = (typeof LANGUAGES)[number];

/** Everything needed to write reviews and owner replies in one language. */
export interface PhraseBank {
  openers: { positive: string[]; negative: string[]; mixed: string[] };
  aspects: Record<TAspect, { positive: string[]; negative: string[] }>;
  closers: { positive: string[]; negative: string[] };
  /** Owner replies; "{name}" is replaced by the reviewer's first name. */
  replies: { thanks: string[]; apology: string[] };
  firstNames: string[];
  lastNames: string[];
  /** Month names, January first, for dates written out in layout 2. */
  months: string[];
}
