import { getTranslations, setRequestLocale } from "next-intl/server";
import { ApiReference } from "@/components/api-reference";
import { SWAGGER_TEXT, type SwaggerTextKey } from "@/components/api-reference-text";
import { titleFrom } from "@/i18n/metadata";

const OPENAPI_PATH = "/api/openapi.json";

export const generateMetadata = titleFrom("account", "apiReference.title");

/** The REST API's reference: /api/openapi.json rendered by Swagger UI, served from our own origin. */
export default async function ApiReferencePage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("account.apiReference");
  const keys = Object.keys(SWAGGER_TEXT) as SwaggerTextKey[];
  const labels = Object.fromEntries(keys.map((k) => [k, t(`ui.${k}`)])) as Record<SwaggerTextKey, string>;
  return (
    <section className="stack">
      <h1>{t("title")}</h1>
      <p className="lead">
        {t("lead")} <a href={OPENAPI_PATH}>{OPENAPI_PATH}</a>
      </p>
      <p className="muted small">{t("englishNote")}</p>
      <ApiReference loading={t("loading")} failed={t("failed")} labels={labels} />
    </section>
  );
}
