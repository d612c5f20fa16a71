import { getTranslations } from "next-intl/server";

// Loading states sit on list pages only: a loading boundary above a detail page would stream its
// response before the page could answer 404 for an absent id (Next sends 200 once streaming starts).
export default async function AdminLoading() {
  const t = await getTranslations("admin");
  return (
    <p className="muted" role="status" aria-live="polite">
      {t("loading")}
    </p>
  );
}
