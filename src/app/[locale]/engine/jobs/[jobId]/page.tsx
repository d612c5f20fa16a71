import { getTranslations, setRequestLocale } from "next-intl/server";
import { JobDetail } from "@/components/engine/job-detail";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engine", "jobTitle");

export default async function Page({ params }: { params: Promise<{ locale: string; jobId: string }> }) {
  const { locale, jobId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("jobTitle")}</h1>
      <JobDetail jobId={jobId} />
    </section>
  );
}
