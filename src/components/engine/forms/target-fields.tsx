"use client";

import { useTranslations } from "next-intl";
import { FieldError } from "./field";

/** The API's review orders (REVIEW_SORTS of src/server/services/reviews/schemas.ts, which the browser does not load). */
const REVIEW_SORTS = ["newest", "most_relevant", "highest_rating", "lowest_rating"] as const;

/** The form's strings of one target besides its place: how many reviews, in which order, language, since. */
export interface TargetValues {
  review_limit: string;
  sort: (typeof REVIEW_SORTS)[number];
  language: string;
  since: string;
}

export const EMPTY_TARGET: TargetValues = { review_limit: "100", sort: "newest", language: "", since: "" };

/** The target's fields as the API takes them (empty ones left out, so the API's defaults apply). */
export function targetFields(v: TargetValues) {
  return {
    ...(v.review_limit.trim() ? { review_limit: Number(v.review_limit) } : {}),
    sort: v.sort,
    ...(v.language.trim() ? { language: v.language.trim() } : {}),
    ...(v.since ? { since: new Date(`${v.since}T00:00:00.000Z`) } : {}),
  };
}

/** Limit, sort, language and since of a job or a schedule's target, each with the API's error under it. */
export function TargetFields({
  value,
  onChange,
  errors,
}: {
  value: TargetValues;
  onChange: (v: TargetValues) => void;
  errors: Map<string, string>;
}) {
  const t = useTranslations("engineForms");
  const field = (name: keyof TargetValues, input: React.ReactNode, hint?: string) => (
    <div className="field">
      <label htmlFor={`f-${name}`}>{t(name)}</label>
      {input}
      {hint ? (
        <span id={`f-${name}-hint`} className="muted small">
          {hint}
        </span>
      ) : null}
      <FieldError id={`f-${name}-error`} message={errors.get(name)} />
    </div>
  );
  const described = (name: keyof TargetValues, hint: boolean) => ({
    id: `f-${name}`,
    "aria-invalid": errors.has(name) ? true : undefined,
    "aria-describedby":
      [hint ? `f-${name}-hint` : "", errors.has(name) ? `f-${name}-error` : ""].filter(Boolean).join(" ") || undefined,
  });
  return (
    <>
      {field(
        "review_limit",
        <input
          {...described("review_limit", true)}
          type="number"
          inputMode="numeric"
          value={value.review_limit}
          onChange={(e) => onChange({ ...value, review_limit: e.target.value })}
        />,
        t("reviewLimitHint"),
      )}
      {field(
        "sort",
        <select
          {...described("sort", false)}
          value={value.sort}
          onChange={(e) => onChange({ ...value, sort: e.target.value as TargetValues["sort"] })}
        >
          {REVIEW_SORTS.map((s) => (
            <option key={s} value={s}>
              {t(`sorts.${s}`)}
            </option>
          ))}
        </select>,
      )}
      {field(
        "language",
        <input
          {...described("language", true)}
          value={value.language}
          maxLength={20}
          onChange={(e) => onChange({ ...value, language: e.target.value })}
        />,
        t("languageHint"),
      )}
      {field(
        "since",
        <input
          {...described("since", true)}
          type="date"
          value={value.since}
          onChange={(e) => onChange({ ...value, since: e.target.value })}
        />,
        t("sinceHint"),
      )}
    </>
  );
}
