import { getTranslations, setRequestLocale } from "next-intl/server";
import { JobsTable } from "@/components/engine/jobs-table";
import { Link } from "@/i18n/navigation";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engine", "jobsTitle");

export default async function Page({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  const tf = await getTranslations("engineForms");
  return (
    <section className="stack">
      <div className="row-between">
        <h1>{t("jobsTitle")}</h1>
        <Link href="/engine/jobs/new" className="button">
          {tf("newJob")}
        </Link>
      </div>
      <JobsTable />
    </section>
  );
}
