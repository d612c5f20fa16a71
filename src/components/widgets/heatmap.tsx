"use client";

import { useTranslations } from "next-intl";
import type { WidgetData } from "@/server/pipelines/types";
import { useFormats } from "@/i18n/use-formats";
import { useLabel } from "./use-label";
import { ScrollRegion } from "./scroll-region";

type Data = Extract<WidgetData, { kind: "Heatmap" }>;

const BASE = [37, 99, 235]; // #2563eb blended over white by the cell's share of the maximum

/** Background of a cell and the text colour (black or white) with the better WCAG contrast on it. */
export function cellColours(share: number): { background: string; color: string } {
  const alpha = share === 0 ? 0 : 0.12 + share * 0.88;
  const rgb = BASE.map((c) => Math.round(255 + (c - 255) * alpha));
  const lin = rgb.map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * lin[0]! + 0.7152 * lin[1]! + 0.0722 * lin[2]!;
  // Black and white give equal contrast at a luminance of about 0.179.
  return { background: `rgb(${rgb.join(", ")})`, color: luminance > 0.179 ? "#000" : "#fff" };
}

/** A grid of cells shaded by value (weekday x hour, category x month). */
export function HeatmapWidget({ data }: { data: Data }) {
  const t = useTranslations("pipelines.widget");
  const label = useLabel();
  // Months ("2025-03") as "März 2025", counts grouped; hours ("07") and other labels as they are.
  const f = useFormats();
  const max = Math.max(1, ...data.cells.map((c) => c.value));
  const grid = new Map(data.cells.map((c) => [`${c.x}:${c.y}`, c.value]));
  return (
    <ScrollRegion label={t("heatmap")}>
      <table className="heatmap" aria-label={t("heatmap")}>
        <thead>
          <tr>
            <th scope="col" />
            {data.x_labels.map((x) => (
              <th key={x} scope="col">
                {f.month(x)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.y_labels.map((y, yi) => (
            <tr key={y}>
              <th scope="row">{label(y)}</th>
              {data.x_labels.map((x, xi) => {
                const value = grid.get(`${xi}:${yi}`) ?? 0;
                return (
                  <td key={x} title={`${label(y)} ${f.month(x)}: ${f.number(value)}`} style={cellColours(value / max)}>
                    {value ? f.number(value) : ""}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
