"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * A horizontally scrollable table wrapper that keyboard users can focus and scroll (WCAG 2.1.1). When
 * its content is wider than the region and more of it lies to the right (a heatmap's newest months, a
 * table's last columns), a visible line says so; the edge shadows alone are hidden under coloured cells.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
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
  return (
    <>
      <div ref={ref} className="table-wrap" role="region" aria-label={label} tabIndex={0} data-more={more || undefined}>
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
