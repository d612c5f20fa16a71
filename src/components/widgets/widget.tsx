"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import type { WidgetData, WidgetDefinition } from "@/server/pipelines/types";
import { useTRPC } from "@/trpc/react";
import { BarChartWidget } from "./bar-chart";
import { DataTableWidget } from "./data-table";
import { HeatmapWidget } from "./heatmap";
import { LineChartWidget } from "./line-chart";
import { PieChartWidget } from "./pie-chart";
import { ReplyKpisChart } from "./reply-kpis-chart";
import { PlacesComparedWidget } from "./places-compared";
import type { PlacesComparedData } from "@/server/pipelines/review-analytics/place-comparison";
import { StatCardWidget } from "./stat-card";

function isEmpty(d: WidgetData): boolean {
  switch (d.kind) {
    case "StatCard":
      return false;
    case "LineChart":
    case "BarChart":
    case "DataTable":
      return d.rows.length === 0;
    case "PieChart":
      return d.slices.every((s) => s.value === 0);
    case "Heatmap":
      return d.cells.every((c) => c.value === 0);
  }
}

/** Draws one widget's data by kind. */
export function WidgetBody({ def, data }: { def: WidgetDefinition; data: WidgetData }) {
  switch (data.kind) {
    case "StatCard":
      return (
        <StatCardWidget
          data={data}
          tone={def.options.tone as string | undefined}
          format={def.options.format as string | undefined}
        />
      );
    case "LineChart":
      // The reply KPIs have two units (percent and days): their own chart with an axis each.
      if (def.options.chart === "reply_kpis") return <ReplyKpisChart data={data} />;
      return <LineChartWidget data={data} domain={def.options.domain as [number, number] | undefined} />;
    case "BarChart":
      // "Places compared" (options.compare): grouped bars per place with its table, or why there is nothing to compare.
      return def.options.compare === "places" ? (
        <PlacesComparedWidget data={data as PlacesComparedData} />
      ) : (
        <BarChartWidget data={data} stacked={def.options.stacked === true} />
      );
    case "PieChart":
      return <PieChartWidget data={data} />;
    case "DataTable":
      return <DataTableWidget data={data} />;
    case "Heatmap":
      return <HeatmapWidget data={data} />;
  }
}

/** A dashboard widget: fetches its own data, with loading, empty and error states. */
export function Widget({
  pipelineId,
  def,
  executionId,
}: {
  pipelineId: string;
  def: WidgetDefinition;
  executionId?: string;
}) {
  const t = useTranslations("pipelines.widget");
  const tw = useTranslations("pipelines.widgets");
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.pipelines.widget.queryOptions({ pipeline_id: pipelineId, widget_id: def.id, execution_id: executionId }),
    retry: false,
  });
  const title = tw.has(`${def.id}.title`) ? tw(`${def.id}.title`) : def.title;
  const description = tw.has(`${def.id}.description`) ? tw(`${def.id}.description`) : def.description;
  const data = query.data?.data as WidgetData | null | undefined;
  return (
    <section
      className={`card widget widget-${def.width}`}
      data-widget-kind={def.kind}
      data-widget-id={def.id}
      aria-labelledby={`w-${def.id}`}
    >
      <h3 id={`w-${def.id}`}>{title}</h3>
      <p className="muted small">{description}</p>
      {query.isPending ? (
        <p className="muted" role="status">
          {t("loading")}
        </p>
      ) : query.isError ? (
        <p className="alert" role="alert">
          {query.error.message === "no_succeeded_execution" ? t("noExecution") : t("error")}
        </p>
      ) : query.data.state === "no_reviews" ? (
        <p className="notice" data-state="no-reviews">
          {t("noReviews")}
        </p>
      ) : !data || (def.options.compare !== "places" && isEmpty(data)) ? (
        <p className="muted empty" data-state="empty">
          {t("empty")}
        </p>
      ) : (
        <div data-state="ready">
          <WidgetBody def={def} data={data} />
        </div>
      )}
    </section>
  );
}
