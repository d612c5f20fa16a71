"use client";

import { useTranslations } from "next-intl";
import { useFormats } from "@/i18n/use-formats";
import { LocalTime } from "@/components/local-time";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { Link } from "@/i18n/navigation";
import type { RouterOutputs } from "@/trpc/types";
import { StatusBadge } from "@/components/ui/status-badge";

export type ScheduleRun = RouterOutputs["scrape"]["schedules"]["get"]["runs"][number];

/** A schedule's runs, newest first: slot (to the run's batch), state, jobs finished, reviews and what changed. */
export function ScheduleRuns({ runs }: { runs: readonly ScheduleRun[] }) {
  const t = useTranslations("engine");
  const f = useFormats();
  const count = (n: number | undefined) => (n === undefined ? "—" : n);
  return (
    <ScrollRegion label={t("schedule.runsTitle")}>
      <table>
        <thead>
          <tr>
            <th>{t("schedule.slot")}</th>
            <th>{t("status")}</th>
            <th>{t("jobsCount")}</th>
            <th>{t("reviews")}</th>
            <th>{t("schedule.new")}</th>
            <th>{t("schedule.updated")}</th>
            <th>{t("schedule.unchanged")}</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.batch_id} data-batch-id={r.batch_id}>
              <td>
                <Link href={`/engine/batches/${r.batch_id}`}>
                  <LocalTime iso={r.slot.toISOString()} />
                </Link>
              </td>
              <td>
                <StatusBadge status={r.status} />
              </td>
              <td>{t("schedule.finishedOf", { finished: r.finished_jobs, total: r.total_jobs })}</td>
              <td>{f.number(r.review_count)}</td>
              <td>{count(r.changes?.new)}</td>
              <td>{count(r.changes?.updated)}</td>
              <td>{count(r.changes?.unchanged)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
