"use client";

import { useTranslations } from "next-intl";
import { StatusPage } from "@/components/ui/status-page";
import { Link } from "@/i18n/navigation";

export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations("errors");
  return (
    <StatusPage
      kind="error"
      title={t("errorTitle")}
      alert
      actions={
        <>
          <button type="button" className="button" onClick={reset}>
            {t("retry")}
          </button>
          <Link href="/" className="button secondary">
            {t("backHome")}
          </Link>
        </>
      }
    >
      <p>{t("errorBody")}</p>
    </StatusPage>
  );
}
