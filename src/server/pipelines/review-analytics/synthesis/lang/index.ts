import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import type { NarrativeLanguage } from "./types";

/** The languages the deterministic narrative is written in (the app's locales); English first. */
export const NARRATIVE_LANGUAGES = { en, es, de } as const satisfies Record<string, NarrativeLanguage>;
export type ReportLanguage = keyof typeof NARRATIVE_LANGUAGES;
export const REPORT_LANGUAGES = Object.keys(NARRATIVE_LANGUAGES) as ReportLanguage[];
export type { NarrativeLanguage } from "./types";
