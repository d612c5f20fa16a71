import { getTranslations } from "next-intl/server";
import { StatusPage } from "@/components/ui/status-page";
import { Link } from "@/i18n/navigation";

/** The 403 page (Next's forbidden()): a signed-in user asked for a page that is not theirs to see. */
export default async function Forbidden() {
  const t = await getTranslations("admin.forbidden");
  return (
    <StatusPage
      kind="forbidden"
      code="403"
      title={t("title")}
      actions={
        <Link href="/dashboard" className="button">
          {t("back")}
        </Link>
      }
    >
      <p>{t("body")}</p>
    </StatusPage>
  );
}
