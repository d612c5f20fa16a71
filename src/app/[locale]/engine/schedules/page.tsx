import { getTranslations, setRequestLocale } from "next-intl/server";
import { SchedulesTable } from "@/components/engine/schedules-table";
import { Link } from "@/i18n/navigation";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engine", "schedulesTitle");

export default async function Page({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  const tf = await getTranslations("engineForms");
  return (
    <section className="stack">
      <div className="row-between">
        <h1>{t("schedulesTitle")}</h1>
        <Link href="/engine/schedules/new" className="button">
          {tf("newSchedule")}
        </Link>
      </div>
      <SchedulesTable />
    </section>
  );
}
