import { getTranslations } from "next-intl/server";
import { StatusPage } from "@/components/ui/status-page";
import { Link } from "@/i18n/navigation";

export default async function NotFound() {
  const t = await getTranslations("errors");
  return (
    <StatusPage
      kind="notFound"
      code="404"
      title={t("notFoundTitle")}
      actions={
        <Link href="/" className="button">
          {t("backHome")}
        </Link>
      }
    >
      <p>{t("notFoundBody")}</p>
    </StatusPage>
  );
}
