import { getTranslations, setRequestLocale } from "next-intl/server";
import { JobDetail } from "@/components/engine/job-detail";
import { engineTitle } from "@/i18n/page-titles";
import { loadEngineObject } from "@/trpc/load-engine";

export const generateMetadata = engineTitle("job", "jobId", "jobTitle");

export default async function Page({ params }: { params: Promise<{ locale: string; jobId: string }> }) {
  const { locale, jobId } = await params;
  setRequestLocale(locale);
  await loadEngineObject(locale, "job", jobId);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("jobTitle")}</h1>
      <JobDetail jobId={jobId} />
    </section>
  );
}
