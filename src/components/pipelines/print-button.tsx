"use client";

import { useTranslations } from "next-intl";

/** Opens the browser's print dialog (the report has a print style sheet). */
export function PrintButton() {
  const t = useTranslations("pipelines.report");
  return (
    <button type="button" className="button secondary no-print" onClick={() => window.print()}>
      {t("print")}
    </button>
  );
}
