import { getTranslations, setRequestLocale } from "next-intl/server";
import { Dashboards } from "@/components/engine/dashboards";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engine", "dashboards");

export default async function Page({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("dashboards")}</h1>
      <Dashboards />
    </section>
  );
}
