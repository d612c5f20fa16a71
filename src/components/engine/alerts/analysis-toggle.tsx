"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Tag } from "@/components/ui/status-badge";
import { useTRPC } from "@/trpc/react";

/** Whether a schedule's batches are analysed once they end (so its alert rules fire), and the switch. */
export function AnalysisToggle({ scheduleId, on }: { scheduleId: string; on: boolean }) {
  const t = useTranslations("alerts");
  const trpc = useTRPC();
  const client = useQueryClient();
  const set = useMutation(
    trpc.scrape.schedules.setAnalysis.mutationOptions({
      onSuccess: () =>
        client.invalidateQueries({ queryKey: trpc.scrape.schedules.get.queryKey({ schedule_id: scheduleId }) }),
    }),
  );
  return (
    <span className="row" data-testid="schedule-analysis" data-on={on}>
      <Tag tone={on ? "success" : "neutral"}>{on ? t("analysisOn") : t("analysisOff")}</Tag>
      <button
        type="button"
        className="button secondary small"
        disabled={set.isPending}
        onClick={() => set.mutate({ schedule_id: scheduleId, analyse_after_run: !on })}
      >
        {on ? t("turnAnalysisOff") : t("turnAnalysisOn")}
      </button>
      {set.isError ? (
        <span className="field-error" role="alert">
          {t("actionFailed")}
        </span>
      ) : null}
    </span>
  );
}
