import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import type { PhraseBank, TLanguage } from "./types";

export * from "./types";

export const PHRASES: Record<TLanguage, PhraseBank> = { en, es, de };
