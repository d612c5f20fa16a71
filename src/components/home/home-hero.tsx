import { getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";

/** What the product does, in plain words, and the way in: sign up or sign in. */
export async function HomeHero() {
  const t = await getTranslations("home");
  return (
    <div className="hero">
      <h1>{t("title")}</h1>
      <p className="lead">{t("intro")}</p>
      <p className="hero-actions">
        <Link className="button" href="/sign-up">
          {t("signUp")}
        </Link>
        <Link className="button secondary" href="/sign-in">
          {t("signIn")}
        </Link>
      </p>
    </div>
  );
}
