import { getTranslations, setRequestLocale } from "next-intl/server";
import { SchedulesTable } from "@/components/engine/schedules-table";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engine", "schedulesTitle");

export default async function Page({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("schedulesTitle")}</h1>
      <SchedulesTable />
    </section>
  );
}
