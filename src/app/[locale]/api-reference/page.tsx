import { getTranslations, setRequestLocale } from "next-intl/server";
import { ApiReference } from "@/components/api-reference";
import { titleFrom } from "@/i18n/metadata";

const OPENAPI_PATH = "/api/openapi.json";

export const generateMetadata = titleFrom("account", "apiReference.title");

/** The REST API's reference: /api/openapi.json rendered by Swagger UI, served from our own origin. */
export default async function ApiReferencePage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("account.apiReference");
  return (
    <section className="stack">
      <h1>{t("title")}</h1>
      <p className="lead">
        {t("lead")} <a href={OPENAPI_PATH}>{OPENAPI_PATH}</a>
      </p>
      <ApiReference loading={t("loading")} failed={t("failed")} />
    </section>
  );
}
