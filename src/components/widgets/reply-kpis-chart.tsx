"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { WidgetData } from "@/server/pipelines/types";
import { useChartFormat } from "./chart-format";
import { colourOf, legendText, TOOLTIP_ITEM_STYLE } from "./palette";
import { useLabel } from "./use-label";

type Data = Extract<WidgetData, { kind: "LineChart" }>;

/**
 * The reply KPIs per month (docs/pipelines.md, "Reply KPIs"): the reply rate as bars on a 0-100 % axis
 * on the left, the median response time in days as a line on its own axis on the right, so neither
 * unit is read on the other's scale. Months without a dated reply leave a gap in the line.
 */
export function ReplyKpisChart({ data }: { data: Data }) {
  const cf = useChartFormat();
  const label = useLabel();
  const [rate = "reply_rate", days = "median_response_days"] = data.series;
  const order = (item: { dataKey?: unknown }) => data.series.indexOf(String(item.dataKey));
  return (
    <div className="chart" role="img" aria-label={data.series.map(label).join(", ")}>
      <ResponsiveContainer width="100%" height={240}>
        <ComposedChart data={data.rows} margin={{ top: 8, right: 0, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey={data.x_key} fontSize={12} tickFormatter={cf.value} />
          <YAxis yAxisId="rate" fontSize={12} domain={[0, 100]} tickFormatter={cf.value} />
          <YAxis yAxisId="days" orientation="right" fontSize={12} domain={[0, "auto"]} tickFormatter={cf.value} />
          <Tooltip itemStyle={TOOLTIP_ITEM_STYLE} itemSorter={order} formatter={cf.value} labelFormatter={cf.value} />
          <Legend itemSorter={order} formatter={(v: string) => legendText(label(v))} />
          <Bar yAxisId="rate" dataKey={rate} name={rate} fill={colourOf(rate, 0)} isAnimationActive={false} />
          <Line
            yAxisId="days"
            type="monotone"
            dataKey={days}
            name={days}
            stroke={colourOf(days, 1)}
            strokeWidth={2}
            connectNulls={false}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
