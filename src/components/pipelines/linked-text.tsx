import type { ReactNode } from "react";
import { Link } from "@/i18n/navigation";
import type { EvidenceLink } from "@/server/pipelines/review-analytics/synthesis/citations";

/** Where a report's figures lead: the page of one figure's reviews. */
export const evidenceHref = (pipelineId: string, executionId: string, ref: string) =>
  `/pipelines/${encodeURIComponent(pipelineId)}/executions/${encodeURIComponent(executionId)}/evidence/${encodeURIComponent(ref)}`;

/**
 * A narrative text with its figures as links to their reviews (report.links of this field and item, or
 * a section's own links such as places_compared_links).
 * Spans out of the text's bounds or overlapping an earlier one are left as text.
 */
export function LinkedText({
  text,
  spans,
  href,
  title,
}: {
  text: string;
  spans: readonly Pick<EvidenceLink, "start" | "end" | "ref">[];
  href: (ref: string) => string;
  title: string;
}) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at || s.end > text.length || s.end <= s.start) continue;
    parts.push(text.slice(at, s.start));
    parts.push(
      <Link key={s.start} href={href(s.ref)} className="evidence-link" title={title} data-evidence-ref={s.ref}>
        {text.slice(s.start, s.end)}
      </Link>,
    );
    at = s.end;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}
