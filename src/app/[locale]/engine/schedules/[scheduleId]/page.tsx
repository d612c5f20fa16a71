import { getTranslations, setRequestLocale } from "next-intl/server";
import { ScheduleDetail } from "@/components/engine/schedule-detail";
import { engineTitle } from "@/i18n/page-titles";
import { loadEngineObject } from "@/trpc/load-engine";

export const generateMetadata = engineTitle("schedule", "scheduleId", "scheduleTitle");

export default async function Page({ params }: { params: Promise<{ locale: string; scheduleId: string }> }) {
  const { locale, scheduleId } = await params;
  setRequestLocale(locale);
  await loadEngineObject(locale, "schedule", scheduleId);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("scheduleTitle")}</h1>
      <ScheduleDetail scheduleId={scheduleId} />
    </section>
  );
}
