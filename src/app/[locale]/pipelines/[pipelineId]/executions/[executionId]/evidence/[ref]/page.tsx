import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { loadPipeline } from "@/components/pipelines/load-pipeline";
import { PipelineTabs } from "@/components/pipelines/pipeline-tabs";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { getFormats } from "@/i18n/get-formats";
import { BackLink } from "@/components/ui/back-link";
import { Link } from "@/i18n/navigation";
import { titleFrom } from "@/i18n/metadata";
import type { EvidenceFilter } from "@/server/pipelines/review-analytics/evidence";
import { isTopic, TOPIC_VOCABULARY } from "@/server/pipelines/review-analytics/topic-vocabulary";
import { serverCaller } from "@/trpc/server";
import { isUuid } from "@/server/core/ids";
import { EmptyState } from "@/components/ui/states";

export const generateMetadata = titleFrom("pipelines.evidence", "title");

const PAGE = 25;
const POLARITY_KEY = {
  positive: "filter.categoryPositive",
  negative: "filter.categoryNegative",
  neutral: "filter.categoryNeutral",
  mentioned: "filter.categoryMentioned",
} as const;

async function loadEvidence(pipelineId: string, executionId: string, ref: string, cursor: string | undefined) {
  try {
    return await (
      await serverCaller()
    ).pipelines.evidence({
      pipeline_id: pipelineId,
      execution_id: executionId,
      ref,
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) return null;
    throw error;
  }
}

/** One figure of a report and the reviews it counts, 25 a page, by review id. */
export default async function EvidencePage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string; pipelineId: string; executionId: string; ref: string }>;
  searchParams: Promise<{ cursor?: string }>;
}) {
  const { locale, pipelineId, executionId, ref: rawRef } = await params;
  setRequestLocale(locale);
  if (!isUuid(executionId)) notFound();
  const ref = decodeURIComponent(rawRef);
  const { cursor } = await searchParams;
  const pipeline = await loadPipeline(locale, pipelineId);
  const t = await getTranslations("pipelines.evidence");
  const tl = await getTranslations("pipelines.labels");
  const format = await getFormatter();
  const formats = await getFormats();
  const L = (k: string) => (tl.has(k) ? tl(k) : k);
  const evidence = await loadEvidence(pipeline.id, executionId, ref, typeof cursor === "string" ? cursor : undefined);
  if (!evidence) notFound();
  const { figure, items } = evidence;
  const f = evidence.filter as EvidenceFilter;
  const shown = figure.text ?? (figure.unit === "%" ? formats.percent(figure.value) : formats.number(figure.value));
  const conditions: string[] = [];
  if (f.kept) conditions.push(t("filter.kept"));
  if (f.has_text) conditions.push(t("filter.hasText"));
  if (f.sentiment) conditions.push(t("filter.sentiment", { sentiment: L(f.sentiment) }));
  if (f.critical) conditions.push(t("filter.critical"));
  if (f.category)
    conditions.push(t(POLARITY_KEY[f.category.polarity ?? "mentioned"], { category: L(f.category.name) }));
  if (f.issue)
    conditions.push(
      f.issue.category
        ? t("filter.issueIn", { severity: L(f.issue.severity), category: L(f.issue.category) })
        : t("filter.issue", { severity: L(f.issue.severity) }),
    );
  if (f.phrase) conditions.push(t("filter.phrase", { phrase: f.phrase.phrase, category: L(f.phrase.category) }));
  if (f.topic)
    conditions.push(
      t("filter.topic", {
        label: isTopic(f.topic.topic)
          ? TOPIC_VOCABULARY[f.topic.topic].label[locale === "es" || locale === "de" ? locale : "en"]
          : f.topic.topic,
      }),
    );
  if (f.language) conditions.push(t("filter.language", { language: f.language }));
  if (f.rating) conditions.push(t("filter.rating", { min: f.rating.min, max: f.rating.max }));
  if (f.month) conditions.push(t("filter.month", { month: formats.month(f.month) }));
  // 2024-01-01 was a Monday: weekday 0 of the report.
  if (f.weekday_hour)
    conditions.push(
      t("filter.weekdayHour", {
        weekday: format.dateTime(new Date(Date.UTC(2024, 0, 1 + f.weekday_hour.weekday)), {
          weekday: "long",
          timeZone: "UTC",
        }),
        hour: f.weekday_hour.hour,
      }),
    );
  if (f.place) conditions.push(t(f.place.other ? "filter.otherPlaces" : "filter.place", { place: f.place.place_key }));
  const report = `/pipelines/${pipeline.id}/report?execution=${executionId}`;
  const here = `/pipelines/${pipeline.id}/executions/${executionId}/evidence/${encodeURIComponent(ref)}`;
  return (
    <section className="stack">
      <PipelineTabs pipelineId={pipeline.id} name={pipeline.name} current="report" executionId={executionId} />
      <BackLink href={report}>{t("backToReport")}</BackLink>
      <h2>{t("heading", { figure: shown })}</h2>
      <p data-testid="evidence-summary">
        {t("counts", { reviews: figure.reviews })}
        {figure.of_reviews !== null ? ` ${t("ofReviews", { reviews: figure.of_reviews })}` : ""}
        {figure.previous_run ? ` ${t("previousRun")}` : ""}
      </p>
      <p className="muted small">
        {conditions.length ? t("which", { conditions: conditions.join(" · ") }) : t("everyReview")}
      </p>
      {items.length === 0 ? (
        <EmptyState title={t("empty")} />
      ) : (
        <ScrollRegion label={t("title")}>
          <table className="table" data-testid="evidence-reviews">
            <thead>
              <tr>
                <th scope="col">{t("date")}</th>
                <th scope="col">{t("rating")}</th>
                <th scope="col">{t("sentiment")}</th>
                <th scope="col">{t("categories")}</th>
                <th scope="col">{t("text")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.review_id} data-review-id={r.review_id}>
                  <td>{r.published_at ? format.dateTime(new Date(r.published_at), { dateStyle: "medium" }) : "—"}</td>
                  <td>{r.rating !== null ? `${r.rating}★` : "—"}</td>
                  <td>
                    {r.sentiment ? L(r.sentiment) : "—"}
                    {r.critical ? <span className="badge risk-high"> {t("criticalBadge")}</span> : null}
                  </td>
                  <td>{r.categories.map((c) => L(c)).join(", ") || "—"}</td>
                  <td>
                    {r.stored ? (
                      (r.text ?? <span className="muted">{t("noText")}</span>)
                    ) : (
                      <span className="muted">{t("notStored")}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <nav className="row" aria-label={t("pages")}>
        {cursor ? <Link href={here}>{t("firstPage")}</Link> : null}
        {evidence.next_cursor ? (
          <Link href={`${here}?cursor=${encodeURIComponent(evidence.next_cursor)}`}>{t("nextPage")}</Link>
        ) : null}
      </nav>
    </section>
  );
}
