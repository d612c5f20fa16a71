import { getTranslations } from "next-intl/server";
import { humanize, KeyValues } from "@/components/key-values";
import { ScrollRegion } from "@/components/widgets/scroll-region";

/** One legacy value, drawn by its shape: text, list, table of objects, or key/value pairs. */
function Value({ value, label }: { value: unknown; label: string }) {
  if (value === null || value === undefined) return <span>—</span>;
  if (typeof value !== "object") return <p>{String(value)}</p>;
  if (Array.isArray(value)) {
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const columns = [...new Set(value.flatMap((v) => Object.keys(v as object)))];
      return (
        <ScrollRegion label={label}>
          <table className="table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {humanize(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {value.map((row, i) => (
                <tr key={i}>
                  {columns.map((c) => (
                    <td key={c}>{String((row as Record<string, unknown>)[c] ?? "")}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      );
    }
    return (
      <ul className="list">
        {value.map((v, i) => (
          <li key={i}>
            {v !== null && typeof v === "object" ? <KeyValues value={v as Record<string, unknown>} /> : String(v)}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <dl className="metrics">
      {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
        <div key={k}>
          <dt>{humanize(k)}</dt>
          <dd>
            {v !== null && typeof v === "object" ? <KeyValues value={v as Record<string, unknown>} /> : String(v)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A legacy (v1) report: its sections as stored, the known ones with translated titles, in a fixed order. */
export async function ReportV1View({ report }: { report: Record<string, unknown> }) {
  const t = await getTranslations("pipelines.report.v1");
  const known = ["summary", "sentiment_overview", "top_themes", "key_issues", "recommendations"];
  const keys = [
    ...known.filter((k) => k in report),
    ...Object.keys(report).filter((k) => !known.includes(k) && k !== "generated_at"),
  ];
  return (
    <article className="report stack" data-report-format="v1">
      <p className="notice">{t("legacyNotice")}</p>
      {keys.map((k) => (
        <section key={k} className="report-section">
          <h2>{t.has(k) ? t(k) : humanize(k)}</h2>
          <Value value={report[k]} label={t.has(k) ? t(k) : humanize(k)} />
        </section>
      ))}
    </article>
  );
}
