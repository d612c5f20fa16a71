import { getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";

/** The 403 page (Next's forbidden()): a signed-in user asked for a page that is not theirs to see. */
export default async function Forbidden() {
  const t = await getTranslations("admin.forbidden");
  return (
    <section className="stack narrow">
      <h1>{t("title")}</h1>
      <p>{t("body")}</p>
      <p>
        <Link href="/dashboard">{t("back")}</Link>
      </p>
    </section>
  );
}
