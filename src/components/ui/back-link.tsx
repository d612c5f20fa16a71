import type { ComponentProps, ReactNode } from "react";
import { Link } from "@/i18n/navigation";
import { IconChevronLeft } from "./icons";

/**
 * The way up from a detail page to its list ("All meshes", "All pipelines"): one small line with a
 * chevron above the page's title, the same on every page and short enough for a phone's first screen.
 */
export function BackLink({ href, children }: { href: ComponentProps<typeof Link>["href"]; children: ReactNode }) {
  return (
    <Link href={href} className="back-link">
      <IconChevronLeft size={16} />
      {children}
    </Link>
  );
}
