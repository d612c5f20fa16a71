import { getTranslations } from "next-intl/server";

export default async function AdminLoading() {
  const t = await getTranslations("admin");
  return (
    <p className="muted" role="status" aria-live="polite">
      {t("loading")}
    </p>
  );
}
