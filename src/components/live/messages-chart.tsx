"use client";

import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useChartFormat } from "@/components/widgets/chart-format";
import { useFormats } from "@/i18n/use-formats";

/**
 * Messages per minute over the envelopes shown, as a small bar chart. Minutes are written in the
 * viewer's own time zone and the locale's clock ("14:05", "2:05 PM"): the chart is drawn in the browser
 * only (the live page fetches after it mounts), so the zone is the person's, not the server's.
 */
export function MessagesChart({ times }: { times: number[] }) {
  const cf = useChartFormat();
  const { locale } = useFormats();
  const clock = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" });
  const buckets = new Map<number, number>();
  for (const t of times) {
    const minute = Math.floor(t / 60_000) * 60_000;
    buckets.set(minute, (buckets.get(minute) ?? 0) + 1);
  }
  const data = [...buckets.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([minute, count]) => ({ minute: clock.format(minute), count }));
  return (
    <div style={{ width: "100%", height: 160 }}>
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -20 }}>
          <XAxis dataKey="minute" fontSize={12} />
          <YAxis allowDecimals={false} fontSize={12} tickFormatter={cf.value} />
          <Tooltip formatter={cf.value} />
          <Bar dataKey="count" fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
