"use client";

import { useFormatter } from "next-intl";
import type { WidgetData } from "@/server/pipelines/types";

type Data = Extract<WidgetData, { kind: "StatCard" }>;

/** One figure, large, with its unit; a "decimal" figure (an average rating) always with two decimals (4.00, 4.23). */
export function StatCardWidget({ data, tone, format: kind }: { data: Data; tone?: string; format?: string }) {
  const format = useFormatter();
  const digits =
    kind === "decimal" ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : { maximumFractionDigits: 2 };
  return (
    <p className={`stat-value${tone === "danger" && data.value > 0 ? " stat-danger" : ""}`} data-testid="stat-value">
      {format.number(data.value, digits)}
      {data.unit ? <span className="stat-unit">{data.unit}</span> : null}
    </p>
  );
}
