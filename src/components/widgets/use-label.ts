"use client";

import { useTranslations } from "next-intl";

/** Translates a data label (category, series, language, team, severity) when the messages know it. */
export function useLabel(): (key: string) => string {
  const t = useTranslations("pipelines.labels");
  return (key: string) => (t.has(key) ? t(key) : key);
}
