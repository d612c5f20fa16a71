import type { ReactNode } from "react";
import { IconAlert, IconShield, IconCompass } from "./icons";

const ICONS = { notFound: IconCompass, forbidden: IconShield, error: IconAlert } as const;

/**
 * A page that stands for a status instead of content (not found, forbidden, failed): one look for all
 * of them, a card with an icon, the status as a small code ("404"), the title (the page's h1), what
 * happened, and the ways on (the first one a primary button). Error pages keep the site's header and
 * navigation around them, so the person is never left without a way back.
 */
export function StatusPage({
  kind,
  code,
  title,
  children,
  actions,
  alert = false,
}: {
  kind: keyof typeof ICONS;
  code?: string;
  title: ReactNode;
  children?: ReactNode;
  actions: ReactNode;
  alert?: boolean;
}) {
  const Icon = ICONS[kind];
  return (
    <section className={`status-page status-page-${kind}`} role={alert ? "alert" : undefined}>
      <span className="status-page-icon">
        <Icon size={32} />
      </span>
      {code ? <p className="status-page-code">{code}</p> : null}
      <h1>{title}</h1>
      {children ? <div className="status-page-text">{children}</div> : null}
      <div className="status-page-actions">{actions}</div>
    </section>
  );
}
