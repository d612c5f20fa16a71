"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useChartFormat } from "./chart-format";
import type { WidgetData } from "@/server/pipelines/types";
import { colourOf, legendText, TOOLTIP_ITEM_STYLE } from "./palette";
import { useLabel } from "./use-label";

type Data = Extract<WidgetData, { kind: "BarChart" }>;

/** Bars per x value, one per series (stacked when the widget asks). */
export function BarChartWidget({ data, stacked }: { data: Data; stacked?: boolean }) {
  const cf = useChartFormat();
  const label = useLabel();
  const rows = data.rows.map((r) => ({ ...r, [data.x_key]: cf.value(label(String(r[data.x_key]))) }));
  // Legend and tooltip in the series' own order (critical, high, medium, low), not recharts' alphabetical one.
  const order = (item: { dataKey?: unknown }) => data.series.indexOf(String(item.dataKey));
  return (
    <div className="chart" role="img" aria-label={data.series.map(label).join(", ")}>
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis
            dataKey={data.x_key}
            fontSize={11}
            interval={0}
            angle={rows.length > 4 ? -20 : 0}
            textAnchor={rows.length > 4 ? "end" : "middle"}
            height={rows.length > 4 ? 50 : 30}
          />
          <YAxis allowDecimals={false} fontSize={12} tickFormatter={cf.value} />
          <Tooltip itemStyle={TOOLTIP_ITEM_STYLE} itemSorter={order} formatter={cf.value} />
          {data.series.length > 1 ? (
            <Legend itemSorter={order} formatter={(v: string) => legendText(label(v))} />
          ) : null}
          {data.series.map((s, i) => (
            <Bar
              key={s}
              dataKey={s}
              name={s}
              fill={colourOf(s, i)}
              stackId={stacked ? "stack" : undefined}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
