import { getTranslations, setRequestLocale } from "next-intl/server";
import { BatchDetail } from "@/components/engine/batch-detail";
import { engineTitle } from "@/i18n/page-titles";
import { loadEngineObject } from "@/trpc/load-engine";

export const generateMetadata = engineTitle("batch", "batchId", "batchTitle");

export default async function Page({ params }: { params: Promise<{ locale: string; batchId: string }> }) {
  const { locale, batchId } = await params;
  setRequestLocale(locale);
  await loadEngineObject(locale, "batch", batchId);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("batchTitle")}</h1>
      <BatchDetail batchId={batchId} />
    </section>
  );
}
