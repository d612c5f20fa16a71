"use client";

import { useTranslations } from "next-intl";
import type { WidgetData } from "@/server/pipelines/types";
import { useLabel } from "./use-label";

type Data = Extract<WidgetData, { kind: "Heatmap" }>;

/** A grid of cells shaded by value (weekday x hour, category x month). */
export function HeatmapWidget({ data }: { data: Data }) {
  const t = useTranslations("pipelines.widget");
  const label = useLabel();
  const max = Math.max(1, ...data.cells.map((c) => c.value));
  const grid = new Map(data.cells.map((c) => [`${c.x}:${c.y}`, c.value]));
  return (
    <div className="table-wrap">
      <table className="heatmap" aria-label={t("heatmap")}>
        <thead>
          <tr>
            <th scope="col" />
            {data.x_labels.map((x) => (
              <th key={x} scope="col">
                {x}
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
                const alpha = value === 0 ? 0 : 0.12 + (value / max) * 0.88;
                return (
                  <td key={x} title={`${label(y)} ${x}: ${value}`} style={{ background: `rgba(37, 99, 235, ${alpha.toFixed(2)})`, color: alpha > 0.55 ? "#fff" : undefined }}>
                    {value || ""}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
