import { getFormatter, getTranslations } from "next-intl/server";
import type { PickableRun } from "./run-groups";

/** Places named in the heading before the rest is summed up (a batch may span many). */
const SHOWN_PLACES = 5;

/** Names what a dashboard or report shows: the place(s) the run analysed, and the run's date and size. */
export async function ExecutionHeading({ run, chosen }: { run: PickableRun; chosen: boolean }) {
  const t = await getTranslations("pipelines.view");
  const format = await getFormatter();
  const date = format.dateTime(new Date(run.finished_at ?? run.queued_at), { dateStyle: "medium", timeStyle: "short" });
  const names = run.places.map((p) => (p.name ? t("placeNamed", { name: p.name, key: p.place_key }) : p.place_key));
  const shown = names.slice(0, SHOWN_PLACES);
  if (names.length > SHOWN_PLACES) shown.push(t("morePlaces", { count: names.length - SHOWN_PLACES }));
  const parts = [
    t("runHeading", { date }),
    ...(run.review_count !== null ? [t("reviewCount", { count: run.review_count })] : []),
    chosen ? t("chosenRun") : t("defaultRun"),
  ];
  return (
    <div className="stack-sm" data-shown-execution={run.id}>
      <h2 className="run-places">{shown.length ? shown.join(" · ") : t("noPlace")}</h2>
      <p className="muted">{parts.join(" · ")}</p>
    </div>
  );
}
