"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useChartFormat } from "./chart-format";
import type { WidgetData } from "@/server/pipelines/types";
import { colourOf, legendText, TOOLTIP_ITEM_STYLE } from "./palette";
import { useLabel } from "./use-label";

type Data = Extract<WidgetData, { kind: "LineChart" }>;

/** Series over an ordered x axis (months). */
export function LineChartWidget({ data, domain }: { data: Data; domain?: [number, number] }) {
  const cf = useChartFormat();
  const label = useLabel();
  // Legend and tooltip in the series' own order, not recharts' alphabetical one.
  const order = (item: { dataKey?: unknown }) => data.series.indexOf(String(item.dataKey));
  return (
    <div className="chart" role="img" aria-label={data.series.map(label).join(", ")}>
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={data.rows} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey={data.x_key} fontSize={12} tickFormatter={cf.value} />
          <YAxis fontSize={12} domain={domain ?? ["auto", "auto"]} tickFormatter={cf.value} />
          <Tooltip itemStyle={TOOLTIP_ITEM_STYLE} itemSorter={order} formatter={cf.value} labelFormatter={cf.value} />
          <Legend itemSorter={order} formatter={(v: string) => legendText(label(v))} />
          {data.series.map((s, i) => (
            <Line
              key={s}
              type="monotone"
              dataKey={s}
              name={s}
              stroke={colourOf(s, i)}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
