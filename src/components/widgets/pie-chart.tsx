"use client";

import { Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip, type PieLabelRenderProps } from "recharts";
import { useChartFormat } from "./chart-format";
import { useFormatter } from "next-intl";
import type { WidgetData } from "@/server/pipelines/types";
import { colourOf, legendText, TOOLTIP_ITEM_STYLE } from "./palette";
import { useLabel } from "./use-label";

type Data = Extract<WidgetData, { kind: "PieChart" }>;

/**
 * Shares of a whole. The names are in the legend; each slice of 5 % or more carries its share inside it,
 * so no label can be clipped by the chart's edge however long the names are in a language.
 */
export function PieChartWidget({ data }: { data: Data }) {
  const cf = useChartFormat();
  const label = useLabel();
  const format = useFormatter();
  const slices = data.slices.map((s) => ({ key: s.name, name: label(s.name), value: s.value }));
  const inside = (p: PieLabelRenderProps) => {
    const percent = Number(p.percent ?? 0);
    if (percent < 0.05) return null;
    const angle = (-Number(p.midAngle ?? 0) * Math.PI) / 180;
    const r = (Number(p.innerRadius ?? 0) + Number(p.outerRadius ?? 0)) / 2;
    const x = Number(p.cx ?? 0) + r * Math.cos(angle);
    const y = Number(p.cy ?? 0) + r * Math.sin(angle);
    return (
      <text
        x={x}
        y={y}
        fill="#fff"
        stroke="rgba(0,0,0,0.55)"
        strokeWidth={2.5}
        paintOrder="stroke"
        fontSize={12}
        fontWeight={600}
        textAnchor="middle"
        dominantBaseline="central"
      >
        {format.number(percent, { style: "percent", maximumFractionDigits: 0 })}
      </text>
    );
  };
  return (
    <div className="chart" role="img" aria-label={slices.map((s) => `${s.name}: ${s.value}`).join(", ")}>
      <ResponsiveContainer width="100%" height={240}>
        <PieChart>
          <Pie
            data={slices}
            dataKey="value"
            nameKey="name"
            outerRadius={85}
            isAnimationActive={false}
            label={inside}
            labelLine={false}
          >
            {slices.map((s, i) => (
              <Cell key={s.key} fill={colourOf(s.key, i)} />
            ))}
          </Pie>
          <Tooltip itemStyle={TOOLTIP_ITEM_STYLE} formatter={cf.value} />
          <Legend formatter={(v: string) => legendText(v)} />
        </PieChart>
      </ResponsiveContainer>
    </div>
  );
}
