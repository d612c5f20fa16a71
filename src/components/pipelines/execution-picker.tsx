"use client";

import { usePathname, useRouter } from "next/navigation";
import { useFormatter, useTranslations } from "next-intl";
import { useId, useState, useTransition, type FormEvent } from "react";
import { groupRunsByPlace, NO_PLACE, type PickableRun } from "./run-groups";

/**
 * The picker of a dashboard or report: a place (from the caller's runs), then one of that place's
 * runs, newest first; "Show" sets ?execution=. A plain GET form, so it also works before hydration;
 * choosing in a select never navigates by itself (no change of context on input).
 */
export function ExecutionPicker({ runs, currentId }: { runs: PickableRun[]; currentId: string }) {
  const t = useTranslations("pipelines.view");
  const format = useFormatter();
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const id = useId();
  const groups = groupRunsByPlace(runs);
  const [groupKey, setGroupKey] = useState(
    () => groups.find((g) => g.runs.some((r) => r.id === currentId))?.key ?? groups[0]?.key ?? NO_PLACE,
  );
  const group = groups.find((g) => g.key === groupKey) ?? groups[0];
  const [runId, setRunId] = useState(currentId);
  const chosen = group?.runs.some((r) => r.id === runId) ? runId : (group?.runs[0]?.id ?? currentId);

  const placeLabel = (g: (typeof groups)[number]) =>
    !g.place
      ? t("otherRuns")
      : g.place.name
        ? t("placeNamed", { name: g.place.name, key: g.place.place_key })
        : g.place.place_key;
  const runLabel = (r: PickableRun) => {
    const date = format.dateTime(new Date(r.finished_at ?? r.queued_at), { dateStyle: "medium", timeStyle: "short" });
    return r.review_count === null ? t("runOptionLegacy", { date }) : t("runOption", { date, count: r.review_count });
  };
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    startTransition(() => router.push(`${pathname}?execution=${encodeURIComponent(chosen)}`));
  }

  return (
    <form
      className="card picker no-print"
      method="get"
      onSubmit={submit}
      aria-busy={pending}
      aria-label={t("pickerLegend")}
    >
      <div className="field">
        <label htmlFor={`${id}-place`}>{t("place")}</label>
        <select
          id={`${id}-place`}
          value={group?.key ?? NO_PLACE}
          onChange={(e) => (setGroupKey(e.target.value), setRunId(""))}
        >
          {groups.map((g) => (
            <option key={g.key} value={g.key}>
              {placeLabel(g)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-run`}>{t("run")}</label>
        <select id={`${id}-run`} name="execution" value={chosen} onChange={(e) => setRunId(e.target.value)}>
          {(group?.runs ?? []).map((r) => (
            <option key={r.id} value={r.id}>
              {runLabel(r)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button" disabled={pending}>
        {t("show")}
      </button>
    </form>
  );
}
