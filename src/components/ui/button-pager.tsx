"use client";

import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { IconChevronLeft, IconChevronRight } from "./icons";
import { clampPage, pageWindow } from "./page-window";

/** The same pager as LinkPager for lists paged in the browser (engine tables, run history). */
export function ButtonPager({
  page,
  pages,
  onPage,
  label,
  summary,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  label: string;
  summary?: ReactNode;
}) {
  const t = useTranslations("ui.pager");
  const [typed, setTyped] = useState("");
  if (pages <= 1 && !summary) return null;
  return (
    <nav className="pager" aria-label={label}>
      {summary ? <p className="pager-summary">{summary}</p> : null}
      {pages > 1 ? (
        <div className="pager-controls">
          <ul className="pager-pages">
            <li>
              <button
                type="button"
                className="pager-step"
                disabled={page <= 1}
                aria-label={t("previous")}
                onClick={() => onPage(page - 1)}
              >
                <IconChevronLeft size={16} />
                <span className="pager-step-word">{t("previousShort")}</span>
              </button>
            </li>
            {pageWindow(page, pages).map((p, i) =>
              p === "gap" ? (
                <li key={`gap-${i}`} className="pager-gap" aria-hidden="true">
                  …
                </li>
              ) : (
                <li key={p}>
                  <button
                    type="button"
                    className="pager-page"
                    aria-label={t("page", { page: p })}
                    aria-current={p === page ? "page" : undefined}
                    onClick={() => onPage(p)}
                  >
                    {p}
                  </button>
                </li>
              ),
            )}
            <li>
              <button
                type="button"
                className="pager-step"
                disabled={page >= pages}
                aria-label={t("next")}
                onClick={() => onPage(page + 1)}
              >
                <span className="pager-step-word">{t("nextShort")}</span>
                <IconChevronRight size={16} />
              </button>
            </li>
          </ul>
          {pages > 7 ? (
            <form
              className="pager-jump"
              onSubmit={(e) => {
                e.preventDefault();
                onPage(clampPage(typed, pages));
              }}
            >
              <label>
                <span>{t("goTo")}</span>
                <input
                  type="number"
                  min={1}
                  max={pages}
                  inputMode="numeric"
                  value={typed}
                  placeholder={String(page)}
                  onChange={(e) => setTyped(e.target.value)}
                />
              </label>
              <button type="submit" className="button secondary small">
                {t("go")}
              </button>
            </form>
          ) : null}
        </div>
      ) : null}
    </nav>
  );
}
