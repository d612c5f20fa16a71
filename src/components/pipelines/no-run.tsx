import { getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";

/** What a dashboard or report shows instead of figures: no run yet, or a run that found no reviews. */
export async function NoRun({ pipelineId, reason }: { pipelineId: string; reason: "none" | "no_reviews" }) {
  const t = await getTranslations("pipelines.view");
  return (
    <div className="card stack-sm" data-state={reason === "none" ? "no-execution" : "no-reviews"}>
      <h2>{reason === "none" ? t("emptyTitle") : t("noReviewsTitle")}</h2>
      <p>{reason === "none" ? t("empty") : t("noReviews")}</p>
      <p>
        <Link className="button" href={`/pipelines/${pipelineId}/execute`}>
          {t("runNow")}
        </Link>
      </p>
    </div>
  );
}
