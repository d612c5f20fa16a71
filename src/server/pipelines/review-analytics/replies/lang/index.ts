import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import type { ReplyLanguage } from "./types";

/** The languages reply drafts are written in; any other review language falls back to English. */
export const REPLY_LANGUAGES = { en, es, de } as const satisfies Record<string, ReplyLanguage>;
export type ReplyLanguageCode = keyof typeof REPLY_LANGUAGES;
export const isReplyLanguage = (code: string | null | undefined): code is ReplyLanguageCode =>
  code === "en" || code === "es" || code === "de";
export type { ReplyLanguage } from "./types";
