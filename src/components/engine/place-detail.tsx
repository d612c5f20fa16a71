"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useFormats } from "@/i18n/use-formats";
import { Link } from "@/i18n/navigation";
import { ShortId } from "@/components/short-id";
import { StatusBadge } from "@/components/ui/status-badge";
import { useTRPC } from "@/trpc/react";
import { AlertRulesPanel } from "./alerts/alert-rules-panel";
import { AnalyseButton } from "./forms/analyse-button";
import { QueryState } from "./progress";

/**
 * One place (scrape.place): its name and key, the facts the platform showed, how many of its reviews
 * the caller's jobs collected and the latest job; "Analyse" runs review-analytics over all of them, or
 * the run form prefilled with the place lets dates be chosen first.
 */
export function PlaceDetail({ placeId }: { placeId: string }) {
  const t = useTranslations("engine");
  const tf = useTranslations("engineForms");
  const f = useFormats();
  const trpc = useTRPC();
  const query = useQuery(trpc.scrape.place.queryOptions({ place_id: placeId }));
  const p = query.data;
  if (!p) return <QueryState loading={query.isPending} error={query.isError} empty={false} />;
  const runForm = new URLSearchParams({ place_key: p.place_key, origin: p.origin });
  return (
    <div className="stack">
      <div className="card stack-sm">
        <h2>
          {p.name ?? p.place_key} {p.name ? <code className="muted small">{p.place_key}</code> : null}
        </h2>
        <dl className="stack-sm">
          <dt>{t("placeOrigin")}</dt>
          <dd>
            <code>{p.origin}</code>
          </dd>
          {p.address ? (
            <>
              <dt>{t("placeAddress")}</dt>
              <dd>{p.address}</dd>
            </>
          ) : null}
          {p.rating !== null ? (
            <>
              <dt>{t("rating")}</dt>
              <dd>{f.number(p.rating, 1)}</dd>
            </>
          ) : null}
          <dt>{t("reviews")}</dt>
          <dd>
            {p.review_total !== null
              ? t("placeCollectedOf", { collected: p.collected_reviews, total: p.review_total })
              : t("placeCollected", { collected: p.collected_reviews })}
          </dd>
          {p.latest_job ? (
            <>
              <dt>{t("placeLatestJob")}</dt>
              <dd>
                <ShortId id={p.latest_job.id} href={`/engine/jobs/${p.latest_job.id}`} />{" "}
                <StatusBadge status={p.latest_job.status} />
              </dd>
            </>
          ) : null}
        </dl>
        <div className="row">
          <AnalyseButton target={{ place_key: p.place_key, origin: p.origin }} disabled={p.collected_reviews === 0} />
          <Link href={`/pipelines/review-analytics/execute?${runForm.toString()}`}>{tf("analysePlaceForm")}</Link>
        </div>
        {p.collected_reviews === 0 ? <p className="muted small">{tf("analyseNoReviews")}</p> : null}
      </div>
      <AlertRulesPanel subject={{ place_id: placeId }} />
    </div>
  );
}
