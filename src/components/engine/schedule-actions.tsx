"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmBox } from "@/components/confirm-box";
import { useRouter } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";

type Action = "pause" | "resume" | "delete";

/**
 * Pause (an active schedule) or Resume (a paused one: it runs at its next slot after now), and
 * Delete (its runs stay as batches; then back to the list), each after a confirmation.
 * `onDeleted` runs before the page leaves, so the page stops reading a schedule that is gone.
 */
export function ScheduleActions({
  scheduleId,
  status,
  onDeleted,
}: {
  scheduleId: string;
  status: "active" | "paused";
  onDeleted: () => void;
}) {
  const t = useTranslations("engine");
  const trpc = useTRPC();
  const client = useQueryClient();
  const router = useRouter();
  const [confirming, setConfirming] = useState<Action | null>(null);
  const refresh = async () => {
    setConfirming(null);
    await Promise.all([
      client.invalidateQueries({ queryKey: trpc.scrape.schedules.get.queryKey({ schedule_id: scheduleId }) }),
      client.invalidateQueries({ queryKey: trpc.scrape.schedules.list.pathKey() }),
    ]);
  };
  const pause = useMutation(trpc.scrape.schedules.pause.mutationOptions({ onSuccess: refresh }));
  const resume = useMutation(trpc.scrape.schedules.resume.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(
    trpc.scrape.schedules.delete.mutationOptions({
      onSuccess: () => {
        onDeleted();
        void client.invalidateQueries({ queryKey: trpc.scrape.schedules.list.pathKey() });
        router.push("/engine/schedules");
      },
    }),
  );
  const pending = pause.isPending || resume.isPending || remove.isPending;
  const failed = pause.isError || resume.isError || remove.isError;
  const run = (action: Action) => {
    const input = { schedule_id: scheduleId };
    if (action === "pause") pause.mutate(input);
    else if (action === "resume") resume.mutate(input);
    else remove.mutate(input);
  };
  return (
    <div className="stack-sm">
      {confirming ? (
        <ConfirmBox
          text={t(`schedule.${confirming}Confirm`)}
          yes={t(`schedule.${confirming}Yes`)}
          cancel={t("schedule.keep")}
          pending={pending}
          onYes={() => run(confirming)}
          onCancel={() => setConfirming(null)}
        />
      ) : (
        <p className="row">
          {status === "active" ? (
            <button type="button" className="button secondary" onClick={() => setConfirming("pause")}>
              {t("schedule.pause")}
            </button>
          ) : (
            <button type="button" className="button secondary" onClick={() => setConfirming("resume")}>
              {t("schedule.resume")}
            </button>
          )}
          <button type="button" className="button secondary" onClick={() => setConfirming("delete")}>
            {t("schedule.delete")}
          </button>
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
