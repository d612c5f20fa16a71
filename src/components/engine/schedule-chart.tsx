"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useSyncExternalStore } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useChartFormat } from "@/components/widgets/chart-format";
import { legendText, PALETTE, TOOLTIP_ITEM_STYLE } from "@/components/widgets/palette";
import { chartRows, type RunCounts } from "./schedule-format";

/**
 * The series in legend (and stacking) order, each in a colour of the dashboard palette that no
 * sentiment series uses (green, grey and red read as positive, neutral and negative): blue, amber, cyan.
 */
export const CHANGE_SERIES = [
  { key: "new", colour: PALETTE[0]! },
  { key: "updated", colour: PALETTE[3]! },
  { key: "unchanged", colour: PALETTE[4]! },
] as const;

/** Legend and tooltip keep the series order (recharts sorts them by name by default, which a translation reorders). */
const seriesOrder = (item: { dataKey?: unknown }) => CHANGE_SERIES.findIndex((s) => s.key === item.dataKey);

const subscribe = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const serverZone = () => "UTC";

/** New, updated and unchanged reviews of each run as stacked bars over the runs' slots, oldest left. */
export function ScheduleChart({ runs }: { runs: readonly RunCounts[] }) {
  const cf = useChartFormat();
  const t = useTranslations("engine");
  const format = useFormatter();
  // Slots in the visitor's zone, as LocalTime shows them in the runs' table.
  const zone = useSyncExternalStore(subscribe, browserZone, serverZone);
  const rows = chartRows(runs, (slot) =>
    format.dateTime(slot, { dateStyle: "short", timeStyle: "short", timeZone: zone }),
  );
  return (
    <div className="chart" role="img" aria-label={t("schedule.chartTitle")} data-testid="schedule-chart">
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="slot" fontSize={11} />
          <YAxis allowDecimals={false} fontSize={11} tickFormatter={cf.value} />
          <Tooltip itemStyle={TOOLTIP_ITEM_STYLE} itemSorter={seriesOrder} formatter={cf.value} />
          <Legend itemSorter={seriesOrder} formatter={(v: string) => legendText(v)} />
          {CHANGE_SERIES.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={t(`schedule.${s.key}`)}
              stackId="changes"
              fill={s.colour}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
