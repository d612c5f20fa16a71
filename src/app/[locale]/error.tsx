"use client";

import { useTranslations } from "next-intl";

export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations("errors");
  return (
    <section className="stack narrow" role="alert">
      <h1>{t("errorTitle")}</h1>
      <p>{t("errorBody")}</p>
      <p>
        <button type="button" className="button" onClick={reset}>
          {t("retry")}
        </button>
      </p>
    </section>
  );
}
