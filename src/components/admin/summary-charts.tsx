"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useChartFormat } from "@/components/widgets/chart-format";

export interface ChartSpec {
  title: string;
  /** The same figures as text, for screen readers (the chart itself is hidden from them). */
  text: string;
  data: { label: string; value: number }[];
  /** Bars across the chart, for many or long labels (event types). */
  horizontal?: boolean;
}

/** Counts that differ by two orders of magnitude or more read on a log scale (small bars stay visible). */
export function needsLogScale(values: number[]): boolean {
  const positive = values.filter((v) => v > 0);
  return positive.length > 1 && Math.max(...positive) / Math.min(...positive) >= 100;
}

/** Bar charts of the admin summary, each in a figure with a caption and a text alternative. */
export function SummaryCharts({
  charts,
  valueLabel,
  logNote,
}: {
  charts: ChartSpec[];
  valueLabel: string;
  logNote: string;
}) {
  const cf = useChartFormat();
  return (
    <div className="chart-grid">
      {charts.map((chart) => {
        const log = needsLogScale(chart.data.map((d) => d.value));
        const scale = log ? ({ scale: "log", domain: [0.5, "auto"], allowDataOverflow: true } as const) : {};
        return (
          <figure key={chart.title} className="card chart" data-scale={log ? "log" : "linear"}>
            <figcaption>{chart.title}</figcaption>
            {log ? <p className="muted small">{logNote}</p> : null}
            <p className="visually-hidden">{chart.text}</p>
            <div
              aria-hidden="true"
              style={{ width: "100%", height: chart.horizontal ? 40 + 32 * chart.data.length : 220 }}
            >
              <ResponsiveContainer>
                <BarChart
                  data={chart.data}
                  layout={chart.horizontal ? "vertical" : "horizontal"}
                  margin={{ top: 8, right: 16, bottom: 0, left: chart.horizontal ? 0 : -16 }}
                  accessibilityLayer={false}
                >
                  <CartesianGrid strokeDasharray="3 3" vertical={!!chart.horizontal} horizontal={!chart.horizontal} />
                  {chart.horizontal ? (
                    <>
                      <XAxis
                        type="number"
                        tickFormatter={cf.value}
                        allowDecimals={false}
                        fontSize={12}
                        tick={{ fill: "currentColor" }}
                        {...scale}
                      />
                      <YAxis
                        type="category"
                        dataKey="label"
                        width={120}
                        fontSize={12}
                        tick={{ fill: "currentColor" }}
                      />
                    </>
                  ) : (
                    <>
                      <XAxis dataKey="label" fontSize={12} interval={0} tick={{ fill: "currentColor" }} />
                      <YAxis
                        allowDecimals={false}
                        fontSize={12}
                        tick={{ fill: "currentColor" }}
                        tickFormatter={cf.value}
                        {...scale}
                      />
                    </>
                  )}
                  <Tooltip formatter={cf.value} />
                  <Bar dataKey="value" name={valueLabel} fill="var(--accent)" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </figure>
        );
      })}
    </div>
  );
}
