import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Link } from "@/i18n/navigation";
import { IconChevronLeft, IconChevronRight } from "./icons";
import { pageWindow } from "./page-window";

/**
 * Page numbers with jumps for lists paged by the address (admin tables): previous, the first and last
 * page, the current one and its neighbours, next, and a "go to page" field that is a plain GET form
 * (works before the page's script loads). `hrefFor` builds the address of a page with the view's other
 * parameters; `hidden` are those parameters for the jump form.
 */
export function LinkPager({
  page,
  pages,
  hrefFor,
  action,
  hidden,
  summary,
  label,
}: {
  page: number;
  pages: number;
  hrefFor: (page: number) => string;
  action: string;
  hidden: Record<string, string>;
  summary?: ReactNode;
  label: string;
}) {
  const t = useTranslations("ui.pager");
  return (
    <nav className="pager" aria-label={label}>
      {summary ? <p className="pager-summary">{summary}</p> : null}
      {pages > 1 ? (
        <div className="pager-controls">
          <ul className="pager-pages">
            <li>
              {page > 1 ? (
                <Link className="pager-step" href={hrefFor(page - 1)} rel="prev" aria-label={t("previous")}>
                  <IconChevronLeft size={16} />
                  <span className="pager-step-word">{t("previousShort")}</span>
                </Link>
              ) : null}
            </li>
            {pageWindow(page, pages).map((p, i) =>
              p === "gap" ? (
                <li key={`gap-${i}`} className="pager-gap" aria-hidden="true">
                  …
                </li>
              ) : (
                <li key={p}>
                  <Link
                    className="pager-page"
                    href={hrefFor(p)}
                    aria-label={t("page", { page: p })}
                    aria-current={p === page ? "page" : undefined}
                  >
                    {p}
                  </Link>
                </li>
              ),
            )}
            <li>
              {page < pages ? (
                <Link className="pager-step" href={hrefFor(page + 1)} rel="next" aria-label={t("next")}>
                  <span className="pager-step-word">{t("nextShort")}</span>
                  <IconChevronRight size={16} />
                </Link>
              ) : null}
            </li>
          </ul>
          <form className="pager-jump" action={action} method="get">
            {Object.entries(hidden).map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
            <label>
              <span>{t("goTo")}</span>
              <input type="number" name="page" min={1} max={pages} inputMode="numeric" defaultValue={page} required />
            </label>
            <button type="submit" className="button secondary small">
              {t("go")}
            </button>
          </form>
        </div>
      ) : null}
    </nav>
  );
}
