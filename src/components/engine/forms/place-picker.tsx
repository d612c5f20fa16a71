"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { FieldError } from "./field";

/** How a form names its place: a URL, a platform id, or a known place found by name (which sets the id). */
export type PlaceChoice = { kind: "url"; url: string } | { kind: "platform_id"; id: string };

/** The target fields the API takes for the choice. */
export const placeFields = (c: PlaceChoice) =>
  c.kind === "url" ? { place_url: c.url.trim() || undefined } : { platform_id: c.id.trim() || undefined };

/**
 * The place of a job or schedule: a search over the known places by name (at most ten answers, those
 * the caller may see), a place URL or a platform id. Choosing a found place fills its platform id.
 */
export function PlacePicker({
  value,
  onChange,
  errors,
}: {
  value: PlaceChoice;
  onChange: (c: PlaceChoice) => void;
  errors: Map<string, string>;
}) {
  const t = useTranslations("engineForms");
  const trpc = useTRPC();
  const [q, setQ] = useState("");
  const [chosen, setChosen] = useState<string | null>(null);
  const search = useQuery({
    ...trpc.scrape.searchPlaces.queryOptions({ q: q.trim() }),
    enabled: q.trim().length >= 2,
    placeholderData: keepPreviousData,
  });
  const urlError = errors.get("place_url");
  const idError = errors.get("platform_id");
  return (
    <fieldset className="stack-sm">
      <legend>{t("place")}</legend>
      <div className="field">
        <label htmlFor="f-place-search">{t("placeSearch")}</label>
        <input
          id="f-place-search"
          type="search"
          value={q}
          maxLength={100}
          autoComplete="off"
          aria-describedby="f-place-search-hint"
          onChange={(e) => setQ(e.target.value)}
        />
        <span id="f-place-search-hint" className="muted small">
          {t("placeSearchHint")}
        </span>
      </div>
      {q.trim().length >= 2 && search.data ? (
        search.data.items.length === 0 ? (
          <p className="muted small">{t("noPlaceFound")}</p>
        ) : (
          <ul className="stack-sm" aria-label={t("placesFound", { count: search.data.items.length })}>
            {search.data.items.map((p) => {
              const id = p.platform_id ?? p.place_key;
              return (
                <li key={p.id}>
                  <button
                    type="button"
                    className="button secondary small"
                    aria-pressed={chosen === p.id}
                    onClick={() => (setChosen(p.id), onChange({ kind: "platform_id", id }))}
                  >
                    {p.name ?? id}
                  </button>{" "}
                  <code className="muted small">{id}</code>
                  {p.address ? <span className="muted small"> · {p.address}</span> : null}
                </li>
              );
            })}
          </ul>
        )
      ) : null}
      <div className="row">
        <label>
          <input
            type="radio"
            name="place-kind"
            checked={value.kind === "platform_id"}
            onChange={() => onChange({ kind: "platform_id", id: "" })}
          />{" "}
          {t("byPlatformId")}
        </label>
        <label>
          <input
            type="radio"
            name="place-kind"
            checked={value.kind === "url"}
            onChange={() => onChange({ kind: "url", url: "" })}
          />{" "}
          {t("byUrl")}
        </label>
      </div>
      {value.kind === "platform_id" ? (
        <div className="field">
          <label htmlFor="f-platform_id">{t("platformId")}</label>
          <input
            id="f-platform_id"
            value={value.id}
            maxLength={200}
            aria-invalid={idError || urlError ? true : undefined}
            aria-describedby={idError || urlError ? "f-platform_id-error" : undefined}
            onChange={(e) => (setChosen(null), onChange({ kind: "platform_id", id: e.target.value }))}
          />
          <FieldError id="f-platform_id-error" message={idError ?? urlError} />
        </div>
      ) : (
        <div className="field">
          <label htmlFor="f-place_url">{t("placeUrl")}</label>
          <input
            id="f-place_url"
            type="url"
            value={value.url}
            maxLength={2048}
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? "f-place_url-error" : undefined}
            onChange={(e) => onChange({ kind: "url", url: e.target.value })}
          />
          <FieldError id="f-place_url-error" message={urlError} />
        </div>
      )}
    </fieldset>
  );
}
