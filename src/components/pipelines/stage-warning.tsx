"use client";

import { useTranslations } from "next-intl";
import { parseWarning } from "@/server/pipelines/stage-warnings";

/** A stage's warnings in the reader's language (a warning this version does not know is shown as stored). */
export function StageWarnings({ warnings }: { warnings: readonly string[] }) {
  const t = useTranslations("pipelines.warnings");
  if (warnings.length === 0) return null;
  const text = warnings.map((w) => {
    const parsed = parseWarning(w);
    if (!parsed) return w;
    const sentence = t(parsed.key, parsed.values);
    return "detail" in parsed ? `${sentence} ${parsed.detail}` : sentence;
  });
  return <span className="small muted">{text.join("; ")}</span>;
}
