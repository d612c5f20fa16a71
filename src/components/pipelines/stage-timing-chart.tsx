"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useFormatter, useTranslations } from "next-intl";
import { legendText, PALETTE, TOOLTIP_ITEM_STYLE } from "@/components/widgets/palette";
import type { RouterOutputs } from "@/trpc/types";

type Execution = RouterOutputs["pipelines"]["executions"]["items"][number];

/** Stage durations of each execution as stacked bars (oldest left), to see which stage costs most. */
export function StageTimingChart({ executions, stageIds }: { executions: Execution[]; stageIds: string[] }) {
  const t = useTranslations("pipelines.history");
  const ts = useTranslations("pipelines.stages");
  const format = useFormatter();
  const rows = [...executions].reverse().map((e) => ({
    execution: format.dateTime(e.queued_at, { dateStyle: "short", timeStyle: "short" }),
    ...Object.fromEntries(stageIds.map((s) => [s, e.stage_metrics[s]?.duration_ms ?? 0])),
  }));
  return (
    <div className="chart" role="img" aria-label={t("timingChart")}>
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="execution" fontSize={12} />
          <YAxis fontSize={12} unit=" ms" />
          <Tooltip itemStyle={TOOLTIP_ITEM_STYLE} />
          <Legend formatter={(v: string) => legendText(ts.has(v) ? ts(v) : v)} />
          {stageIds.map((s, i) => (
            <Bar key={s} dataKey={s} stackId="t" fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
