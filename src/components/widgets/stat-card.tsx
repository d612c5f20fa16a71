"use client";

import { useFormatter } from "next-intl";
import { useFormats } from "@/i18n/use-formats";
import type { WidgetData } from "@/server/pipelines/types";

type Data = Extract<WidgetData, { kind: "StatCard" }>;

/**
 * One figure, large, with its unit; a "decimal" figure (an average rating) always with two decimals
 * (4.00, 4.23); a share ("%") in the locale's one percent format ("58.3%", "58,3 %"), as everywhere else.
 */
export function StatCardWidget({ data, tone, format: kind }: { data: Data; tone?: string; format?: string }) {
  const format = useFormatter();
  const f = useFormats();
  const share = data.unit === "%" || kind === "percent";
  const digits =
    kind === "decimal" ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : { maximumFractionDigits: 2 };
  return (
    <p className={`stat-value${tone === "danger" && data.value > 0 ? " stat-danger" : ""}`} data-testid="stat-value">
      {share ? f.percent(data.value) : format.number(data.value, digits)}
      {data.unit && !share ? <span className="stat-unit">{data.unit}</span> : null}
    </p>
  );
}
