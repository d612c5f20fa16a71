"use client";

import { useTranslations } from "next-intl";
import { Link, usePathname } from "@/i18n/navigation";

const SECTIONS = [
  ["/admin", "summary"],
  ["/admin/meshes", "meshes"],
  ["/admin/sessions", "sessions"],
  ["/admin/invites", "invites"],
  ["/admin/audit", "audit"],
] as const;

/** The admin sections, the current one marked for assistive technology and the eye. */
export function AdminNav() {
  const t = useTranslations("admin.nav");
  const pathname = usePathname();
  return (
    <nav aria-label={t("label")} className="admin-nav">
      <ul>
        {SECTIONS.map(([href, key]) => {
          const current = href === "/admin" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
          return (
            <li key={key}>
              <Link href={href} aria-current={current ? "page" : undefined}>
                {t(key)}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
