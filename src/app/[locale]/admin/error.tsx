"use client";

import { useTranslations } from "next-intl";
import { StatusPage } from "@/components/ui/status-page";
import { Link } from "@/i18n/navigation";

export default function AdminError({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations("admin.error");
  const tf = useTranslations("admin.forbidden");
  return (
    <StatusPage
      kind="error"
      title={t("title")}
      alert
      actions={
        <>
          <button type="button" className="button" onClick={reset}>
            {t("retry")}
          </button>
          <Link href="/dashboard" className="button secondary">
            {tf("back")}
          </Link>
        </>
      }
    >
      <p>{t("body")}</p>
    </StatusPage>
  );
}
