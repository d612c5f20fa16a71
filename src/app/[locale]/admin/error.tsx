"use client";

import { useTranslations } from "next-intl";

export default function AdminError({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations("admin.error");
  return (
    <section className="stack narrow" role="alert">
      <h1>{t("title")}</h1>
      <p>{t("body")}</p>
      <p>
        <button type="button" className="button" onClick={reset}>
          {t("retry")}
        </button>
      </p>
    </section>
  );
}
