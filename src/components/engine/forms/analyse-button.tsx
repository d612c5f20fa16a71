"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useRouter } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";

/** The review-analytics pipeline's run request for the data of one page (its input schema: input.ts). */
export type AnalyseTarget = { job_ids: string[] } | { batch_ids: string[] } | { place_key: string; origin?: string };

const PIPELINE = "review-analytics";

/**
 * "Analyse": queues a review-analytics run over exactly the page's data (its job, batch, the batches of
 * a schedule's runs, or a place) through pipelines.execute, then goes to the run's progress page.
 */
export function AnalyseButton({
  target,
  disabled,
  label,
}: {
  target: AnalyseTarget;
  disabled?: boolean;
  /** The button's words when the page has more than one (default: "Analyse"). */
  label?: string;
}) {
  const t = useTranslations("engineForms");
  const trpc = useTRPC();
  const router = useRouter();
  const execute = useMutation(
    trpc.pipelines.execute.mutationOptions({
      onSuccess: (e) => router.push(`/pipelines/${PIPELINE}/executions/${e.id}`),
    }),
  );
  const code = execute.error?.message ?? "";
  const limit = (execute.error?.data as { details?: { limit?: number } | null } | undefined)?.details?.limit ?? 0;
  return (
    <div className="stack-sm">
      <button
        type="button"
        className="button secondary"
        disabled={disabled || execute.isPending || execute.isSuccess}
        onClick={() => execute.mutate({ pipeline_id: PIPELINE, input: target })}
      >
        {execute.isPending ? t("analysing") : (label ?? t("analyse"))}
      </button>
      {execute.isError ? (
        <p className="alert" role="alert" data-error={code}>
          {t.has(`analyseErrors.${code}`) ? t(`analyseErrors.${code}`, { limit }) : t("errors.failed")}
        </p>
      ) : null}
    </div>
  );
}
