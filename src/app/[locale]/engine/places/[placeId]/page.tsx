import { getTranslations, setRequestLocale } from "next-intl/server";
import { PlaceDetail } from "@/components/engine/place-detail";
import { engineTitle } from "@/i18n/page-titles";
import { loadEngineObject } from "@/trpc/load-engine";

export const generateMetadata = engineTitle("place", "placeId", "placeTitle");

export default async function Page({ params }: { params: Promise<{ locale: string; placeId: string }> }) {
  const { locale, placeId } = await params;
  setRequestLocale(locale);
  await loadEngineObject(locale, "place", placeId);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("placeTitle")}</h1>
      <PlaceDetail placeId={placeId} />
    </section>
  );
}
