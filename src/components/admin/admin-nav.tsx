"use client";

import { useTranslations } from "next-intl";
import { SectionNav } from "@/components/ui/section-nav";

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
  return (
    <SectionNav
      label={t("label")}
      items={SECTIONS.map(([href, key]) => ({ href, label: t(key), exact: href === "/admin" }))}
    />
  );
}
