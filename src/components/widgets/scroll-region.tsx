"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * A horizontally scrollable table wrapper that keyboard users can focus and scroll (WCAG 2.1.1). When
 * its content is wider than the region and more of it lies to the right (a heatmap's newest months, a
 * table's last columns), a visible line says so; the edge shadows alone are hidden under coloured cells.
 * With `cards`, the table inside turns into one card per row on phones (below 760 px; `.cards-on-phone`
 * in globals.css): every cell on its own line after its column's name, so no key column is off-screen.
 * The names are the header cells' text, copied to each cell's `data-label` here (and again when rows
 * change, for live tables), so the tables themselves need no change.
 */
export function ScrollRegion({ label, children, cards }: { label: string; children: ReactNode; cards?: boolean }) {
  const t = useTranslations("truth");
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setMore(el.scrollWidth - el.clientWidth - el.scrollLeft > 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    el.addEventListener("scroll", check, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener("scroll", check);
    };
  }, []);
  useEffect(() => {
    const root = ref.current;
    if (!cards || !root) return;
    const labelCells = () => {
      for (const table of Array.from(root.querySelectorAll("table"))) {
        const names: string[] = [];
        for (const th of Array.from(table.querySelectorAll("thead tr:first-child th"))) {
          const span = (th as HTMLTableCellElement).colSpan || 1;
          for (let i = 0; i < span; i++) names.push((th.textContent ?? "").trim());
        }
        for (const row of Array.from(table.querySelectorAll("tbody tr"))) {
          let col = 0;
          for (const cell of Array.from((row as HTMLTableRowElement).cells)) {
            const name = names[col] ?? "";
            if (cell.getAttribute("data-label") !== name) cell.setAttribute("data-label", name);
            col += cell.colSpan || 1;
          }
        }
      }
    };
    labelCells();
    const observer = new MutationObserver(labelCells);
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [cards]);
  return (
    <>
      <div
        ref={ref}
        className={cards ? "table-wrap cards-on-phone" : "table-wrap"}
        role="region"
        aria-label={label}
        tabIndex={0}
        data-more={more || undefined}
      >
        {children}
      </div>
      {more ? (
        <p className="scroll-cue" aria-hidden="true">
          {t("scrollCue")}
        </p>
      ) : null}
    </>
  );
}
