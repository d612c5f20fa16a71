import { getTranslations, setRequestLocale } from "next-intl/server";
import { BatchesTable } from "@/components/engine/batches-table";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engine", "batchesTitle");

export default async function Page({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("batchesTitle")}</h1>
      <BatchesTable />
    </section>
  );
}
