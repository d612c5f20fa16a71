"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmBox } from "@/components/confirm-box";
import { useTRPC } from "@/trpc/react";

/**
 * Cancel (a queued or running job) and Retry (a failed or cancelled one), each after a confirmation
 * (docs/review-engine.md, "Cancel and retry"). A running job shows that its cancel was asked until its
 * run stops.
 */
export function JobActions({
  jobId,
  status,
  cancelRequested,
}: {
  jobId: string;
  status: string;
  cancelRequested: boolean;
}) {
  const t = useTranslations("engine");
  const trpc = useTRPC();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState<"cancel" | "retry" | null>(null);
  const refresh = () => {
    setConfirming(null);
    return client.invalidateQueries({ queryKey: trpc.scrape.job.queryKey({ job_id: jobId }) });
  };
  const cancel = useMutation(trpc.scrape.cancelJob.mutationOptions({ onSuccess: refresh }));
  const retry = useMutation(trpc.scrape.retryJob.mutationOptions({ onSuccess: refresh }));
  const cancellable = (status === "queued" || status === "running") && !cancelRequested;
  const retryable = status === "failed" || status === "cancelled";
  if (cancelRequested && status === "running") return <p className="muted">{t("cancelRequested")}</p>;
  if (!cancellable && !retryable) return null;
  const failed = cancel.isError || retry.isError;
  return (
    <div className="stack-sm">
      {confirming ? (
        <ConfirmBox
          text={
            confirming === "cancel"
              ? t(status === "running" ? "cancelRunningConfirm" : "cancelJobConfirm")
              : t("retryJobConfirm")
          }
          yes={confirming === "cancel" ? t("cancelJobYes") : t("retryJobYes")}
          cancel={t("keepJob")}
          pending={cancel.isPending || retry.isPending}
          onYes={() => (confirming === "cancel" ? cancel.mutate({ job_id: jobId }) : retry.mutate({ job_id: jobId }))}
          onCancel={() => setConfirming(null)}
        />
      ) : (
        <p className="row">
          {cancellable ? (
            <button type="button" className="button secondary" onClick={() => setConfirming("cancel")}>
              {t("cancelJob")}
            </button>
          ) : null}
          {retryable ? (
            <button type="button" className="button secondary" onClick={() => setConfirming("retry")}>
              {t("retryJob")}
            </button>
          ) : null}
        </p>
      )}
      {failed ? (
        <p className="alert" role="alert">
          {t("actionFailed")}
        </p>
      ) : null}
    </div>
  );
}
