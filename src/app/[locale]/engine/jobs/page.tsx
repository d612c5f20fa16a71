import { getTranslations, setRequestLocale } from "next-intl/server";
import { JobsTable } from "@/components/engine/jobs-table";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engine", "jobsTitle");

export default async function Page({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("jobsTitle")}</h1>
      <JobsTable />
    </section>
  );
}
