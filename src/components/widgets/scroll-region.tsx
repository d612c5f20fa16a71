"use client";

import { useEffect, useRef, type ReactNode } from "react";

/**
 * A horizontally scrollable table wrapper that keyboard users can focus and scroll (WCAG 2.1.1).
 * With `cards`, the table inside turns into one card per row on phones (below 760 px; `.cards-on-phone`
 * in globals.css): every cell on its own line after its column's name, so no key column is off-screen.
 * The names are the header cells' text, copied to each cell's `data-label` here (and again when rows
 * change, for live tables), so the tables themselves need no change.
 */
export function ScrollRegion({ label, children, cards }: { label: string; children: ReactNode; cards?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
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
    <div
      ref={ref}
      className={cards ? "table-wrap cards-on-phone" : "table-wrap"}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {children}
    </div>
  );
}
