import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import { narrativeIn, type ReportV2 } from "@/server/pipelines/review-analytics/synthesis/report";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { formatsFor } from "@/i18n/format";
import type { EvidenceLink, LinkField } from "@/server/pipelines/review-analytics/synthesis/citations";
import { evidenceHref, LinkedText } from "./linked-text";
import { isTopic, TOPIC_VOCABULARY } from "@/server/pipelines/review-analytics/topic-vocabulary";

const label = (t: (k: string) => string, has: (k: string) => boolean, key: string) => (has(key) ? t(key) : key);

/** Renders a narrative text of the report with its figures linked to their reviews. */
type Texts = (field: LinkField, index: number | null, text: string) => ReactNode;

function List({ title, field, items, text }: { title: string; field: LinkField; items: string[]; text: Texts }) {
  return (
    <section className="report-section">
      <h2>{title}</h2>
      <ul className="list">
        {items.map((x, i) => (
          <li key={i}>{text(field, i, x)}</li>
        ))}
      </ul>
    </section>
  );
}

/** The label keys of the compared figures (pipelines.labels). */
const COMPARED_LABEL: Record<string, string> = {
  reviews: "reviews",
  average_rating: "average_rating",
  positive_pct: "positive_share",
  negative_pct: "negative_share",
  critical_reviews: "critical_reviews",
};

/** A complaint topic's label in the page's locale (its stored English label for a topic no longer known). */
function topicLabel(topic: string, stored: string, locale: string): string {
  if (!isTopic(topic)) return stored;
  const labels = TOPIC_VOCABULARY[topic].label;
  return locale === "es" || locale === "de" ? labels[locale] : labels.en;
}

interface Strength {
  category?: unknown;
  percentage?: unknown;
  mentions?: unknown;
  top_quotes?: unknown;
}

/**
 * The v2 report: executive summary, scorecard, critical issues, action matrix, KPIs, strengths,
 * insights. The narrative is in the page's locale (English for reports stored before translations).
 * With the run's ids, every figure of the narrative links to the reviews it counts.
 */
export async function ReportV2View({
  report,
  locale,
  pipelineId,
  executionId,
}: {
  report: ReportV2;
  locale: string;
  pipelineId?: string;
  executionId?: string;
}) {
  const t = await getTranslations("pipelines.report");
  const tl = await getTranslations("pipelines.labels");
  const L = (k: string) => label(tl, tl.has, k);
  const n = narrativeIn(report, locale);
  // Figures in the locale's one format, as the narrative writes them ("58,3 %" in es and de).
  const f = formatsFor(locale);
  const figure = (value: number | null, unit: string) =>
    value === null ? "—" : unit === "%" ? f.percent(value) : f.number(value);
  const links: readonly EvidenceLink[] = Array.isArray(n.links) && report.evidence ? n.links : [];
  const href = (ref: string) => evidenceHref(pipelineId ?? "", executionId ?? "", ref);
  const text: Texts = (field, index, value) => {
    if (!pipelineId || !executionId || typeof value !== "string") return value;
    const spans = links.filter((l) => l.field === field && l.index === index);
    return spans.length ? <LinkedText text={value} spans={spans} href={href} title={t("evidenceLink")} /> : value;
  };
  return (
    <article className="report stack" data-report-format="v2">
      <section className="report-section">
        <h2>{t("executiveSummary")}</h2>
        {report.places?.length ? (
          <p className="muted" data-testid="report-places">
            {t("places", { places: report.places.map((p) => p.name ?? p.place_key).join(", ") })}
          </p>
        ) : null}
        <p className="report-headline">{text("headline", null, n.headline)}</p>
        {report.comparison?.metrics.length ? (
          <div data-testid="report-comparison">
            <p className="muted">{t("comparison", { date: f.day(report.comparison.finished_at.slice(0, 10)) })}</p>
            <ul className="list">
              {report.comparison.metrics.map((m) => (
                <li key={m.metric}>
                  {t("compared", {
                    metric: L(COMPARED_LABEL[m.metric] ?? m.metric),
                    before: m.before,
                    now: m.now,
                    direction: t(`directions.${m.direction}`),
                  })}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <p>{text("narrative", null, n.narrative)}</p>
        <dl className="metrics">
          {report.executive_summary.key_metrics.map((m) => (
            <div key={m.label}>
              <dt>{L(m.label)}</dt>
              <dd>{figure(m.value, m.unit)}</dd>
            </div>
          ))}
        </dl>
      </section>
      {n.places_compared?.length ? (
        <section className="report-section" data-testid="report-places-compared">
          <h2>{t("placesCompared")}</h2>
          <ul className="list">
            {n.places_compared.map((line, i) => {
              const spans = (report.evidence ? (n.places_compared_links ?? []) : []).filter((l) => l.index === i);
              return (
                <li key={i}>
                  {pipelineId && executionId && spans.length ? (
                    <LinkedText text={line} spans={spans} href={href} title={t("evidenceLink")} />
                  ) : (
                    line
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      <section className="report-section">
        <h2>{t("riskScorecard")}</h2>
        <ScrollRegion label={t("riskScorecard")}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("category")}</th>
                <th scope="col">{t("team")}</th>
                <th scope="col">{t("riskLevel")}</th>
                <th scope="col">{t("riskScore")}</th>
                <th scope="col">{t("mentions")}</th>
                <th scope="col">{t("negativeShare")}</th>
                <th scope="col">{t("criticalCount")}</th>
              </tr>
            </thead>
            <tbody>
              {report.risk_scorecard.map((r) => (
                <tr key={r.category}>
                  <td>{L(r.category)}</td>
                  <td>{L(r.team)}</td>
                  <td>
                    <span className={`badge risk-${r.risk_level}`}>{L(r.risk_level)}</span>
                  </td>
                  <td>{f.number(r.risk_score)}</td>
                  <td>{f.number(r.mentions)}</td>
                  <td>{f.percent(r.negative_pct)}</td>
                  <td>{f.number(r.critical_issues)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </section>
      <section className="report-section">
        <h2>{t("criticalIssues")}</h2>
        {report.critical_issues.length === 0 ? <p className="muted">{t("noCriticalIssues")}</p> : null}
        {report.critical_issues.map((c, i) => (
          <div key={c.category} className="stack-sm issue">
            <h3>
              {L(c.category)} · {L(c.severity)} · {L(c.team)}
            </h3>
            <p>{n.critical_summaries?.[i] ?? c.summary}</p>
            {c.quotes.map((q) => (
              <blockquote key={q.review_id + q.text}>
                {q.text}
                {q.rating !== null ? <span className="muted small"> {t("stars", { rating: q.rating })}</span> : null}
              </blockquote>
            ))}
          </div>
        ))}
      </section>
      {report.complaint_topics ? (
        <section className="report-section" data-testid="report-topics">
          <h2>{t("complaintTopics")}</h2>
          {Object.keys(report.complaint_topics).length === 0 ? <p className="muted">{t("noComplaintTopics")}</p> : null}
          {Object.entries(report.complaint_topics).map(([category, topics]) => (
            <div key={category} className="stack-sm">
              <h3>{L(category)}</h3>
              {topics.map((x) => (
                <div key={x.topic} className="stack-sm">
                  <p>
                    <strong>{topicLabel(x.topic, x.label, locale)}</strong> ·{" "}
                    <span className="muted">{t("topicReviews", { reviews: x.reviews })}</span>
                  </p>
                  {x.quotes.map((q) => (
                    <blockquote key={q.review_id + q.text}>
                      {q.text}
                      {q.rating !== null ? (
                        <span className="muted small"> {t("stars", { rating: q.rating })}</span>
                      ) : null}
                    </blockquote>
                  ))}
                </div>
              ))}
            </div>
          ))}
        </section>
      ) : null}
      <section className="report-section">
        <h2>{t("actionMatrix")}</h2>
        <ScrollRegion label={t("actionMatrix")}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("priority")}</th>
                <th scope="col">{t("action")}</th>
                <th scope="col">{t("team")}</th>
                <th scope="col">{t("impact")}</th>
                <th scope="col">{t("effort")}</th>
                <th scope="col">{t("timeframe")}</th>
              </tr>
            </thead>
            <tbody>
              {report.action_matrix.map((a, i) => (
                <tr key={a.priority}>
                  <td>{a.priority}</td>
                  <td>{n.action_matrix?.[i]?.action ?? a.action}</td>
                  <td>{L(a.team)}</td>
                  <td>{L(a.impact)}</td>
                  <td>{L(a.effort)}</td>
                  <td>{n.action_matrix?.[i]?.timeframe ?? a.timeframe}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </section>
      <section className="report-section">
        <h2>{t("trackingKpis")}</h2>
        <ScrollRegion label={t("trackingKpis")}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("kpi")}</th>
                <th scope="col">{t("current")}</th>
                <th scope="col">{t("target")}</th>
              </tr>
            </thead>
            <tbody>
              {report.tracking_kpis.map((k) => (
                <tr key={k.kpi}>
                  <td>{L(k.kpi)}</td>
                  <td>{figure(k.current, k.unit)}</td>
                  <td>
                    {k.direction === "up" ? "↑" : "↓"} {figure(k.target, k.unit)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </section>
      <section className="report-section">
        <h2>{t("strengths")}</h2>
        {(report.strengths_to_protect as Strength[]).map((s, i) => (
          <div key={i} className="stack-sm">
            <h3>
              {L(String(s.category ?? ""))}
              {typeof s.percentage === "number" ? ` · ${f.percent(s.percentage)}` : ""}
            </h3>
            {Array.isArray(s.top_quotes)
              ? (s.top_quotes as unknown[]).map((q, j) => <blockquote key={j}>{String(q)}</blockquote>)
              : null}
          </div>
        ))}
      </section>
      <List title={t("sentimentInsights")} field="sentiment_insights" items={n.sentiment_insights} text={text} />
      <List title={t("categoryInsights")} field="category_insights" items={n.category_insights} text={text} />
      <List title={t("timelineInsights")} field="timeline_insights" items={n.timeline_insights} text={text} />
      <List title={t("actionPlan")} field="action_plan" items={n.action_plan} text={text} />
      <List title={t("marketingAngles")} field="marketing_angles" items={n.marketing_angles} text={text} />
      <List
        title={t("priorityRecommendations")}
        field="priority_recommendations"
        items={n.priority_recommendations}
        text={text}
      />
    </article>
  );
}
