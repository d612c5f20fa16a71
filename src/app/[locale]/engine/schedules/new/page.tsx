import { getTranslations, setRequestLocale } from "next-intl/server";
import { ScheduleForm } from "@/components/engine/forms/schedule-form";
import { BackLink } from "@/components/ui/back-link";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engineForms", "newSchedule");

export default async function Page({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engineForms");
  return (
    <section className="stack">
      <BackLink href="/engine/schedules">{t("backToSchedules")}</BackLink>
      <h1>{t("newSchedule")}</h1>
      <p className="muted">{t("newScheduleLead")}</p>
      <ScheduleForm />
    </section>
  );
}
