"use client";

import { useTranslations } from "next-intl";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { PlacesComparedData } from "@/server/pipelines/review-analytics/place-comparison";
import { useFormats } from "@/i18n/use-formats";
import { legendText, PALETTE, TOOLTIP_ITEM_STYLE } from "./palette";
import { ScrollRegion } from "./scroll-region";
import { useLabel } from "./use-label";

/**
 * "Places compared": each category's score per place as grouped bars (one bar per place), and the
 * same numbers in a table beside them (score, mentions; each place's reviews and rating), so the
 * figures read without the chart. A run over one place says a comparison needs two.
 */
export function PlacesComparedWidget({ data }: { data: PlacesComparedData }) {
  const t = useTranslations("pipelines.widget.places");
  const label = useLabel();
  const f = useFormats();
  if (data.places.length < 2)
    return (
      <p className="notice" data-state="needs-places">
        {t("needsTwo")}
      </p>
    );
  const nameOf = (p: PlacesComparedData["places"][number]) => p.name ?? p.place_key;
  const rows = data.rows.map((r) => ({ ...r, category: label(String(r.category)) }));
  const bySeries = new Map(data.places.map((p) => [p.series, nameOf(p)]));
  return (
    <div className="stack-sm">
      <div className="chart" role="img" aria-label={t("chartLabel", { places: data.places.map(nameOf).join(", ") })}>
        <ResponsiveContainer width="100%" height={260}>
          <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis
              dataKey="category"
              fontSize={11}
              interval={0}
              angle={rows.length > 3 ? -20 : 0}
              textAnchor={rows.length > 3 ? "end" : "middle"}
              height={rows.length > 3 ? 50 : 30}
            />
            <YAxis domain={[-100, 100]} fontSize={12} tickFormatter={(v: number) => f.number(v)} />
            <ReferenceLine y={0} stroke="var(--fg)" />
            <Tooltip
              itemStyle={TOOLTIP_ITEM_STYLE}
              formatter={(v: unknown, name: unknown) => [
                f.number(Number(v)),
                bySeries.get(String(name)) ?? String(name),
              ]}
            />
            <Legend formatter={(v: string) => legendText(bySeries.get(v) ?? v)} />
            {data.places.map((p, i) => (
              <Bar
                key={p.series}
                dataKey={p.series}
                name={p.series}
                fill={PALETTE[i % PALETTE.length]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      {data.places_total > data.places.length ? (
        <p className="muted small">{t("bounded", { shown: data.places.length, total: data.places_total })}</p>
      ) : null}
      <ScrollRegion label={t("table")} cards>
        <table className="table" data-testid="places-compared-table">
          <caption className="visually-hidden">{t("table")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("category")}</th>
              {data.places.map((p) => (
                <th scope="col" key={p.series}>
                  {nameOf(p)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{t("reviewsRow")}</th>
              {data.places.map((p) => (
                <td key={p.series}>
                  {p.average_rating === null
                    ? t("placeSummaryNoRating", { reviews: p.reviews })
                    : t("placeSummary", { reviews: p.reviews, rating: p.average_rating })}
                </td>
              ))}
            </tr>
            {data.categories.map((c) => (
              <tr key={c.category} data-category={c.category}>
                <th scope="row">{label(c.category)}</th>
                {c.cells.map((cell, i) => (
                  <td key={i}>
                    {cell.score === null ? t("noMentions") : t("cell", { score: cell.score, mentions: cell.mentions })}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}
