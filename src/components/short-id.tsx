import { Link } from "@/i18n/navigation";
import { CopyButton } from "./copy-button";

/**
 * An id people may need to quote or paste. Ids are time-ordered UUIDs, so rows made the same minute share
 * their first characters: a short id shows the random tail ("…4f9c2a1b") with the full value as its tooltip;
 * `full` shows all of it. Both in monospace with a copy button that copies the full value.
 */
export function ShortId({ id, href, full = false }: { id: string; href?: string; full?: boolean }) {
  const text = full || id.length <= 12 ? id : `…${id.slice(-8)}`;
  const code = (
    <code className={full ? "id id-full" : "id"} title={id}>
      {text}
    </code>
  );
  return (
    <span className="id-cell">
      {href ? <Link href={href}>{code}</Link> : code}
      <CopyButton value={id} label={id} compact />
    </span>
  );
}
