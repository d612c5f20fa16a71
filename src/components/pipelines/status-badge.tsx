"use client";

import { useTranslations } from "next-intl";

/** An execution or stage status as a coloured badge. */
export function StatusBadge({ status }: { status: string }) {
  const t = useTranslations("pipelines.status");
  return (
    <span className={`badge status status-${status}`} data-status={status}>
      {t.has(status) ? t(status) : status}
    </span>
  );
}
