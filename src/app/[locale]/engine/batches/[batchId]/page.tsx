import { getTranslations, setRequestLocale } from "next-intl/server";
import { BatchDetail } from "@/components/engine/batch-detail";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engine", "batchTitle");

export default async function Page({ params }: { params: Promise<{ locale: string; batchId: string }> }) {
  const { locale, batchId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("batchTitle")}</h1>
      <BatchDetail batchId={batchId} />
    </section>
  );
}
