"use client";

import { useFormatter } from "next-intl";
import type { WidgetData } from "@/server/pipelines/types";

type Data = Extract<WidgetData, { kind: "StatCard" }>;

/** One figure, large, with its unit. */
export function StatCardWidget({ data, tone }: { data: Data; tone?: string }) {
  const format = useFormatter();
  return (
    <p className={`stat-value${tone === "danger" && data.value > 0 ? " stat-danger" : ""}`} data-testid="stat-value">
      {format.number(data.value, { maximumFractionDigits: 2 })}
      {data.unit ? <span className="stat-unit">{data.unit}</span> : null}
    </p>
  );
}
