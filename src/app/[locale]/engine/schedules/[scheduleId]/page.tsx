import { getTranslations, setRequestLocale } from "next-intl/server";
import { ScheduleDetail } from "@/components/engine/schedule-detail";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engine", "scheduleTitle");

export default async function Page({ params }: { params: Promise<{ locale: string; scheduleId: string }> }) {
  const { locale, scheduleId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("scheduleTitle")}</h1>
      <ScheduleDetail scheduleId={scheduleId} />
    </section>
  );
}
