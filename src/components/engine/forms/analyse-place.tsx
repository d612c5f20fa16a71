"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Link } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { AnalyseButton } from "./analyse-button";

/**
 * "Analyse the place": every review of the job's place that the caller's jobs collected (place key and
 * origin), at once, or through the run form prefilled with the place (to choose dates first).
 */
export function AnalysePlace({ placeId }: { placeId: string }) {
  const t = useTranslations("engineForms");
  const trpc = useTRPC();
  const place = useQuery(trpc.scrape.place.queryOptions({ place_id: placeId }));
  if (!place.data) return null;
  const p = place.data;
  const query = new URLSearchParams({ place_key: p.place_key, origin: p.origin });
  return (
    <>
      <AnalyseButton
        target={{ place_key: p.place_key, origin: p.origin }}
        label={t("analysePlace", { name: p.name ?? p.place_key })}
      />
      <Link href={`/pipelines/review-analytics/execute?${query.toString()}`}>{t("analysePlaceForm")}</Link>
    </>
  );
}
