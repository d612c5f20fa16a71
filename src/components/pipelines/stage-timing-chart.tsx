"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useChartFormat } from "@/components/widgets/chart-format";
import { useFormatter, useTranslations } from "next-intl";
import { legendText, PALETTE, TOOLTIP_ITEM_STYLE } from "@/components/widgets/palette";
import type { RouterOutputs } from "@/trpc/types";

type Execution = RouterOutputs["pipelines"]["executions"]["items"][number];

/** The time of a run no stage accounts for (loading its reviews, queue hand-over, a stage without metrics). */
const OTHER = "__other";

/**
 * Stage durations of each execution as stacked bars (oldest left), to see which stage costs most. The
 * rest of the run's total is its own segment, so a run whose stages recorded nothing still has its bar.
 */
export function StageTimingChart({ executions, stageIds }: { executions: Execution[]; stageIds: string[] }) {
  const cf = useChartFormat();
  const t = useTranslations("pipelines.history");
  const ts = useTranslations("pipelines.stages");
  const format = useFormatter();
  const rows = [...executions].reverse().map((e) => {
    const stages = stageIds.map((s) => [s, e.stage_metrics[s]?.duration_ms ?? 0] as const);
    const staged = stages.reduce((sum, [, ms]) => sum + ms, 0);
    return {
      execution: format.dateTime(e.queued_at, { dateStyle: "short", timeStyle: "short" }),
      ...Object.fromEntries(stages),
      [OTHER]: Math.max(0, Math.round(((e.total_duration_ms ?? staged) - staged) * 10) / 10),
    };
  });
  return (
    <div className="chart" role="img" aria-label={t("timingChart")}>
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="execution" fontSize={12} />
          <YAxis fontSize={12} unit=" ms" tickFormatter={cf.value} />
          <Tooltip
            itemStyle={TOOLTIP_ITEM_STYLE}
            formatter={(value, name) => [
              `${format.number(Number(value))} ms`,
              name === OTHER ? t("otherTime") : ts.has(String(name)) ? ts(String(name)) : String(name),
            ]}
          />
          <Legend formatter={(v: string) => legendText(v === OTHER ? t("otherTime") : ts.has(v) ? ts(v) : v)} />
          {stageIds.map((s, i) => (
            <Bar
              key={s}
              dataKey={s}
              name={s}
              stackId="t"
              fill={PALETTE[i % PALETTE.length]}
              isAnimationActive={false}
            />
          ))}
          <Bar dataKey={OTHER} name={OTHER} stackId="t" fill="var(--border)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
