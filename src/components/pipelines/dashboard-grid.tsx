"use client";

import { Widget } from "@/components/widgets/widget";
import type { WidgetDefinition } from "@/server/pipelines/types";

/** The widgets of a pipeline's dashboard on a 12-column grid. */
export function DashboardGrid({
  pipelineId,
  widgets,
  executionId,
}: {
  pipelineId: string;
  widgets: WidgetDefinition[];
  executionId?: string;
}) {
  return (
    <div className="widget-grid">
      {widgets.map((w) => (
        <Widget key={w.id} pipelineId={pipelineId} def={w} executionId={executionId} />
      ))}
    </div>
  );
}
