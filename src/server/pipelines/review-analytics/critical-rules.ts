import { DE_CRITICAL } from "./critical-rules-de";
import { EN_CRITICAL } from "./critical-rules-en";
import { ES_CRITICAL } from "./critical-rules-es";
import type { Language } from "./language";
import type { CriticalRules } from "./critical-types";

/** The rules per language (critical-rules-en.ts, -es.ts, -de.ts). */
export const CRITICAL_RULES: Record<Language, CriticalRules> = { en: EN_CRITICAL, es: ES_CRITICAL, de: DE_CRITICAL };
