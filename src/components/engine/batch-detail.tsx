"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmBox } from "@/components/confirm-box";
import { pollUnlessAccessLost } from "@/trpc/access-lost";
import { useTRPC } from "@/trpc/react";
import { ENGINE_POLL_MS } from "./batches-table";
import { AnalyseButton } from "./forms/analyse-button";
import { JobsTable } from "./jobs-table";
import { BatchProgress, QueryState } from "./progress";
import { StatusBadge } from "@/components/ui/status-badge";

/** One batch: live progress, counts by state, cancel, and its jobs. */
export function BatchDetail({ batchId }: { batchId: string }) {
  const t = useTranslations("engine");
  const trpc = useTRPC();
  const client = useQueryClient();
  const batch = useQuery({
    ...trpc.scrape.batch.queryOptions({ batch_id: batchId }),
    refetchInterval: pollUnlessAccessLost(ENGINE_POLL_MS),
  });
  const cancel = useMutation(
    trpc.scrape.cancelBatch.mutationOptions({
      onSuccess: () => client.invalidateQueries({ queryKey: trpc.scrape.batch.queryKey({ batch_id: batchId }) }),
    }),
  );
  const [confirming, setConfirming] = useState(false);
  const b = batch.data;
  if (!b) return <QueryState loading={batch.isPending} error={batch.isError} empty={false} />;
  const open = b.status === "queued" || b.status === "running";
  return (
    <div className="stack">
      <div className="card stack-sm">
        <div className="row-between">
          <h2>{b.name ?? b.id}</h2>
          <StatusBadge status={b.status} />
        </div>
        <BatchProgress percent={b.percent} label={b.name ?? b.id} />
        <p className="muted">{t("counts", { ...b.counts, total: b.total_jobs })}</p>
        <p className="muted">{t("callbackState", { state: t(`callback.${b.callback_state}`) })}</p>
        <AnalyseButton target={{ batch_ids: [b.id] }} />
        {open && !confirming ? (
          <p>
            <button
              type="button"
              className="button danger secondary"
              disabled={cancel.isPending}
              onClick={() => setConfirming(true)}
            >
              {t("cancelBatch")}
            </button>
          </p>
        ) : null}
        {open && confirming ? (
          <ConfirmBox
            text={t("cancelBatchConfirm", { queued: b.counts.queued, running: b.counts.running })}
            yes={t("cancelBatchYes")}
            cancel={t("keepBatch")}
            pending={cancel.isPending}
            onYes={() => cancel.mutate({ batch_id: batchId }, { onSettled: () => setConfirming(false) })}
            onCancel={() => setConfirming(false)}
          />
        ) : null}
        {cancel.isError ? (
          <p className="alert" role="alert">
            {t("actionFailed")}
          </p>
        ) : null}
      </div>
      <h2>{t("jobsTitle")}</h2>
      <JobsTable batchId={batchId} />
    </div>
  );
}
