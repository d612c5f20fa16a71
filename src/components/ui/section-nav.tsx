"use client";

import { usePathname } from "@/i18n/navigation";
import { Disclosure } from "./disclosure";
import { NavLink } from "./nav-link";

export interface SectionItem {
  href: string;
  label: string;
  /** Current only on this exact path (a section's start page), not below it. */
  exact?: boolean;
}

/**
 * A section's own navigation (admin console, review engine) as tabs on wide screens; on a phone one
 * row with a button naming the current section, which opens the list (Disclosure).
 */
export function SectionNav({ label, items }: { label: string; items: SectionItem[] }) {
  const pathname = usePathname();
  const current =
    items.find((i) => (i.exact ? pathname === i.href : pathname === i.href || pathname.startsWith(`${i.href}/`))) ??
    items[0];
  return (
    <nav aria-label={label} className="section-nav">
      <Disclosure label={label} variant="section" buttonText={current?.label}>
        <ul>
          {items.map((i) => (
            <li key={i.href}>
              <NavLink href={i.href} exact={i.exact} className="section-link">
                {i.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </Disclosure>
    </nav>
  );
}
