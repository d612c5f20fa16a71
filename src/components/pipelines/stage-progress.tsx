"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { RouterOutputs } from "@/trpc/types";
import { StageWarnings } from "./stage-warning";
import { StatusBadge } from "./status-badge";

type Execution = RouterOutputs["pipelines"]["execution"];

/** Per-stage status, items and duration of one execution. */
export function StageProgress({ execution, stageNames }: { execution: Execution; stageNames: Record<string, string> }) {
  const t = useTranslations("pipelines.progress");
  const ts = useTranslations("pipelines.stages");
  const format = useFormatter();
  const stages = Object.entries(execution.stage_metrics);
  const done = stages.filter(([, m]) => m.status === "succeeded").length;
  return (
    <div className="stack-sm">
      <progress max={stages.length || 1} value={done} aria-label={t("label")}>
        {done}
      </progress>
      <ol className="stage-list" aria-label={t("stages")}>
        {stages.map(([id, m]) => (
          <li key={id} className="stage-item" data-stage={id} data-stage-status={m.status}>
            <span className="stage-name">{ts.has(id) ? ts(id) : (stageNames[id] ?? id)}</span>
            <StatusBadge status={m.status} />
            <span className="muted small">
              {m.items_in !== null ? t("items", { in: m.items_in, out: m.items_out ?? 0 }) : ""}
              {m.duration_ms !== null ? ` · ${format.number(m.duration_ms, { maximumFractionDigits: 1 })} ms` : ""}
            </span>
            <StageWarnings warnings={m.warnings} />
            {m.errors.length ? <span className="small field-error">{m.errors.join("; ")}</span> : null}
          </li>
        ))}
      </ol>
      {execution.status === "failed" ? (
        <p className="alert" role="alert">
          {t("failed", {
            stage: execution.failed_stage
              ? ts.has(execution.failed_stage)
                ? ts(execution.failed_stage)
                : execution.failed_stage
              : "?",
            error: execution.error ?? "",
          })}
        </p>
      ) : null}
      {execution.total_duration_ms !== null ? (
        <p className="muted">{t("total", { ms: execution.total_duration_ms })}</p>
      ) : null}
    </div>
  );
}
