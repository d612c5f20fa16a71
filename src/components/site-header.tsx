import { getLocale, getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";
import { signOutAction } from "@/server/auth/actions";
import { getSessionUser } from "@/server/auth/session-user";
import { LanguageSwitcher } from "./language-switcher";
import { Disclosure } from "./ui/disclosure";
import {
  IconDashboard,
  IconEngine,
  IconPipelines,
  IconSettings,
  IconShield,
  IconSignIn,
  IconSignOut,
  IconUserPlus,
  ProductMark,
} from "./ui/icons";
import { NavLink } from "./ui/nav-link";

/**
 * The bar on top of every page: the product's mark, the navigation with icons, account actions and the
 * language switcher. Below 1024 px the navigation folds behind a menu button, so the bar is one row
 * of 56 px on a phone (docs/ui.md, checked in e2e/design.spec.ts).
 */
export async function SiteHeader() {
  const t = await getTranslations("nav");
  const ta = await getTranslations("admin");
  const tp = await getTranslations("pipelines");
  const tu = await getTranslations("ui");
  const locale = await getLocale();
  const user = await getSessionUser();
  return (
    <header className="site-header">
      <nav aria-label={t("mainNavigation")} className="container nav">
        <Link href="/" className="brand">
          <ProductMark />
          <span>{t("brand")}</span>
        </Link>
        <Disclosure label={tu("menu")} variant="menu" className="nav-menu">
          <ul className="nav-links">
            {user ? (
              <>
                <li>
                  <NavLink href="/dashboard" exact>
                    <IconDashboard />
                    {t("dashboard")}
                  </NavLink>
                </li>
                {user.isAdmin ? (
                  <li>
                    <NavLink href="/pipelines">
                      <IconPipelines />
                      {tp("nav")}
                    </NavLink>
                  </li>
                ) : null}
                {user.isAdmin ? (
                  <li>
                    <NavLink href="/engine">
                      <IconEngine />
                      {t("engine")}
                    </NavLink>
                  </li>
                ) : null}
                {user.isAdmin ? (
                  <li>
                    <NavLink href="/admin">
                      <IconShield />
                      {ta("headerLink")}
                    </NavLink>
                  </li>
                ) : null}
                <li>
                  <NavLink href="/dashboard/settings">
                    <IconSettings />
                    {t("settings")}
                  </NavLink>
                </li>
              </>
            ) : (
              <>
                <li>
                  <NavLink href="/sign-in">
                    <IconSignIn />
                    {t("signIn")}
                  </NavLink>
                </li>
                <li>
                  <NavLink href="/sign-up">
                    <IconUserPlus />
                    {t("signUp")}
                  </NavLink>
                </li>
              </>
            )}
          </ul>
          <div className="nav-tools">
            <LanguageSwitcher />
            {user ? (
              <form action={signOutAction}>
                <input type="hidden" name="locale" value={locale} />
                <button type="submit" className="nav-link nav-button">
                  <IconSignOut />
                  {t("signOut")}
                </button>
              </form>
            ) : null}
          </div>
        </Disclosure>
      </nav>
    </header>
  );
}
