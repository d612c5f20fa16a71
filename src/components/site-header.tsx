import { getLocale, getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";
import { signOutAction } from "@/server/auth/actions";
import { getSessionUser } from "@/server/auth/session-user";
import { LanguageSwitcher } from "./language-switcher";

/** The bar on top of every page: brand, navigation, account actions and the language switcher. */
export async function SiteHeader() {
  const t = await getTranslations("nav");
  const ta = await getTranslations("admin");
  const tp = await getTranslations("pipelines");
  const locale = await getLocale();
  const user = await getSessionUser();
  return (
    <header className="site-header">
      <nav aria-label={t("mainNavigation")} className="container nav">
        <Link href="/" className="brand">
          {t("brand")}
        </Link>
        <div className="nav-links">
          {user ? (
            <>
              <Link href="/dashboard">{t("dashboard")}</Link>
              {user.isAdmin ? <Link href="/pipelines">{tp("nav")}</Link> : null}
              <Link href="/dashboard/settings">{t("settings")}</Link>
              {user.isAdmin ? <Link href="/admin">{ta("headerLink")}</Link> : null}
              {user.isAdmin ? <Link href="/engine">{t("engine")}</Link> : null}
              <form action={signOutAction}>
                <input type="hidden" name="locale" value={locale} />
                <button type="submit" className="link-button">
                  {t("signOut")}
                </button>
              </form>
            </>
          ) : (
            <>
              <Link href="/sign-in">{t("signIn")}</Link>
              <Link href="/sign-up">{t("signUp")}</Link>
            </>
          )}
          <LanguageSwitcher />
        </div>
      </nav>
    </header>
  );
}
