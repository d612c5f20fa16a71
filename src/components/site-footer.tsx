import { getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";

/** The bar under every page: links for everyone, signed in or not (the API reference). */
export async function SiteFooter() {
  const t = await getTranslations("account");
  return (
    <footer className="site-footer">
      <nav aria-label={t("footerLabel")} className="container row">
        <Link href="/api-reference">{t("apiReferenceLink")}</Link>
      </nav>
    </footer>
  );
}
