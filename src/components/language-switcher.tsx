"use client";

import { useParams } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useTransition } from "react";
import { usePathname, useRouter } from "@/i18n/navigation";
import { routing, type Locale } from "@/i18n/routing";

/** A labelled select that reloads the current page in another language. */
export function LanguageSwitcher() {
  const t = useTranslations();
  const locale = useLocale();
  const router = useRouter();
  const pathname = usePathname();
  const params = useParams();
  const [pending, startTransition] = useTransition();

  return (
    <label className="language">
      <span className="visually-hidden">{t("nav.language")}</span>
      <select
        value={locale}
        disabled={pending}
        aria-label={t("nav.language")}
        onChange={(event) => {
          const next = event.target.value as Locale;
          const query = typeof window === "undefined" ? "" : window.location.search;
          startTransition(() => {
            // @ts-expect-error -- params always match the current pathname
            router.replace({ pathname: pathname + query, params }, { locale: next });
          });
        }}
      >
        {routing.locales.map((l) => (
          <option key={l} value={l}>
            {t(`locales.${l}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
