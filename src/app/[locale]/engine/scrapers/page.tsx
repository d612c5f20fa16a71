import { getTranslations, setRequestLocale } from "next-intl/server";
import { ScrapersAdmin } from "@/components/engine/scrapers-admin";
import { titleFrom } from "@/i18n/metadata";
import { KNOWN_IMPLEMENTATIONS as SCRAPER_IMPLEMENTATIONS } from "@/server/services/reviews/implementations";

export const generateMetadata = titleFrom("engine", "scrapersTitle");

export default async function Page({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("scrapersTitle")}</h1>
      <ScrapersAdmin implementations={SCRAPER_IMPLEMENTATIONS} />
    </section>
  );
}
