import { getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";
import { IconBook, ProductMark } from "./ui/icons";

/** The bar under every page: the product's mark and links for everyone, signed in or not (the API reference). */
export async function SiteFooter() {
  const t = await getTranslations("account");
  const tn = await getTranslations("nav");
  return (
    <footer className="site-footer">
      <nav aria-label={t("footerLabel")} className="container footer-row">
        <span className="footer-brand">
          <ProductMark size={20} />
          {tn("brand")}
        </span>
        <Link href="/api-reference" className="nav-link">
          <IconBook />
          {t("apiReferenceLink")}
        </Link>
      </nav>
    </footer>
  );
}
