import { getTranslations, setRequestLocale } from "next-intl/server";
import { JobForm } from "@/components/engine/forms/job-form";
import { BackLink } from "@/components/ui/back-link";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engineForms", "newJob");

export default async function Page({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engineForms");
  return (
    <section className="stack">
      <BackLink href="/engine/jobs">{t("backToJobs")}</BackLink>
      <h1>{t("newJob")}</h1>
      <p className="muted">{t("newJobLead")}</p>
      <JobForm />
    </section>
  );
}
