"use client";

import { Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip } from "recharts";
import type { WidgetData } from "@/server/pipelines/types";
import { colourOf, legendText, TOOLTIP_ITEM_STYLE } from "./palette";
import { useLabel } from "./use-label";

type Data = Extract<WidgetData, { kind: "PieChart" }>;

/** Shares of a whole. */
export function PieChartWidget({ data }: { data: Data }) {
  const label = useLabel();
  const slices = data.slices.map((s) => ({ key: s.name, name: label(s.name), value: s.value }));
  return (
    <div className="chart" role="img" aria-label={slices.map((s) => `${s.name}: ${s.value}`).join(", ")}>
      <ResponsiveContainer width="100%" height={240}>
        <PieChart>
          <Pie data={slices} dataKey="value" nameKey="name" outerRadius={80} isAnimationActive={false} label>
            {slices.map((s, i) => (
              <Cell key={s.key} fill={colourOf(s.key, i)} />
            ))}
          </Pie>
          <Tooltip itemStyle={TOOLTIP_ITEM_STYLE} />
          <Legend formatter={(v: string) => legendText(v)} />
        </PieChart>
      </ResponsiveContainer>
    </div>
  );
}
