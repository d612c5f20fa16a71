import { defineRouting } from "next-intl/routing";

export const LOCALES = ["en", "es", "de"] as const;
export type Locale = (typeof LOCALES)[number];

/** Every page lives under /<locale>/; unprefixed paths redirect to the visitor's locale. */
export const routing = defineRouting({
  locales: LOCALES,
  defaultLocale: "en",
  localePrefix: "always",
});
