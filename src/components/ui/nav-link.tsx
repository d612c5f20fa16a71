"use client";

import type { ComponentProps } from "react";
import { Link, usePathname } from "@/i18n/navigation";

/**
 * A navigation link that marks itself as the current page (aria-current) when the pathname is its
 * href or below it; `exact` for a section's own start page (/admin, /engine, /dashboard).
 */
export function NavLink({
  href,
  exact,
  className,
  ...rest
}: Omit<ComponentProps<typeof Link>, "href"> & { href: string; exact?: boolean }) {
  const pathname = usePathname();
  const current = exact ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
  return <Link href={href} aria-current={current ? "page" : undefined} className={className ?? "nav-link"} {...rest} />;
}
