import { getTranslations, setRequestLocale } from "next-intl/server";
import { ApiKeysAdmin } from "@/components/engine/api-keys-admin";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("engine", "keysTitle");

export default async function Page({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("engine");
  return (
    <section className="stack">
      <h1>{t("keysTitle")}</h1>
      <ApiKeysAdmin />
    </section>
  );
}
