import type { ReactNode } from "react";
import { ShortId } from "./short-id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "review_count" → "Review count": for keys nobody has named in the message files. */
export const humanize = (key: string) => key.replace(/[_-]+/g, " ").replace(/^\w/, (c) => c.toUpperCase());

function ValueView({ value, labelOf }: { value: unknown; labelOf: (key: string) => string }): ReactNode {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return UUID.test(value) ? <ShortId id={value} /> : value;
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null)) {
      return value.map((v, i) => (
        <span key={i}>
          {i > 0 ? ", " : null}
          <ValueView value={v} labelOf={labelOf} />
        </span>
      ));
    }
    return (
      <ol className="list">
        {value.map((v, i) => (
          <li key={i}>
            <ValueView value={v} labelOf={labelOf} />
          </li>
        ))}
      </ol>
    );
  }
  return <KeyValues value={value as Record<string, unknown>} labelOf={labelOf} />;
}

/**
 * A record's details as label and value pairs (never raw JSON): labels from `labelOf` (translated where
 * the page knows the key), ids as short ids with their copy button, lists inline, nested records nested.
 */
export function KeyValues({
  value,
  labelOf = humanize,
}: {
  value: Record<string, unknown>;
  labelOf?: (key: string) => string;
}) {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="kv">
      {entries.map(([k, v]) => (
        <div key={k} style={{ display: "contents" }}>
          <dt>{labelOf(k)}</dt>
          <dd>
            <ValueView value={v} labelOf={labelOf} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
