"use client";

import { useTranslations } from "next-intl";
import { LocalTime } from "@/components/local-time";
import { intervalParts } from "./schedule-format";
import { StatusBadge } from "@/components/ui/status-badge";

/** A schedule's state as a badge (paused in the muted colour). */
export function ScheduleStatusBadge({ status, testId }: { status: "active" | "paused"; testId?: string }) {
  return <StatusBadge status={status} testId={testId} />;
}

/** When a schedule runs: "every 2 hours", or its cron expression (read in UTC). */
export function ScheduleWhen({ cron, intervalSeconds }: { cron: string | null; intervalSeconds: number | null }) {
  const t = useTranslations("engine");
  if (cron) {
    return (
      <span>
        <code>{cron}</code> <span className="muted small">{t("schedule.utc")}</span>
      </span>
    );
  }
  if (intervalSeconds === null) return <span>—</span>;
  const { unit, count } = intervalParts(intervalSeconds);
  return <span>{t(`every.${unit}`, { count })}</span>;
}

/** How a run collects: new_only (with the number of known reviews in a row that stops it) or full. */
export function ScheduleMode({ mode, stopAfterKnown }: { mode: "new_only" | "full"; stopAfterKnown: number }) {
  const t = useTranslations("engine");
  return (
    <span>
      {t(`collectMode.${mode}`)}
      {mode === "new_only" ? (
        <span className="muted small"> · {t("schedule.stopAfterKnown", { count: stopAfterKnown })}</span>
      ) : null}
    </span>
  );
}

/** The next run, or why there is none (a paused schedule runs no slot). */
export function NextRun({ status, at }: { status: "active" | "paused"; at: Date }) {
  const t = useTranslations("engine");
  return status === "active" ? (
    <LocalTime iso={at.toISOString()} />
  ) : (
    <span className="muted">{t("schedule.noneWhilePaused")}</span>
  );
}

/** Why the last slot made no batch: the code, and what it means when it is a known one. */
export function LastError({ code }: { code: string }) {
  const t = useTranslations("engine");
  const key = `schedule.lastErrors.${code}`;
  return (
    <span>
      <code>{code}</code>
      {t.has(key) ? <span className="muted small"> · {t(key)}</span> : null}
    </span>
  );
}
